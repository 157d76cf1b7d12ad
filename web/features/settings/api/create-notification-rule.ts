import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type CreateRuleBody, type Rule, ruleSchema } from '#shared/schemas/notifications.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { refreshNotifications } from './notification-keys.ts';

/** POST /auth/me/notifications/rules */
export function postNotificationRule(body: CreateRuleBody): Promise<Rule> {
  return apiRequest('/auth/me/notifications/rules', ruleSchema, { method: 'POST', body });
}

export function useCreateNotificationRule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: postNotificationRule,
    onSuccess: () => refreshNotifications(queryClient),
  });
}
