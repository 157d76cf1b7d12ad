import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CatalogueCounts } from '#shared/schemas/catalogue.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { catalogueKeys } from './catalogue-keys.ts';

/**
 * GET /repositories/counts: `{ total, mine, tags }` over what the member may see, counted by the
 * server. The app shell loads it before any screen, so the schema is imported when the call is
 * made, keeping zod out of the first-load bundle.
 */
export async function getCatalogueCounts(signal?: AbortSignal): Promise<CatalogueCounts> {
  const { catalogueCountsResponseSchema } = await import('#shared/schemas/catalogue.ts');
  return apiRequest('/repositories/counts', catalogueCountsResponseSchema, { signal });
}

export const catalogueCountsQueryOptions = queryOptions({
  queryKey: catalogueKeys.counts,
  queryFn: ({ signal }) => getCatalogueCounts(signal),
});

/** The sidebar's badges and the profile's repository count; off until someone is signed in. */
export function useCatalogueCounts({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...catalogueCountsQueryOptions, enabled });
}
