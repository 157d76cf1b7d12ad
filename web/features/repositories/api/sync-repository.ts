import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  type QueuedResponse,
  queuedResponseSchema,
  type Repository,
  repositoryResponseSchema,
} from '#shared/schemas/repositories.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { getRepository } from './get-repository.ts';
import { repositoryKeys, repositoryPath } from './query-keys.ts';

/**
 * PUT /repositories/{id} with an empty body: update from GitHub. 200 with the repository, or
 * 202 when GitHub's pace is used up and the update runs in the background by `eta`.
 */
export async function syncRepository(fullName: string): Promise<Repository | QueuedResponse> {
  const answer = await apiRequest(
    repositoryPath(fullName),
    z.union([repositoryResponseSchema, queuedResponseSchema]),
    {
      method: 'PUT',
    },
  );
  return 'queued' in answer ? answer : answer.repository;
}

export type SyncResult =
  | {
      queued: false;
      repository: Repository;
      /** The update worked but loading the details again did not. */
      refreshFailed: boolean;
    }
  | { queued: true; eta: string };

/**
 * Updates from GitHub, then loads the details again (a failed refresh after the
 * update has its own message). The list, metrics, commits and versions are refreshed as well.
 */
export function useSyncRepository(fullName: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (): Promise<SyncResult> => {
      const synced = await syncRepository(fullName);
      if ('queued' in synced) return { queued: true, eta: synced.eta };
      queryClient.setQueryData(repositoryKeys.detail(fullName), synced);
      try {
        const fresh = await queryClient.fetchQuery({
          queryKey: repositoryKeys.detail(fullName),
          queryFn: ({ signal }) => getRepository(fullName, { signal }),
          staleTime: 0,
        });
        return { queued: false, repository: fresh, refreshFailed: false };
      } catch {
        return { queued: false, repository: synced, refreshFailed: true };
      }
    },
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: repositoryKeys.list() }),
        queryClient.invalidateQueries({ queryKey: repositoryKeys.metrics(fullName) }),
        queryClient.invalidateQueries({ queryKey: repositoryKeys.commits(fullName) }),
        // New GitHub releases become versions during the update (docs/product.md#releases).
        queryClient.invalidateQueries({ queryKey: repositoryKeys.versions(fullName) }),
      ]);
    },
  });
}
