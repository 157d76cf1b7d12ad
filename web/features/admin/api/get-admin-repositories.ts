import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import {
  adminRepositoryListOrPageResponseSchema,
  type CatalogueListQuery,
  catalogueSearchParams,
} from '#shared/schemas/catalogue.ts';
import type { RepositorySummary } from '#shared/schemas/repositories.ts';
import { catalogueKeys } from '#web/catalogue/catalogue-keys.ts';
import { apiRequest } from '#web/lib/api-client.ts';

/** Rows per request of the admin list. */
export const ADMIN_REPOSITORIES_PAGE = 50;

export interface AdminRepositoryPage {
  repositories: RepositorySummary[];
  total: number;
  next_cursor: string | null;
}

export type AdminRepositoriesQuery = Pick<CatalogueListQuery, 'q' | 'sort' | 'order'>;

/**
 * GET /auth/admin/repositories?limit&cursor&q&sort&order: one page of every repository,
 * private ones included. `limit` is always sent: without parameters the call answers the whole
 * catalogue.
 */
export async function getAdminRepositoryPage(
  query: AdminRepositoriesQuery,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<AdminRepositoryPage> {
  const params = catalogueSearchParams({
    ...query,
    limit: ADMIN_REPOSITORIES_PAGE,
    cursor: cursor ?? undefined,
  });
  const page = await apiRequest(
    `/auth/admin/repositories?${params}`,
    adminRepositoryListOrPageResponseSchema,
    {
      signal,
    },
  );
  return { repositories: page.repositories, total: page.total, next_cursor: page.next_cursor ?? null };
}

export function adminRepositoriesQueryOptions(query: AdminRepositoriesQuery) {
  return infiniteQueryOptions({
    // Under the catalogue's key: adding, syncing or deleting a repository refreshes it.
    queryKey: catalogueKeys.admin(query),
    queryFn: ({ pageParam, signal }) => getAdminRepositoryPage(query, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last: AdminRepositoryPage) => last.next_cursor,
    // A new search keeps the current rows on screen until its answer arrives.
    placeholderData: keepPreviousData,
  });
}

export function useAdminRepositories(query: AdminRepositoriesQuery) {
  return useInfiniteQuery(adminRepositoriesQueryOptions(query));
}
