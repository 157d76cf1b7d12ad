import { queryOptions, useQuery } from '@tanstack/react-query';
import { advisoriesResponseSchema } from '#shared/schemas/advisories.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { repositoryKeys, repositoryPath } from './query-keys.ts';

/**
 * GET /repositories/{id}/advisories: its security advisories, open and fixed, with the packages
 * they are read for and when they were last read from GitHub.
 */
export function advisoriesQueryOptions(fullName: string) {
  return queryOptions({
    queryKey: repositoryKeys.advisories(fullName),
    queryFn: ({ signal }) =>
      apiRequest(`${repositoryPath(fullName)}/advisories`, advisoriesResponseSchema, { signal }),
  });
}

export function useAdvisories(fullName: string) {
  return useQuery(advisoriesQueryOptions(fullName));
}
