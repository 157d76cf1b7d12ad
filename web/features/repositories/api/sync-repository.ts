import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type Repository, repositoryResponseSchema } from '../../../../shared/schemas/repositories.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { getRepository } from './get-repository.ts';
import { repositoryKeys, repositoryPath } from './query-keys.ts';

/** PUT /repositories/{id} with an empty body: update from GitHub. */
export async function syncRepository(fullName: string): Promise<Repository> {
  const { repository } = await apiRequest(repositoryPath(fullName), repositoryResponseSchema, {
    method: 'PUT',
  });
  return repository;
}

export interface SyncResult {
  repository: Repository;
  /** The update worked but loading the details again did not. */
  refreshFailed: boolean;
}

/**
 * Updates from GitHub, then loads the details again (a failed refresh after the
 * update has its own message). The list, metrics and commits are refreshed as well.
 */
export function useSyncRepository(fullName: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (): Promise<SyncResult> => {
      const synced = await syncRepository(fullName);
      queryClient.setQueryData(repositoryKeys.detail(fullName), synced);
      try {
        const fresh = await queryClient.fetchQuery({
          queryKey: repositoryKeys.detail(fullName),
          queryFn: ({ signal }) => getRepository(fullName, { signal }),
          staleTime: 0,
        });
        return { repository: fresh, refreshFailed: false };
      } catch {
        return { repository: synced, refreshFailed: true };
      }
    },
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: repositoryKeys.list() }),
        queryClient.invalidateQueries({ queryKey: repositoryKeys.metrics(fullName) }),
        queryClient.invalidateQueries({ queryKey: repositoryKeys.commits(fullName) }),
      ]);
    },
  });
}
