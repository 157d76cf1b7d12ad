import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type SlackWebhookStatus, slackWebhookStatusSchema } from '#shared/schemas/auth.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { useAuth } from '#web/lib/auth/auth-context.tsx';
import { applySlackWebhookStatus } from './slack-webhook-keys.ts';

/** DELETE /auth/me/slack-webhook: the answer is the (now empty) status. */
export function deleteSlackWebhook(): Promise<SlackWebhookStatus> {
  return apiRequest('/auth/me/slack-webhook', slackWebhookStatusSchema, { method: 'DELETE' });
}

export function useRemoveSlackWebhook() {
  const queryClient = useQueryClient();
  const { updateUser } = useAuth();
  return useMutation({
    mutationFn: deleteSlackWebhook,
    onSuccess: (status) => applySlackWebhookStatus(queryClient, status, updateUser),
  });
}
