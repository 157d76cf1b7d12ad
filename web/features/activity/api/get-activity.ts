import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import {
  ACTIVITY_PAGE_DEFAULT,
  type ActivityPage,
  type ActivityQuery,
  activityPageSchema,
} from '#shared/schemas/activity.ts';
import { compactQuery } from '#web/catalogue/catalogue-keys.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { activityKeys } from './activity-keys.ts';

/** What a screen filters by; the pages themselves are the query's business. */
export type ActivityFilters = Omit<ActivityQuery, 'limit' | 'cursor'>;

/** GET /activity?…: one page of events, newest first (docs/product.md#activity). */
export function getActivityPage(
  filters: ActivityFilters,
  page: { limit: number; cursor: string | null },
  signal?: AbortSignal,
): Promise<ActivityPage> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...filters, limit: page.limit, cursor: page.cursor })) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  return apiRequest(`/activity?${params}`, activityPageSchema, { signal });
}

/** The feed as an infinite query over the server's cursors, until `next_cursor` is null. */
export function activityPagesOptions(filters: ActivityFilters, limit = ACTIVITY_PAGE_DEFAULT) {
  const compact = compactQuery(filters);
  return infiniteQueryOptions({
    queryKey: activityKeys.pages({ ...compact, limit }),
    queryFn: ({ pageParam, signal }) => getActivityPage(compact, { limit, cursor: pageParam }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last: ActivityPage) => last.next_cursor,
  });
}

export function useActivityPages(filters: ActivityFilters, limit?: number) {
  return useInfiniteQuery(activityPagesOptions(filters, limit));
}

/** A repository's latest events: one page, for the detail page's card. */
export function repositoryEventsOptions(fullName: string, limit: number) {
  return queryOptions({
    queryKey: activityKeys.repository(fullName, limit),
    queryFn: ({ signal }) => getActivityPage({ repository: fullName }, { limit, cursor: null }, signal),
  });
}

export function useRepositoryEvents(fullName: string, limit: number) {
  return useQuery(repositoryEventsOptions(fullName, limit));
}
