import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FeedTokenStatus, feedTokenStatusSchema } from '#shared/schemas/activity.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { feedTokenQueryKey } from './feed-token-keys.ts';

/** DELETE /auth/me/feed-token: the feed address stops working; the answer is the empty status. */
export function revokeFeedToken(): Promise<FeedTokenStatus> {
  return apiRequest('/auth/me/feed-token', feedTokenStatusSchema, { method: 'DELETE' });
}

export function useRevokeFeedToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeFeedToken,
    onSuccess: (status) => queryClient.setQueryData(feedTokenQueryKey, status),
  });
}
