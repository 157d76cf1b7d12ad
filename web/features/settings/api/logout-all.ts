import { useMutation } from '@tanstack/react-query';
import { type MessageResponse, messageResponseSchema } from '#shared/schemas/auth.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { useAuth } from '#web/lib/auth/auth-context.tsx';

/** POST /auth/logout-all: revokes every session of the caller, this one included. */
export function postLogoutAll(): Promise<MessageResponse> {
  return apiRequest('/auth/logout-all', messageResponseSchema, { method: 'POST' });
}

/** Signs out everywhere, then here (the local session is already dead on the server). */
export function useLogoutAll() {
  const { logout } = useAuth();
  return useMutation({ mutationFn: postLogoutAll, onSuccess: () => logout() });
}
