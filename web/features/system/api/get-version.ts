import { queryOptions, useQuery } from '@tanstack/react-query';
import type { VersionResponse } from '#shared/schemas/system.ts';
import { apiRequest, schemaFromGuard } from '#web/lib/api-client.ts';

/**
 * Mirrors `versionResponseSchema`. The shell renders this on every page, and a guard keeps
 * zod out of the first-load bundle (screens that load later bring it).
 */
function isVersionResponse(data: unknown): data is VersionResponse {
  if (typeof data !== 'object' || data === null) return false;
  const { app_name, api_version, git_commit } = data as Record<string, unknown>;
  return (
    typeof app_name === 'string' &&
    typeof api_version === 'string' &&
    (git_commit === null || typeof git_commit === 'string')
  );
}

const versionSchema = schemaFromGuard(isVersionResponse);

export function getVersion(signal?: AbortSignal): Promise<VersionResponse> {
  return apiRequest('/version', versionSchema, { signal });
}

/** The version never changes while the page is open, so it is fetched once. */
export const versionQueryOptions = queryOptions({
  queryKey: ['version'],
  queryFn: ({ signal }) => getVersion(signal),
  staleTime: Number.POSITIVE_INFINITY,
  gcTime: Number.POSITIVE_INFINITY,
});

export function useVersion() {
  return useQuery(versionQueryOptions);
}
