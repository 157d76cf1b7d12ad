import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type Channel, type CreateChannelBody, channelSchema } from '#shared/schemas/notifications.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { refreshNotifications } from './notification-keys.ts';

/** POST /auth/me/notifications/channels: the URL is checked against the allowed hosts and stored encrypted. */
export function postNotificationChannel(body: CreateChannelBody): Promise<Channel> {
  return apiRequest('/auth/me/notifications/channels', channelSchema, { method: 'POST', body });
}

export function useCreateNotificationChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: postNotificationChannel,
    onSuccess: () => refreshNotifications(queryClient),
  });
}
