import { queryOptions, useQuery } from '@tanstack/react-query';
import { type LinkedIdentities, linkedIdentitiesSchema } from '#shared/schemas/oidc.ts';
import { apiRequest } from '#web/lib/api-client.ts';

/** GET /auth/me/identities: the provider identities linked to the account, and whether it has a password. */
export function getIdentities(signal?: AbortSignal): Promise<LinkedIdentities> {
  return apiRequest('/auth/me/identities', linkedIdentitiesSchema, { signal });
}

export const identitiesQuery = queryOptions({
  queryKey: ['auth', 'me', 'identities'],
  queryFn: ({ signal }) => getIdentities(signal),
});

export function useIdentities() {
  return useQuery(identitiesQuery);
}
