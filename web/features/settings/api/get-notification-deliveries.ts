import { queryOptions, useQuery } from '@tanstack/react-query';
import { type DeliveriesResponse, deliveriesResponseSchema } from '#shared/schemas/notifications.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { notificationKeys } from './notification-keys.ts';

/** GET /auth/me/notifications/deliveries: the 50 most recent, newest first. */
export function getNotificationDeliveries(signal?: AbortSignal): Promise<DeliveriesResponse> {
  return apiRequest('/auth/me/notifications/deliveries', deliveriesResponseSchema, { signal });
}

export const notificationDeliveriesQueryOptions = queryOptions({
  queryKey: notificationKeys.deliveries,
  queryFn: ({ signal }) => getNotificationDeliveries(signal),
});

export function useNotificationDeliveries() {
  return useQuery(notificationDeliveriesQueryOptions);
}
