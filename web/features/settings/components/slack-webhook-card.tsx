import { Text } from '@mantine/core';
import { IconBrandSlack } from '@tabler/icons-react';
import { MESSAGE_CLEAR_MS } from '#shared/constants.ts';
import { formatDate } from '#shared/format.ts';
import { slackWebhookBodySchema } from '#shared/schemas/auth.ts';
import { useSlackWebhook } from '#web/lib/auth/api/get-slack-webhook.ts';
import { useRemoveSlackWebhook } from '../api/remove-slack-webhook.ts';
import { useSaveSlackWebhook } from '../api/save-slack-webhook.ts';
import { StoredSecretCard, type StoredSecretCopy } from './stored-secret-card.tsx';

const copy: StoredSecretCopy = {
  title: 'Slack Webhook',
  description:
    'Post a message to a Slack channel when you add repositories. The URL is stored encrypted and never shown again.',
  loadingLabel: 'Loading Slack webhook status',
  inputLabel: 'Webhook URL',
  replaceLabel: 'Replace webhook URL',
  placeholder: 'https://hooks.slack.com/services/…',
  saveLabel: 'Save Webhook',
  removeLabel: 'Remove Webhook',
  confirmDetail: 'Repositories you add will no longer be announced in Slack.',
  messages: {
    loadFailed: 'Failed to load Slack webhook status',
    saveFailed: 'Failed to save Slack webhook',
    removeFailed: 'Failed to remove Slack webhook',
    saved: 'Slack webhook saved',
    removed: 'Slack webhook removed',
    confirmRemove: 'Remove the Slack webhook?',
  },
};

export function SlackWebhookCard() {
  const status = useSlackWebhook();
  const save = useSaveSlackWebhook();
  const remove = useRemoveSlackWebhook();
  const configured = status.data?.has_webhook ?? false;
  return (
    <StoredSecretCard
      icon={<IconBrandSlack size={28} aria-hidden />}
      copy={copy}
      field="url"
      schema={slackWebhookBodySchema}
      input="url"
      clearAfterMs={MESSAGE_CLEAR_MS.webhook}
      status={status}
      configured={configured}
      save={save}
      remove={remove}
      summary={(data) => (
        <Text size="sm">
          {configured
            ? `Notifications are on. Webhook set on ${formatDate(data.webhook_set_at, { month: 'long' })}.`
            : 'No webhook: repositories are added without Slack notifications.'}
        </Text>
      )}
    />
  );
}
