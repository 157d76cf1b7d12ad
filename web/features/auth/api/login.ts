import { useMutation } from '@tanstack/react-query';
import { type Credentials, useAuth } from '#web/lib/auth/auth-context.tsx';

export interface LoginVariables extends Credentials {
  remember_me: boolean;
}

/** POST /auth/login through the auth context, which keeps the session (lib/auth/api/login.ts). */
export function useLogin() {
  const { login } = useAuth();
  return useMutation({
    mutationFn: ({ remember_me, ...credentials }: LoginVariables) => login(credentials, remember_me),
  });
}
