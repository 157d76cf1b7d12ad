import type { QueryClient } from '@tanstack/react-query';
import type { SlackWebhookStatus } from '#shared/schemas/auth.ts';
import { slackWebhookQueryKey } from '#web/lib/auth/api/get-slack-webhook.ts';
import type { User } from '#web/lib/auth/user.ts';

/**
 * After a save or removal: the status query and the user's webhook fields show the new state
 * (the add screen reads `has_slack_webhook` to offer notifications).
 */
export function applySlackWebhookStatus(
  queryClient: QueryClient,
  status: SlackWebhookStatus,
  updateUser: (changes: Partial<User>) => void,
): void {
  queryClient.setQueryData(slackWebhookQueryKey, status);
  updateUser({ has_slack_webhook: status.has_webhook, slack_webhook_set_at: status.webhook_set_at });
}
