import { queryOptions, useQuery } from '@tanstack/react-query';
import { healthResponseSchema } from '#shared/schemas/health.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { repositoryKeys, repositoryPath } from './query-keys.ts';

/** GET /repositories/{id}/health: score, grade, every signal behind them and the override (docs/health.md). */
export function healthQueryOptions(fullName: string) {
  return queryOptions({
    queryKey: repositoryKeys.health(fullName),
    queryFn: async ({ signal }) =>
      (await apiRequest(`${repositoryPath(fullName)}/health`, healthResponseSchema, { signal })).health,
  });
}

export function useHealth(fullName: string) {
  return useQuery(healthQueryOptions(fullName));
}
