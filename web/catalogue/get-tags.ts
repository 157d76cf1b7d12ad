import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  type CatalogueFilters,
  catalogueSearchParams,
  type TagsResponse,
  tagsResponseSchema,
} from '#shared/schemas/catalogue.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { catalogueKeys, compactQuery } from './catalogue-keys.ts';

/**
 * GET /tags: every tag over the visible repositories (matching `filters`) with its repository
 * count, by name, and `suggestions`, the member's 8 most used tags. The Tags screen and the tag
 * suggestions of the add screen and the tags editor share it.
 */
export function getTags(
  filters: Partial<CatalogueFilters> = {},
  signal?: AbortSignal,
): Promise<TagsResponse> {
  const params = catalogueSearchParams(filters).toString();
  return apiRequest(params ? `/tags?${params}` : '/tags', tagsResponseSchema, { signal });
}

export function tagsQueryOptions(filters: Partial<CatalogueFilters> = {}) {
  const compact = compactQuery(filters);
  return queryOptions({
    queryKey: catalogueKeys.tags(compact),
    queryFn: ({ signal }) => getTags(compact, signal),
  });
}

export function useTags(filters: Partial<CatalogueFilters> = {}) {
  return useQuery(tagsQueryOptions(filters));
}
