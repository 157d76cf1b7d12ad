import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  type HealthOverrideBody,
  healthResponseSchema,
  type RepositoryHealth,
} from '#shared/schemas/health.ts';
import type { Repository } from '#shared/schemas/repositories.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { repositoryKeys, repositoryPath } from './query-keys.ts';

/** PUT /repositories/{id}/health/override {reason}: "finished — stable, no activity expected". */
export async function setHealthOverride(
  fullName: string,
  body: HealthOverrideBody,
): Promise<RepositoryHealth> {
  const { health } = await apiRequest(`${repositoryPath(fullName)}/health/override`, healthResponseSchema, {
    method: 'PUT',
    body,
  });
  return health;
}

/** DELETE /repositories/{id}/health/override. */
export async function clearHealthOverride(fullName: string): Promise<RepositoryHealth> {
  const { health } = await apiRequest(`${repositoryPath(fullName)}/health/override`, healthResponseSchema, {
    method: 'DELETE',
  });
  return health;
}

/**
 * Setting or clearing the override scores the repository again: the answer replaces the health,
 * the detail's summary follows it, and the list (its Health column and filters) is read again.
 */
function useHealthChange<Variables>(
  fullName: string,
  call: (variables: Variables) => Promise<RepositoryHealth>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: async (health) => {
      queryClient.setQueryData(repositoryKeys.health(fullName), health);
      queryClient.setQueryData<Repository>(repositoryKeys.detail(fullName), (repository) =>
        repository ? { ...repository, health: { score: health.score, grade: health.grade } } : repository,
      );
      await queryClient.invalidateQueries({ queryKey: repositoryKeys.list() });
    },
  });
}

export function useSetHealthOverride(fullName: string) {
  return useHealthChange(fullName, (body: HealthOverrideBody) => setHealthOverride(fullName, body));
}

export function useClearHealthOverride(fullName: string) {
  return useHealthChange(fullName, () => clearHealthOverride(fullName));
}
