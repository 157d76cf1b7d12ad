import { queryOptions, useQuery } from '@tanstack/react-query';
import { type RulesResponse, rulesResponseSchema } from '#shared/schemas/notifications.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { notificationKeys } from './notification-keys.ts';

/** GET /auth/me/notifications/rules */
export function getNotificationRules(signal?: AbortSignal): Promise<RulesResponse> {
  return apiRequest('/auth/me/notifications/rules', rulesResponseSchema, { signal });
}

export const notificationRulesQueryOptions = queryOptions({
  queryKey: notificationKeys.rules,
  queryFn: ({ signal }) => getNotificationRules(signal),
});

export function useNotificationRules() {
  return useQuery(notificationRulesQueryOptions);
}
