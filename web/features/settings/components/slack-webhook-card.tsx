import { Alert, Button, Group, Loader, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconBrandSlack, IconDeviceFloppy, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { MESSAGE_CLEAR_MS } from '../../../../shared/constants.ts';
import { slackWebhookBodySchema } from '../../../../shared/schemas/auth.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { FormMessage } from '../../../components/form-message.tsx';
import { describeError } from '../../../lib/api-errors.ts';
import { useSlackWebhook } from '../../../lib/auth/api/get-slack-webhook.ts';
import { formatDate } from '../../../lib/format.ts';
import { zodResolver } from '../../../lib/forms/zod-resolver.ts';
import { useTimedMessage } from '../../../lib/hooks/use-timed-message.ts';
import { useRemoveSlackWebhook } from '../api/remove-slack-webhook.ts';
import { useSaveSlackWebhook } from '../api/save-slack-webhook.ts';
import { ConfiguredBadge } from './github-token-card.tsx';

export const SLACK_WEBHOOK_MESSAGES = {
  loadFailed: 'Failed to load Slack webhook status',
  saveFailed: 'Failed to save Slack webhook',
  removeFailed: 'Failed to remove Slack webhook',
  saved: 'Slack webhook saved',
  removed: 'Slack webhook removed',
  confirmRemove: 'Remove the Slack webhook?',
} as const;

export function SlackWebhookCard() {
  const status = useSlackWebhook();
  const save = useSaveSlackWebhook();
  const remove = useRemoveSlackWebhook();
  const [confirming, setConfirming] = useState(false);
  const { message, showSuccess, showError, clear } = useTimedMessage(MESSAGE_CLEAR_MS.webhook);
  const form = useForm({ initialValues: { url: '' }, validate: zodResolver(slackWebhookBodySchema) });

  const submit = form.onSubmit(({ url }) => {
    clear();
    save.mutate(url.trim(), {
      onSuccess: () => {
        form.reset();
        showSuccess(SLACK_WEBHOOK_MESSAGES.saved);
      },
      onError: (error) => showError(describeError(error, SLACK_WEBHOOK_MESSAGES.saveFailed)),
    });
  });

  const confirmRemove = () => {
    clear();
    remove.mutate(undefined, {
      onSuccess: () => showSuccess(SLACK_WEBHOOK_MESSAGES.removed),
      onError: (error) => showError(describeError(error, SLACK_WEBHOOK_MESSAGES.removeFailed)),
      onSettled: () => setConfirming(false),
    });
  };

  const configured = status.data?.has_webhook ?? false;

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
      <Stack gap="md">
        <Group justify="space-between" gap="xs" align="center">
          <Group gap="sm" wrap="nowrap">
            <IconBrandSlack size={28} aria-hidden />
            <Title order={2} size="h4">
              Slack Webhook
            </Title>
          </Group>
          {status.isSuccess && <ConfiguredBadge configured={configured} />}
        </Group>
        <Text size="sm" c="dimmed">
          Post a message to a Slack channel when you add repositories. The URL is stored encrypted and never
          shown again.
        </Text>

        {message && <FormMessage kind={message.kind}>{message.text}</FormMessage>}

        {status.isPending && <Loader size="sm" aria-label="Loading Slack webhook status" />}
        {status.isError && (
          <Alert color="red" variant="light" role="alert" title={SLACK_WEBHOOK_MESSAGES.loadFailed}>
            <Group justify="space-between" gap="sm">
              <Text size="sm">{describeError(status.error, SLACK_WEBHOOK_MESSAGES.loadFailed)}</Text>
              <Button size="xs" variant="light" color="red" onClick={() => void status.refetch()}>
                Retry
              </Button>
            </Group>
          </Alert>
        )}
        {status.isSuccess && (
          <Text size="sm">
            {configured
              ? `Notifications are on. Webhook set on ${formatDate(status.data.webhook_set_at)}.`
              : 'No webhook: repositories are added without Slack notifications.'}
          </Text>
        )}

        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <TextInput
              label={configured ? 'Replace webhook URL' : 'Webhook URL'}
              placeholder="https://hooks.slack.com/services/…"
              type="url"
              autoComplete="off"
              spellCheck={false}
              {...form.getInputProps('url')}
            />
            <Group gap="sm">
              <Button
                type="submit"
                loading={save.isPending}
                leftSection={<IconDeviceFloppy size={16} aria-hidden />}
              >
                Save Webhook
              </Button>
              {configured && (
                <Button
                  variant="light"
                  color="red"
                  leftSection={<IconTrash size={16} aria-hidden />}
                  onClick={() => setConfirming(true)}
                >
                  Remove Webhook
                </Button>
              )}
            </Group>
          </Stack>
        </form>
      </Stack>

      <ConfirmDialog
        opened={confirming}
        title={SLACK_WEBHOOK_MESSAGES.confirmRemove}
        confirmLabel="Remove Webhook"
        busy={remove.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={confirmRemove}
      >
        Repositories you add will no longer be announced in Slack.
      </ConfirmDialog>
    </Paper>
  );
}
