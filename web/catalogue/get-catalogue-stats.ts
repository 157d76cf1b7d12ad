import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import {
  type CatalogueFilters,
  type CatalogueStats,
  catalogueSearchParams,
  catalogueStatsResponseSchema,
} from '#shared/schemas/catalogue.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { catalogueKeys, compactQuery } from './catalogue-keys.ts';

/** The statistics screen's filters (and the list's filter menu, which reads the choices), as the call takes them. */
export type StatsQuery = Omit<Partial<CatalogueFilters>, 'q'>;

/**
 * GET /repositories/stats?…: the stat cards, licence, topic and star distributions over the
 * visible repositories matching the filters, and the filter inputs' choices — counted by the
 * database (docs/product.md#catalogue-queries).
 */
export function getStats(filters: StatsQuery, signal?: AbortSignal): Promise<CatalogueStats> {
  const params = catalogueSearchParams(filters).toString();
  return apiRequest(
    params ? `/repositories/stats?${params}` : '/repositories/stats',
    catalogueStatsResponseSchema,
    { signal },
  );
}

export function statsQueryOptions(filters: StatsQuery) {
  const compact = compactQuery(filters);
  return queryOptions({
    queryKey: catalogueKeys.stats(compact),
    queryFn: ({ signal }) => getStats(compact, signal),
    // A changed filter keeps the current figures on screen until the new ones arrive.
    placeholderData: keepPreviousData,
  });
}

export function useStats(filters: StatsQuery, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...statsQueryOptions(filters), enabled });
}
