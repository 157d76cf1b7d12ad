import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  type MetadataBody,
  type Repository,
  repositoryResponseSchema,
} from '#shared/schemas/repositories.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { repositoryKeys, repositoryPath } from './query-keys.ts';

/** PUT /repositories/{id}/metadata/ {tags, notes}. */
export async function updateMetadata(fullName: string, body: MetadataBody): Promise<Repository> {
  const { repository } = await apiRequest(`${repositoryPath(fullName)}/metadata/`, repositoryResponseSchema, {
    method: 'PUT',
    body,
  });
  return repository;
}

export function useUpdateMetadata(fullName: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MetadataBody) => updateMetadata(fullName, body),
    onSuccess: async (repository) => {
      queryClient.setQueryData(repositoryKeys.detail(fullName), repository);
      await queryClient.invalidateQueries({ queryKey: repositoryKeys.list() });
    },
  });
}
