import { Alert, Badge, Button, Group, Stack, Text } from '@mantine/core';
import {
  IconBrandDiscord,
  IconBrandSlack,
  IconMail,
  IconPlugConnected,
  IconPlus,
  IconSend,
  IconWebhook,
} from '@tabler/icons-react';
import { useState } from 'react';
import { MESSAGE_CLEAR_MS } from '#shared/constants.ts';
import { formatDateTime } from '#shared/format.ts';
import {
  CHANNEL_FAILURE_LIMIT,
  CHANNEL_KIND_LABELS,
  type Channel,
  type ChannelKind,
} from '#shared/schemas/notifications.ts';
import { ConfirmDialog } from '#web/components/confirm-dialog.tsx';
import { InlineMessage } from '#web/components/inline-message.tsx';
import { describeError } from '#web/lib/api-errors.ts';
import { useSignedInUser } from '#web/lib/auth/auth-context.tsx';
import { useMessage } from '#web/lib/hooks/use-message.ts';
import { useDeleteNotificationChannel } from '../api/delete-notification-channel.ts';
import { useEnableNotificationChannel } from '../api/enable-notification-channel.ts';
import { useNotificationChannels } from '../api/get-notification-channels.ts';
import { useTestNotificationChannel } from '../api/test-notification-channel.ts';
import { EditRemoveButtons, ListItemCard, ListSection } from './list-section.tsx';
import { NotificationChannelForm } from './notification-channel-form.tsx';

const ICONS: Record<ChannelKind, typeof IconWebhook> = {
  slack: IconBrandSlack,
  webhook: IconWebhook,
  discord: IconBrandDiscord,
  email: IconMail,
};

/** The state stays whole beside a long name, which truncates instead. */
const NO_SHRINK = { flexShrink: 0 } as const;

/** Filled badges in dark shades (yellow with dark text): AA contrast in both schemes. */
function ChannelState({ channel }: { channel: Channel }) {
  if (!channel.enabled)
    return (
      <Badge color="red.9" variant="filled" tt="none" style={NO_SHRINK}>
        Turned off
      </Badge>
    );
  if (channel.failures > 0)
    return (
      <Badge color="yellow.4" autoContrast variant="filled" tt="none" style={NO_SHRINK}>
        Failing ({channel.failures} of {CHANNEL_FAILURE_LIMIT})
      </Badge>
    );
  return (
    <Badge color="teal.9" variant="filled" tt="none" style={NO_SHRINK}>
      Active
    </Badge>
  );
}

