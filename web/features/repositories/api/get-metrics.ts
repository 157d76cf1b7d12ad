import { queryOptions, useQuery } from '@tanstack/react-query';
import { metricsResponseSchema } from '#shared/schemas/repositories.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { repositoryKeys, repositoryPath } from './query-keys.ts';

/** While the star history is being loaded from GitHub, the chart looks again this often. */
export const HISTORY_POLL_MS = 5000;

/**
 * GET /repositories/{id}/metrics: the app's daily rows and the star history backfilled from
 * GitHub (stars only, other metrics null), with the backfill's state.
 */
export function metricsQueryOptions(fullName: string) {
  return queryOptions({
    queryKey: repositoryKeys.metrics(fullName),
    queryFn: ({ signal }) =>
      apiRequest(`${repositoryPath(fullName)}/metrics`, metricsResponseSchema, { signal }),
    refetchInterval: (query) => (query.state.data?.history.status === 'pending' ? HISTORY_POLL_MS : false),
  });
}

export function useMetrics(fullName: string) {
  return useQuery(metricsQueryOptions(fullName));
}
