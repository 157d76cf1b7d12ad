import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type Rule, ruleSchema, type UpdateRuleBody } from '#shared/schemas/notifications.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { refreshNotifications } from './notification-keys.ts';

/** PATCH /auth/me/notifications/rules/{id} */
export function patchNotificationRule({ id, body }: { id: number; body: UpdateRuleBody }): Promise<Rule> {
  return apiRequest(`/auth/me/notifications/rules/${id}`, ruleSchema, { method: 'PATCH', body });
}

export function useUpdateNotificationRule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: patchNotificationRule,
    onSuccess: () => refreshNotifications(queryClient),
  });
}
