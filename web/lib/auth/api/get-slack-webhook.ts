import { queryOptions, useQuery } from '@tanstack/react-query';
import { type SlackWebhookStatus, slackWebhookStatusSchema } from '#shared/schemas/auth.ts';
import { apiRequest } from '../../api-client.ts';
import { meQueryKey } from './get-me.ts';

/** Settings writes this key after a save or removal; the add screen reads it to offer Slack. */
export const slackWebhookQueryKey = [...meQueryKey, 'slack-webhook'] as const;

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
