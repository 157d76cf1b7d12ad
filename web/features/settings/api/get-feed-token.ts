import { queryOptions, useQuery } from '@tanstack/react-query';
import { type FeedTokenStatus, feedTokenStatusSchema } from '#shared/schemas/activity.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { feedTokenQueryKey } from './feed-token-keys.ts';

/** GET /auth/me/feed-token: whether the member has an activity feed token, never the token. */
export function getFeedToken(signal?: AbortSignal): Promise<FeedTokenStatus> {
  return apiRequest('/auth/me/feed-token', feedTokenStatusSchema, { signal });
}

export const feedTokenQueryOptions = queryOptions({
  queryKey: feedTokenQueryKey,
  queryFn: ({ signal }) => getFeedToken(signal),
});

export function useFeedToken() {
  return useQuery(feedTokenQueryOptions);
}
