import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type Version, type VersionBody, versionResponseSchema } from '#shared/schemas/repositories.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { repositoryKeys, repositoryPath } from './query-keys.ts';

/** POST /repositories/{id}/versions → 201 {version}: a snapshot of the current metrics. */
export async function addVersion(fullName: string, body: VersionBody): Promise<Version> {
  const { version } = await apiRequest(`${repositoryPath(fullName)}/versions`, versionResponseSchema, {
    method: 'POST',
    body,
  });
  return version;
}

export function useAddVersion(fullName: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: VersionBody) => addVersion(fullName, body),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: repositoryKeys.versions(fullName) }),
        queryClient.invalidateQueries({ queryKey: repositoryKeys.detail(fullName) }),
        queryClient.invalidateQueries({ queryKey: repositoryKeys.list() }),
      ]);
    },
  });
}
