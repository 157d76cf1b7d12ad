import { useQuery } from '@tanstack/react-query';
import { type AdminSignIn, adminSignInSchema } from '#shared/schemas/oidc.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { adminKeys } from './admin-keys.ts';

/** GET /auth/admin/sign-in → password login, the provider as discovery found it, recent failed sign-ins. */
export function getAdminSignIn(signal?: AbortSignal): Promise<AdminSignIn> {
  return apiRequest('/auth/admin/sign-in', adminSignInSchema, { signal });
}

export function useAdminSignIn() {
  return useQuery({
    queryKey: adminKeys.signIn,
    queryFn: ({ signal }) => getAdminSignIn(signal),
  });
}
