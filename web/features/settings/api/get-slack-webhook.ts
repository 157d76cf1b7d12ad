import { queryOptions, useQuery } from '@tanstack/react-query';
import { type SlackWebhookStatus, slackWebhookStatusSchema } from '../../../../shared/schemas/auth.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { slackWebhookQueryKey } from './slack-webhook-keys.ts';

/** GET /auth/me/slack-webhook: status only, never the URL. */
export function getSlackWebhook(signal?: AbortSignal): Promise<SlackWebhookStatus> {
  return apiRequest('/auth/me/slack-webhook', slackWebhookStatusSchema, { signal });
}

export const slackWebhookQueryOptions = queryOptions({
  queryKey: slackWebhookQueryKey,
  queryFn: ({ signal }) => getSlackWebhook(signal),
});

export function useSlackWebhook() {
  return useQuery(slackWebhookQueryOptions);
}
