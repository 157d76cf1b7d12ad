import { queryOptions, useQuery } from '@tanstack/react-query';
import { type SlackWebhookStatus, slackWebhookStatusSchema } from '../../../../shared/schemas/auth.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/** GET /auth/me/slack-webhook → {has_webhook, webhook_set_at}: may the add page notify Slack? */
export const slackWebhookQueryOptions = queryOptions({
  queryKey: ['auth', 'me', 'slack-webhook'] as const,
  queryFn: ({ signal }): Promise<SlackWebhookStatus> =>
    apiRequest('/auth/me/slack-webhook', slackWebhookStatusSchema, { signal }),
});

export function useSlackWebhookStatus() {
  return useQuery(slackWebhookQueryOptions);
}
