import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type Channel, channelSchema } from '#shared/schemas/notifications.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { refreshNotifications } from './notification-keys.ts';

/** POST /auth/me/notifications/channels/{id}/enable: back on after failures turned it off. */
export function enableNotificationChannel(id: number): Promise<Channel> {
  return apiRequest(`/auth/me/notifications/channels/${id}/enable`, channelSchema, { method: 'POST' });
}

export function useEnableNotificationChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: enableNotificationChannel,
    onSuccess: () => refreshNotifications(queryClient),
  });
}
