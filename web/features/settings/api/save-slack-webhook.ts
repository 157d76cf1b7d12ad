import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type SlackWebhookStatus, slackWebhookStatusSchema } from '#shared/schemas/auth.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { useAuth } from '#web/lib/auth/auth-context.tsx';
import { applySlackWebhookStatus } from './slack-webhook-keys.ts';

/** PUT /auth/me/slack-webhook `{ url }`: checked against the allowed hosts, stored encrypted. */
export function putSlackWebhook(url: string): Promise<SlackWebhookStatus> {
  return apiRequest('/auth/me/slack-webhook', slackWebhookStatusSchema, { method: 'PUT', body: { url } });
}

export function useSaveSlackWebhook() {
  const queryClient = useQueryClient();
  const { updateUser } = useAuth();
  return useMutation({
    mutationFn: putSlackWebhook,
    onSuccess: (status) => applySlackWebhookStatus(queryClient, status, updateUser),
  });
}
