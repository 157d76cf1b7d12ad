import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RepositorySummary } from '../../../../shared/schemas/repositories.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { repositoryKeys } from './query-keys.ts';

/**
 * GET /repositories/: every repository the member may see (DESIGN §1, §4). The schema is
 * imported when the call is made, so the shell's sidebar counts (which share this query) keep
 * zod out of the first-load bundle.
 */
export async function getRepositories(signal?: AbortSignal): Promise<RepositorySummary[]> {
  const { repositoryListResponseSchema } = await import('../../../../shared/schemas/repositories.ts');
  const { repositories } = await apiRequest('/repositories/', repositoryListResponseSchema, { signal });
  return repositories;
}

export const repositoriesQueryOptions = queryOptions({
  queryKey: repositoryKeys.list(),
  queryFn: ({ signal }) => getRepositories(signal),
});

export function useRepositories() {
  return useQuery(repositoriesQueryOptions);
}
