import { queryOptions, useQuery } from '@tanstack/react-query';
import { COMMITS_LOAD_TIMEOUT_MS, COMMITS_REQUESTED } from '#shared/constants.ts';
import { commitsResponseSchema } from '#shared/schemas/repositories.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { describeApiError } from '#web/lib/api-errors.ts';
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
  const { kind, message } = describeApiError(error);
  switch (kind) {
    case 'unexpected':
      return 'Failed to load commits: Invalid response format from server';
    case 'unauthorized':
      return COMMITS_LOGIN_MESSAGE;
    case 'timeout':
      return 'Failed to load commits: Connection timed out';
    case 'not_found':
      return 'Failed to load commits: Repository not found in database';
    case 'forbidden':
      return "Failed to load commits: You don't have access to this repository";
    default:
      return `Failed to load commits: ${message}`;
  }
}
