import { Badge, Button, Group, Stack, Switch, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { MESSAGE_CLEAR_MS } from '#shared/constants.ts';
import { CADENCE_LABELS, type Channel, EVENT_TYPE_LABELS, type Rule } from '#shared/schemas/notifications.ts';
import { ConfirmDialog } from '#web/components/confirm-dialog.tsx';
import { InlineMessage } from '#web/components/inline-message.tsx';
import { describeError } from '#web/lib/api-errors.ts';
import { useMessage } from '#web/lib/hooks/use-message.ts';
import { useDeleteNotificationRule } from '../api/delete-notification-rule.ts';
import { useNotificationChannels } from '../api/get-notification-channels.ts';
import { useNotificationRules } from '../api/get-notification-rules.ts';
import { useUpdateNotificationRule } from '../api/update-notification-rule.ts';
import { EditRemoveButtons, ListItemCard, ListSection } from './list-section.tsx';
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

/** 'security advisories high or worse', for a rule that sends them; null otherwise. */
export function describeRuleSeverity(rule: Rule): string | null {
  if (rule.event_types !== null && !rule.event_types.includes('advisory_published')) return null;
  switch (rule.min_severity) {
    case 'unknown':
      return 'security advisories of any severity';
    case 'critical':
      return 'critical security advisories only';
    default:
      return `security advisories ${rule.min_severity} or worse`;
  }
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
    <ListSection
      title="Rules"
      action={
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
      }
      description="Which events, for which tags, to which channel, and when. Private repositories only reach you while you can see them."
      message={message && <InlineMessage kind={message.kind}>{message.text}</InlineMessage>}
      query={rules}
      items={rules.data?.rules}
      loadingLabel="Loading notification rules"
      failure="Failed to load notification rules"
      empty={
        <Text size="sm">
          {channelList.length === 0 ? 'Add a channel first, then a rule that sends to it.' : 'No rules yet.'}
        </Text>
      }
      listLabel="Rules"
      renderItem={(rule) => {
        const label = `${describeRuleEvents(rule)} → ${channelName(rule.channel_id)}`;
        return (
          <ListItemCard key={rule.id} aria-label={label}>
            <Stack gap="xs">
              <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
                <div style={{ minWidth: 0 }}>
                  <Text fw={600}>{describeRuleEvents(rule)}</Text>
                  <Text size="sm" c="dimmed">
                    For {describeRuleTags(rule)}, to {channelName(rule.channel_id)}
                    {describeRuleSeverity(rule) ? `; ${describeRuleSeverity(rule)}` : ''}
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
                  <EditRemoveButtons
                    name={`rule ${label}`}
                    onEdit={() => {
                      clear();
                      setEditing(rule);
                    }}
                    onRemove={() => setRemoving(rule)}
                  />
                </Group>
              </Group>
            </Stack>
          </ListItemCard>
        );
      }}
    >
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
    </ListSection>
  );
}
