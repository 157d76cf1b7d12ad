import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  type ReleaseSettingsBody,
  type ReleaseTracking,
  releaseTrackingResponseSchema,
} from '#shared/schemas/releases.ts';
import type { Repository } from '#shared/schemas/repositories.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { repositoryKeys, repositoryPath } from './query-keys.ts';

/** PUT /repositories/{id}/release-settings {include_prereleases, tag_pattern}. */
export async function updateReleaseSettings(
  fullName: string,
  body: ReleaseSettingsBody,
): Promise<ReleaseTracking> {
  const { release_tracking } = await apiRequest(
    `${repositoryPath(fullName)}/release-settings`,
    releaseTrackingResponseSchema,
    { method: 'PUT', body },
  );
  return release_tracking;
}

export function useUpdateReleaseSettings(fullName: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ReleaseSettingsBody) => updateReleaseSettings(fullName, body),
    // The detail answer carries the settings: keep it in step without reloading it.
    onSuccess: (releaseTracking) =>
      queryClient.setQueryData<Repository>(repositoryKeys.detail(fullName), (repository) =>
        repository ? { ...repository, release_tracking: releaseTracking } : repository,
      ),
  });
}
