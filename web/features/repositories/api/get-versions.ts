import { queryOptions, useQuery } from '@tanstack/react-query';
import { versionsResponseSchema } from '#shared/schemas/repositories.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { repositoryKeys } from './query-keys.ts';

/** GET /api/get-versions?repo_id= → {versions}. */
export function versionsQueryOptions(fullName: string) {
  return queryOptions({
    queryKey: repositoryKeys.versions(fullName),
    queryFn: async ({ signal }) => {
      const { versions } = await apiRequest(
        `/api/get-versions?repo_id=${encodeURIComponent(fullName)}`,
        versionsResponseSchema,
        { signal },
      );
      return versions;
    },
  });
}

export function useVersions(fullName: string) {
  return useQuery(versionsQueryOptions(fullName));
}