/** The member's channels: add, edit, remove, Send test, and Re-enable one the failures turned off. */
export function NotificationChannelsCard() {
  const user = useSignedInUser();
  const channels = useNotificationChannels();
  const remove = useDeleteNotificationChannel();
  const enable = useEnableNotificationChannel();
  const test = useTestNotificationChannel();
  const { message, showSuccess, showError, clear } = useMessage(MESSAGE_CLEAR_MS.webhook);
  const [editing, setEditing] = useState<Channel | 'new' | null>(null);
  const [removing, setRemoving] = useState<Channel | null>(null);

  const sendTest = (channel: Channel) => {
    clear();
    test.mutate(channel.id, {
      onSuccess: (result) =>
        result.sent
          ? showSuccess(`${channel.name}: ${result.message}`)
          : showError(`${channel.name}: ${result.message}`),
      onError: (error) => showError(describeError(error, 'Failed to send the test message')),
    });
  };

  const reEnable = (channel: Channel) => {
    clear();
    enable.mutate(channel.id, {
      onSuccess: () => showSuccess(`Channel "${channel.name}" is on again`),
      onError: (error) => showError(describeError(error, 'Failed to turn the channel on')),
    });
  };

  const confirmRemove = () => {
    if (!removing) return;
    const { id, name } = removing;
    remove.mutate(id, {
      onSuccess: () => showSuccess(`Channel "${name}" removed`),
      onError: (error) => showError(describeError(error, 'Failed to remove the channel')),
      onSettled: () => setRemoving(null),
    });
  };

  return (
    <ListSection
      title="Channels"
      action={
        <Button
          size="sm"
          leftSection={<IconPlus size={16} aria-hidden />}
          onClick={() => {
            clear();
            setEditing('new');
          }}
        >
          Add Channel
        </Button>
      }
      description={`Where your notifications go: Slack, Discord, a webhook or e-mail. Webhook URLs are stored encrypted and never shown again. A channel that fails ${CHANNEL_FAILURE_LIMIT} times in a row is turned off.`}
      message={message && <InlineMessage kind={message.kind}>{message.text}</InlineMessage>}
      query={channels}
      items={channels.data?.channels}
      loadingLabel="Loading notification channels"
      failure="Failed to load notification channels"
      empty={<Text size="sm">No channels yet. Add one, then a rule that sends to it.</Text>}
      listLabel="Channels"
      renderItem={(channel) => {
        const Icon = ICONS[channel.kind];
        return (
          <ListItemCard key={channel.id} aria-label={channel.name}>
            <Stack gap="xs">
              <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
                <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
                  <Icon size={22} aria-hidden style={{ flexShrink: 0 }} />
                  <div style={{ minWidth: 0 }}>
                    <Text fw={600} truncate>
                      {channel.name}
                    </Text>
                    <Text size="xs" c="dimmed" truncate>
                      {CHANNEL_KIND_LABELS[channel.kind]}
                      {channel.target ? ` · ${channel.target}` : ' · no Slack webhook stored'}
                    </Text>
                  </div>
                </Group>
                <ChannelState channel={channel} />
              </Group>
              {!channel.enabled && (
                <Alert color="red" variant="light" title="Turned off" p="xs">
                  <Stack gap={6}>
                    <Text size="sm">{channel.disabled_reason ?? 'Turned off after repeated failures.'}</Text>
                    {channel.disabled_at && (
                      <Text size="xs" c="dimmed">
                        Since {formatDateTime(channel.disabled_at)}
                      </Text>
                    )}
                  </Stack>
                </Alert>
              )}
              {channel.enabled && channel.failures > 0 && channel.last_error && (
                <Text size="sm" c="dimmed">
                  Last error: {channel.last_error}
                </Text>
              )}
              <Group gap="xs">
                {!channel.enabled && (
                  <Button
                    size="xs"
                    color="teal"
                    leftSection={<IconPlugConnected size={14} aria-hidden />}
                    loading={enable.isPending && enable.variables === channel.id}
                    onClick={() => reEnable(channel)}
                    aria-label={`Re-enable ${channel.name}`}
                  >
                    Re-enable
                  </Button>
                )}
                <Button
                  size="xs"
                  variant="light"
                  leftSection={<IconSend size={14} aria-hidden />}
                  loading={test.isPending && test.variables === channel.id}
                  onClick={() => sendTest(channel)}
                  aria-label={`Send test to ${channel.name}`}
                >
                  Send test
                </Button>
                <EditRemoveButtons
                  name={channel.name}
                  onEdit={() => {
                    clear();
                    setEditing(channel);
                  }}
                  onRemove={() => setRemoving(channel)}
                />
              </Group>
            </Stack>
          </ListItemCard>
        );
      }}
    >
      {editing !== null && (
        <NotificationChannelForm
          channel={editing === 'new' ? null : editing}
          hasSlackWebhook={user.has_slack_webhook}
          onClose={() => setEditing(null)}
          onSaved={(text) => {
            setEditing(null);
            showSuccess(text);
          }}
        />
      )}
      <ConfirmDialog
        opened={removing !== null}
        title={`Remove the channel "${removing?.name ?? ''}"?`}
        confirmLabel="Remove Channel"
        busy={remove.isPending}
        onCancel={() => setRemoving(null)}
        onConfirm={confirmRemove}
      >
        Its rules are removed with it. Past deliveries stay in the list below.
      </ConfirmDialog>
    </ListSection>
  );
}
