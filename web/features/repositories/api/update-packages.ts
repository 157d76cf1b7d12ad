import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  type AdvisoriesResponse,
  advisoriesResponseSchema,
  type PackagesBody,
} from '#shared/schemas/advisories.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { repositoryKeys, repositoryPath } from './query-keys.ts';

/** PUT /repositories/{id}/packages {packages}: replaces the list; answers the advisories as they now are. */
export function updatePackages(fullName: string, body: PackagesBody): Promise<AdvisoriesResponse> {
  return apiRequest(`${repositoryPath(fullName)}/packages`, advisoriesResponseSchema, {
    method: 'PUT',
    body,
  });
}

export function useUpdatePackages(fullName: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PackagesBody) => updatePackages(fullName, body),
    onSuccess: async (answer) => {
      queryClient.setQueryData(repositoryKeys.advisories(fullName), answer);
      // Advisories of packages taken off the list go with them: the counts and the score may change.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: repositoryKeys.health(fullName) }),
        queryClient.invalidateQueries({ queryKey: repositoryKeys.detail(fullName) }),
        queryClient.invalidateQueries({ queryKey: repositoryKeys.list() }),
      ]);
    },
  });
}
