import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RepositorySummary } from '../../shared/schemas/repositories.ts';
import { apiRequest } from './api-client.ts';

/** The list's cache key: the repositories feature's keys start from it, so its changes refresh this. */
export const REPOSITORY_LIST_KEY = ['repositories', 'list'] as const;

/**
 * GET /repositories/: every repository the member may see (docs/product.md#roles-and-visibility). One query
 * shared by the list, tags and statistics screens and the sidebar counts, so one request serves them all. The
 * schema is imported when the call is made, keeping zod out of the first-load bundle.
 */
export async function getRepositories(signal?: AbortSignal): Promise<RepositorySummary[]> {
  const { repositoryListResponseSchema } = await import('../../shared/schemas/repositories.ts');
  const { repositories } = await apiRequest('/repositories/', repositoryListResponseSchema, { signal });
  return repositories;
}

export const repositoriesQueryOptions = queryOptions({
  queryKey: REPOSITORY_LIST_KEY,
  queryFn: ({ signal }) => getRepositories(signal),
});

export function useRepositories() {
  return useQuery(repositoriesQueryOptions);
}
