import { queryOptions, useQuery } from '@tanstack/react-query';
import { metricsResponseSchema } from '../../../../shared/schemas/repositories.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { repositoryKeys, repositoryPath } from './query-keys.ts';

/** GET /repositories/{id}/metrics: one row per day, written at each sync. */
export function metricsQueryOptions(fullName: string) {
  return queryOptions({
    queryKey: repositoryKeys.metrics(fullName),
    queryFn: async ({ signal }) => {
      const { metrics } = await apiRequest(`${repositoryPath(fullName)}/metrics`, metricsResponseSchema, {
        signal,
      });
      return metrics;
    },
  });
}

export function useMetrics(fullName: string) {
  return useQuery(metricsQueryOptions(fullName));
}
