import { useMutation, useQueryClient } from '@tanstack/react-query';
import { notificationMessageSchema } from '#shared/schemas/notifications.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { refreshNotifications } from './notification-keys.ts';

/** DELETE /auth/me/notifications/channels/{id}: the channel and its rules go. */
export function deleteNotificationChannel(id: number): Promise<{ message: string }> {
  return apiRequest(`/auth/me/notifications/channels/${id}`, notificationMessageSchema, { method: 'DELETE' });
}

export function useDeleteNotificationChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteNotificationChannel,
    onSuccess: () => refreshNotifications(queryClient),
  });
}
