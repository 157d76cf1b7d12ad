import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AuthProviders } from '#shared/schemas/oidc.ts';
import { apiRequest } from '#web/lib/api-client.ts';

/**
 * GET /auth/providers: which sign-in methods the auth screens offer. The schema (and zod with
 * it) is imported with the call, not with the screen: the sign-in screen's first load does
 * without zod (docs/decisions.md, "The first screens").
 */
export async function getAuthProviders(signal?: AbortSignal): Promise<AuthProviders> {
  const { authProvidersSchema } = await import('#shared/schemas/oidc.ts');
  return apiRequest('/auth/providers', authProvidersSchema, { signal });
}

export const authProvidersQuery = queryOptions({
  queryKey: ['auth', 'providers'],
  queryFn: ({ signal }) => getAuthProviders(signal),
  staleTime: 5 * 60_000,
});

/** While loading, or when the call fails, the screens behave as before single sign-on: password only. */
export function useAuthProviders() {
  return useQuery(authProvidersQuery);
}
