import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import {
  CATALOGUE_PAGE_DEFAULT,
  type CatalogueListQuery,
  catalogueSearchParams,
  type RepositoryPage,
  repositoryPageSchema,
} from '#shared/schemas/catalogue.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { catalogueKeys, compactQuery } from './catalogue-keys.ts';

/** What a screen asks the list for: filters and sort; the pages themselves are the query's business. */
export type RepositoryListQuery = Omit<CatalogueListQuery, 'limit' | 'cursor'>;

/**
 * GET /repositories/?…: one page `{ repositories, total, next_cursor }` of the visible
 * repositories matching `query` (docs/product.md#catalogue-queries). `limit` is always sent, so
 * the call pages even with no filter at all: no screen downloads the whole catalogue.
 */
export function getRepositoryPage(
  query: RepositoryListQuery,
  page: { limit: number; cursor: string | null },
  signal?: AbortSignal,
): Promise<RepositoryPage> {
  const params = catalogueSearchParams({ ...query, limit: page.limit, cursor: page.cursor ?? undefined });
  return apiRequest(`/repositories/?${params}`, repositoryPageSchema, { signal });
}

export interface RepositoryPagesOptions {
  /** Rows per request (default 50). */
  limit?: number;
  /** Keep the previous query's rows on screen while a new search or sort loads. */
  keepPrevious?: boolean;
}

/**
 * The list as an infinite query over keyset cursors: the first page, then each `next_cursor`
 * with the same filters and sort, until the server answers `next_cursor: null`.
 */
export function repositoryPagesOptions(
  query: RepositoryListQuery,
  { limit = CATALOGUE_PAGE_DEFAULT, keepPrevious = false }: RepositoryPagesOptions = {},
) {
  const compact = compactQuery(query);
  return infiniteQueryOptions({
    queryKey: catalogueKeys.list({ ...compact, limit }),
    queryFn: ({ pageParam, signal }) => getRepositoryPage(compact, { limit, cursor: pageParam }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last: RepositoryPage) => last.next_cursor,
    placeholderData: keepPrevious ? keepPreviousData : undefined,
  });
}

export function useRepositoryPages(query: RepositoryListQuery, options?: RepositoryPagesOptions) {
  return useInfiniteQuery(repositoryPagesOptions(query, options));
}
