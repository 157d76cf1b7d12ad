import { useMutation, useQueryClient } from '@tanstack/react-query';
import { notificationMessageSchema } from '#shared/schemas/notifications.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { refreshNotifications } from './notification-keys.ts';

/** DELETE /auth/me/notifications/rules/{id} */
export function deleteNotificationRule(id: number): Promise<{ message: string }> {
  return apiRequest(`/auth/me/notifications/rules/${id}`, notificationMessageSchema, { method: 'DELETE' });
}

export function useDeleteNotificationRule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteNotificationRule,
    onSuccess: () => refreshNotifications(queryClient),
  });
}
