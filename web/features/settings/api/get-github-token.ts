import { queryOptions, useQuery } from '@tanstack/react-query';
import { type GitHubTokenStatus, githubTokenStatusSchema } from '#shared/schemas/auth.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { githubTokenQueryKey } from './github-token-keys.ts';

/** GET /auth/me/github-token: status only, never the token. */
export function getGitHubToken(signal?: AbortSignal): Promise<GitHubTokenStatus> {
  return apiRequest('/auth/me/github-token', githubTokenStatusSchema, { signal });
}

export const githubTokenQueryOptions = queryOptions({
  queryKey: githubTokenQueryKey,
  queryFn: ({ signal }) => getGitHubToken(signal),
});

export function useGitHubToken() {
  return useQuery(githubTokenQueryOptions);
}
