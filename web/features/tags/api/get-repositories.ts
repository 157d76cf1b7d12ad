import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  type RepositorySummary,
  repositoryListResponseSchema,
} from '../../../../shared/schemas/repositories.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * GET /repositories/ under the repositories feature's list key, so this screen, the list and
 * the sidebar share one cached answer (features don't import each other; the key is the link).
 */
export const repositoriesQueryOptions = queryOptions({
  queryKey: ['repositories', 'list'] as const,
  queryFn: async ({ signal }): Promise<RepositorySummary[]> => {
    const { repositories } = await apiRequest('/repositories/', repositoryListResponseSchema, { signal });
    return repositories;
  },
});

export function useRepositories() {
  return useQuery(repositoriesQueryOptions);
}
