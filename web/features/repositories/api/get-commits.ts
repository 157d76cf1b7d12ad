import { queryOptions, useQuery } from '@tanstack/react-query';
import { COMMITS_LOAD_TIMEOUT_MS, COMMITS_REQUESTED } from '#shared/constants.ts';
import { commitsResponseSchema } from '#shared/schemas/repositories.ts';
import { apiRequest, isApiError } from '#web/lib/api-client.ts';
import { repositoryKeys, repositoryPath } from './query-keys.ts';

/** GET /repositories/{id}/commits/?limit=10 with its 10 s time-out; a bare array. */
export function commitsQueryOptions(fullName: string) {
  return queryOptions({
    queryKey: repositoryKeys.commits(fullName),
    queryFn: ({ signal }) =>
      apiRequest(`${repositoryPath(fullName)}/commits/?limit=${COMMITS_REQUESTED}`, commitsResponseSchema, {
        signal,
        timeoutMs: COMMITS_LOAD_TIMEOUT_MS,
      }),
    // A time-out is shown at once rather than tried again behind the spinner.
    retry: false,
  });
}

export function useCommits(fullName: string) {
  return useQuery(commitsQueryOptions(fullName));
}

export const COMMITS_LOGIN_MESSAGE = 'Please log in to view repository commits';

/** The commit errors' texts: 'Failed to load commits: …' with its named variants. */
export function describeCommitsError(error: unknown): string {
  if (!isApiError(error)) return 'Failed to load commits: Invalid response format from server';
  if (error.status === 401) return COMMITS_LOGIN_MESSAGE;
  if (error.status === 0 && error.message === 'Request timeout')
    return 'Failed to load commits: Connection timed out';
  if (error.status === 404) return 'Failed to load commits: Repository not found in database';
  if (error.status === 403) return "Failed to load commits: You don't have access to this repository";
  return `Failed to load commits: ${error.message}`;
}
