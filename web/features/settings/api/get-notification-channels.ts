import { queryOptions, useQuery } from '@tanstack/react-query';
import { type ChannelsResponse, channelsResponseSchema } from '#shared/schemas/notifications.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { notificationKeys } from './notification-keys.ts';

/** GET /auth/me/notifications/channels: the member's channels; URLs only as host and last four. */
export function getNotificationChannels(signal?: AbortSignal): Promise<ChannelsResponse> {
  return apiRequest('/auth/me/notifications/channels', channelsResponseSchema, { signal });
}

export const notificationChannelsQueryOptions = queryOptions({
  queryKey: notificationKeys.channels,
  queryFn: ({ signal }) => getNotificationChannels(signal),
});

export function useNotificationChannels() {
  return useQuery(notificationChannelsQueryOptions);
}
