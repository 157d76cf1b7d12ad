import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FeedTokenCreated, feedTokenCreatedSchema } from '#shared/schemas/activity.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { feedTokenQueryKey } from './feed-token-keys.ts';

/** POST /auth/me/feed-token: a new token and the whole feed address, answered once; the old one stops working. */
export function createFeedToken(): Promise<FeedTokenCreated> {
  return apiRequest('/auth/me/feed-token', feedTokenCreatedSchema, { method: 'POST' });
}

export function useCreateFeedToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createFeedToken,
    onSuccess: (created) =>
      queryClient.setQueryData(feedTokenQueryKey, {
        exists: true,
        created_at: created.created_at,
        last_used_at: null,
      }),
  });
}
