import { Badge, Button, Group, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { MESSAGE_CLEAR_MS } from '../../../../shared/constants.ts';
import {
  CADENCE_LABELS,
  type Channel,
  EVENT_TYPE_LABELS,
  type Rule,
} from '../../../../shared/schemas/notifications.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { InlineMessage } from '../../../components/inline-message.tsx';
import { SectionError, SectionLoader } from '../../../components/load-states.tsx';
import { describeError } from '../../../lib/api-errors.ts';
import { useMessage } from '../../../lib/hooks/use-message.ts';
import { useDeleteNotificationRule } from '../api/delete-notification-rule.ts';
import { useNotificationChannels } from '../api/get-notification-channels.ts';
import { useNotificationRules } from '../api/get-notification-rules.ts';
import { useUpdateNotificationRule } from '../api/update-notification-rule.ts';
import { NotificationRuleForm } from './notification-rule-form.tsx';

/** 'Release published, Archived' or 'All events'. */
export function describeRuleEvents(rule: Rule): string {
  return rule.event_types === null
    ? 'All events'
    : rule.event_types.map((type) => EVENT_TYPE_LABELS[type]).join(', ');
}

export function describeRuleTags(rule: Rule): string {
  return rule.tags === null ? 'every repository' : `tagged ${rule.tags.join(', ')}`;
}

/** The member's rules: add, edit, switch on and off, remove. */
export function NotificationRulesCard() {
  const rules = useNotificationRules();
  const channels = useNotificationChannels();
  const update = useUpdateNotificationRule();
  const remove = useDeleteNotificationRule();
  const { message, showSuccess, showError, clear } = useMessage(MESSAGE_CLEAR_MS.webhook);
  const [editing, setEditing] = useState<Rule | 'new' | null>(null);
  const [removing, setRemoving] = useState<Rule | null>(null);
  const channelList: Channel[] = channels.data?.channels ?? [];
  const channelName = (id: number) =>
    channelList.find((channel) => channel.id === id)?.name ?? 'a removed channel';

  const toggle = (rule: Rule, enabled: boolean) => {
    clear();
    update.mutate(
      { id: rule.id, body: { enabled } },
      { onError: (error) => showError(describeError(error, 'Failed to save the rule')) },
    );
  };

  const confirmRemove = () => {
    if (!removing) return;
    remove.mutate(removing.id, {
      onSuccess: () => showSuccess('Rule removed'),
      onError: (error) => showError(describeError(error, 'Failed to remove the rule')),
      onSettled: () => setRemoving(null),
    });
  };

  return (
    <Paper
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'lg' }}
      component="section"
      aria-labelledby="rules-title"
    >
      <Stack gap="md">
        <Group justify="space-between" gap="xs">
          <Title order={2} size="h4" id="rules-title">
            Rules
          </Title>
          <Button
            size="sm"
            leftSection={<IconPlus size={16} aria-hidden />}
            disabled={channelList.length === 0}
            onClick={() => {
              clear();
              setEditing('new');
            }}
          >
            Add Rule
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          Which events, for which tags, to which channel, and when. Private repositories only reach you while
          you can see them.
        </Text>
        {message && <InlineMessage kind={message.kind}>{message.text}</InlineMessage>}
        {rules.isPending && <SectionLoader label="Loading notification rules" />}
        {rules.isError && (
          <SectionError
            title="Failed to load notification rules"
            message={describeError(rules.error, 'Failed to load notification rules')}
            onRetry={() => void rules.refetch()}
          />
        )}
        {rules.isSuccess && rules.data.rules.length === 0 && (
          <Text size="sm">
            {channelList.length === 0
              ? 'Add a channel first, then a rule that sends to it.'
              : 'No rules yet.'}
          </Text>
        )}
        {rules.isSuccess && rules.data.rules.length > 0 && (
          <Stack
            gap="sm"
            component="ul"
            style={{ listStyle: 'none', padding: 0, margin: 0 }}
            aria-label="Rules"
          >
            {rules.data.rules.map((rule) => {
              const label = `${describeRuleEvents(rule)} → ${channelName(rule.channel_id)}`;
              return (
                <Paper component="li" key={rule.id} withBorder radius="md" p="sm" aria-label={label}>
                  <Stack gap="xs">
                    <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
                      <div style={{ minWidth: 0 }}>
                        <Text fw={600}>{describeRuleEvents(rule)}</Text>
                        <Text size="sm" c="dimmed">
                          For {describeRuleTags(rule)}, to {channelName(rule.channel_id)}
                        </Text>
                      </div>
                      <Badge variant="light" tt="none" style={{ flexShrink: 0 }}>
                        {CADENCE_LABELS[rule.cadence]}
                      </Badge>
                    </Group>
                    <Group gap="xs" justify="space-between">
                      <Switch
                        checked={rule.enabled}
                        onChange={(event) => toggle(rule, event.currentTarget.checked)}
                        label={rule.enabled ? 'On' : 'Off'}
                        aria-label={`Rule ${label} on`}
                      />
                      <Group gap="xs">
                        <Button
                          size="xs"
                          variant="default"
                          leftSection={<IconPencil size={14} aria-hidden />}
                          onClick={() => {
                            clear();
                            setEditing(rule);
                          }}
                          aria-label={`Edit rule ${label}`}
                        >
                          Edit
                        </Button>
                        <Button
                          size="xs"
                          variant="outline"
                          color="red"
                          leftSection={<IconTrash size={14} aria-hidden />}
                          onClick={() => setRemoving(rule)}
                          aria-label={`Remove rule ${label}`}
                        >
                          Remove
                        </Button>
                      </Group>
                    </Group>
                  </Stack>
                </Paper>
              );
            })}
          </Stack>
        )}
      </Stack>

      {editing !== null && (
        <NotificationRuleForm
          rule={editing === 'new' ? null : editing}
          channels={channelList}
          onClose={() => setEditing(null)}
          onSaved={(text) => {
            setEditing(null);
            showSuccess(text);
          }}
        />
      )}
      <ConfirmDialog
        opened={removing !== null}
        title="Remove this rule?"
        confirmLabel="Remove Rule"
        busy={remove.isPending}
        onCancel={() => setRemoving(null)}
        onConfirm={confirmRemove}
      >
        Events waiting for its next digest are dropped with it.
      </ConfirmDialog>
    </Paper>
  );
}
