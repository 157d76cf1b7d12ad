import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type BackfillResponse, backfillResponseSchema } from '#shared/schemas/history.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { repositoryKeys, repositoryPath } from './query-keys.ts';

/** POST /repositories/{id}/history/backfill → 202: the full star history is loaded from GitHub. */
export function backfillHistory(fullName: string): Promise<BackfillResponse> {
  return apiRequest(`${repositoryPath(fullName)}/history/backfill`, backfillResponseSchema, {
    method: 'POST',
  });
}

export function useBackfillHistory(fullName: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => backfillHistory(fullName),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: repositoryKeys.metrics(fullName) });
    },
  });
}
