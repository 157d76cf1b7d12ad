import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type Channel, channelSchema, type UpdateChannelBody } from '#shared/schemas/notifications.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { refreshNotifications } from './notification-keys.ts';

/** PATCH /auth/me/notifications/channels/{id}: a new name, or a new URL (which clears the failures). */
export function patchNotificationChannel({
  id,
  body,
}: {
  id: number;
  body: UpdateChannelBody;
}): Promise<Channel> {
  return apiRequest(`/auth/me/notifications/channels/${id}`, channelSchema, { method: 'PATCH', body });
}

export function useUpdateNotificationChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: patchNotificationChannel,
    onSuccess: () => refreshNotifications(queryClient),
  });
}
