import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type TestChannelResponse, testChannelResponseSchema } from '#shared/schemas/notifications.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { notificationKeys } from './notification-keys.ts';

/** POST /auth/me/notifications/channels/{id}/test: sends now, answers with the outcome. */
export function testNotificationChannel(id: number): Promise<TestChannelResponse> {
  return apiRequest(`/auth/me/notifications/channels/${id}/test`, testChannelResponseSchema, {
    method: 'POST',
  });
}

export function useTestNotificationChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: testNotificationChannel,
    // The test is recorded as a delivery.
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationKeys.deliveries }),
  });
}
