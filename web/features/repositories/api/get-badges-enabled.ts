import { queryOptions, useQuery } from '@tanstack/react-query';
import { type VersionResponse, versionResponseSchema } from '#shared/schemas/system.ts';
import { apiRequest } from '#web/lib/api-client.ts';

/**
 * Whether the server draws badges (PUBLIC_BADGES), read from `GET /version`'s `badges`. The same
 * cache entry as the footer's version (web/features/system/api/get-version.ts): one request for
 * both, fetched once a page load.
 */
export const badgesEnabledQueryOptions = queryOptions({
  queryKey: ['version'],
  queryFn: ({ signal }): Promise<VersionResponse> =>
    apiRequest('/version', versionResponseSchema, { signal }),
  staleTime: Number.POSITIVE_INFINITY,
  gcTime: Number.POSITIVE_INFINITY,
  select: (version: VersionResponse) => version.badges === true,
});

export function useBadgesEnabled(): boolean {
  return useQuery(badgesEnabledQueryOptions).data === true;
}
