import { queryOptions, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { REPOSITORY_LOAD_TIMEOUT_MS } from '#shared/constants.ts';
import { type Repository, repositoryResponseSchema } from '#shared/schemas/repositories.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { apiErrorKind } from '#web/lib/api-errors.ts';
import { repositoryKeys, repositoryPath } from './query-keys.ts';

export async function getRepository(
  fullName: string,
  options: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<Repository> {
  const { repository } = await apiRequest(repositoryPath(fullName), repositoryResponseSchema, options);
  return repository;
}

/**
 * The detail loads with a 5 s time-out; when it runs out, `onTimeout` is told (the
 * screen says 'Connection timed out. Loading repository from local database.') and the load
 * is tried again with the ordinary API time-out.
 */
export function repositoryQueryOptions(fullName: string, onTimeout?: () => void) {
  return queryOptions({
    queryKey: repositoryKeys.detail(fullName),
    queryFn: async ({ signal }) => {
      try {
        return await getRepository(fullName, { signal, timeoutMs: REPOSITORY_LOAD_TIMEOUT_MS });
      } catch (error) {
        if (apiErrorKind(error) !== 'timeout') throw error;
        onTimeout?.();
        return getRepository(fullName, { signal });
      }
    },
  });
}

export function useRepository(fullName: string) {
  const [timedOut, setTimedOut] = useState(false);
  const query = useQuery(repositoryQueryOptions(fullName, () => setTimedOut(true)));
  return { ...query, timedOut: timedOut && query.isFetching };
}
