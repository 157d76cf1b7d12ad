import {
  Button,
  Checkbox,
  Group,
  Modal,
  MultiSelect,
  SegmentedControl,
  Select,
  Stack,
  Text,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { EVENT_TYPES, type EventType } from '#shared/schemas/activity.ts';
import {
  ADVISORY_SEVERITIES,
  type AdvisorySeverity,
  DEFAULT_MIN_SEVERITY,
} from '#shared/schemas/advisories.ts';
import {
  CADENCES,
  type Cadence,
  type Channel,
  type CreateRuleBody,
  createRuleBodySchema,
  EVENT_TYPE_LABELS,
  type Rule,
} from '#shared/schemas/notifications.ts';
import { useTags } from '#web/catalogue/get-tags.ts';
import { SEVERITY_LABELS } from '#web/components/health-badge.tsx';
import { InlineMessage } from '#web/components/inline-message.tsx';
import { describeError, fieldErrors } from '#web/lib/api-errors.ts';
import { zodResolver } from '#web/lib/forms/zod-resolver.ts';
import { useCreateNotificationRule } from '../api/create-notification-rule.ts';
import { useUpdateNotificationRule } from '../api/update-notification-rule.ts';

interface RuleValues {
  channel_id: string | null;
  all_events: boolean;
  event_types: string[];
  all_tags: boolean;
  tags: string[];
  min_severity: AdvisorySeverity;
  cadence: Cadence;
}

/** The minimum severity applies to security advisories only: shown when the rule sends them. */
export function sendsAdvisories(values: Pick<RuleValues, 'all_events' | 'event_types'>): boolean {
  return values.all_events || values.event_types.includes('advisory_published');
}

const SEVERITY_CHOICES = ADVISORY_SEVERITIES.map((severity) => ({
  value: severity,
  label:
    severity === 'unknown'
      ? 'Any, unrated included'
      : `${SEVERITY_LABELS[severity]}${severity === 'critical' ? ' only' : ' or worse'}`,
}));

function toBody(values: RuleValues): CreateRuleBody {
  return {
    channel_id: values.channel_id === null ? Number.NaN : Number(values.channel_id),
    event_types: values.all_events ? null : (values.event_types as EventType[]),
    tags: values.all_tags ? null : values.tags,
    // Only a rule that sends advisories says how severe (the server keeps its default otherwise).
    ...(sendsAdvisories(values) ? { min_severity: values.min_severity } : {}),
    cadence: values.cadence,
  };
}

function initialValues(rule: Rule | null, channels: Channel[]): RuleValues {
  return {
    channel_id: String(rule?.channel_id ?? channels[0]?.id ?? '') || null,
    all_events: rule ? rule.event_types === null : false,
    event_types: rule?.event_types ?? ['release_published'],
    all_tags: rule ? rule.tags === null : true,
    tags: rule?.tags ?? [],
    min_severity: rule?.min_severity ?? DEFAULT_MIN_SEVERITY,
    cadence: rule?.cadence ?? 'instant',
  };
}

/** Short enough for three segments on a phone; the rule list says 'Daily digest'. */
const CADENCE_SHORT: Record<Cadence, string> = { instant: 'Instantly', daily: 'Daily', weekly: 'Weekly' };

const validateRule = zodResolver<CreateRuleBody>(createRuleBodySchema);

export interface RuleFormProps {
  rule: Rule | null;
  channels: Channel[];
  onClose: () => void;
  onSaved: (message: string) => void;
}

/** Which events, for which tags, to which channel, and when: add a rule or change one. */
/** Mounted while open (the parent renders it then), so each opening starts from `rule`. */
export function NotificationRuleForm({ rule, channels, onClose, onSaved }: RuleFormProps) {
  const create = useCreateNotificationRule();
  const update = useUpdateNotificationRule();
  const tags = useTags();
  const form = useForm<RuleValues>({
    initialValues: initialValues(rule, channels),
    validate: (values) => {
      const errors = validateRule(toBody(values));
      if (errors.channel_id) errors.channel_id = 'Choose a channel';
      return errors;
    },
  });
  const mutation = rule ? update : create;
  const onError = (error: Error) => form.setErrors(fieldErrors(error));
  const submit = form.onSubmit((values) => {
    const body = toBody(values);
    if (rule) update.mutate({ id: rule.id, body }, { onSuccess: () => onSaved('Rule saved'), onError });
    else create.mutate(body, { onSuccess: () => onSaved('Rule added'), onError });
  });

  // Tags from the catalogue, plus any the rule names that no repository carries now.
  const tagNames = [...new Set([...(tags.data?.tags.map((tag) => tag.name) ?? []), ...form.values.tags])];
  const serverMessage =
    mutation.error && Object.keys(fieldErrors(mutation.error)).length === 0
      ? describeError(mutation.error, 'Failed to save the rule')
      : null;

  return (
    <Modal opened onClose={onClose} title={rule ? 'Edit rule' : 'Add rule'} centered size="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {serverMessage && <InlineMessage kind="error">{serverMessage}</InlineMessage>}
          <Stack gap={6}>
            <Checkbox label="All event types" {...form.getInputProps('all_events', { type: 'checkbox' })} />
            {!form.values.all_events && (
              <MultiSelect
                label="Event types"
                placeholder="Choose event types"
                data={EVENT_TYPES.map((type) => ({ value: type, label: EVENT_TYPE_LABELS[type] }))}
                searchable
                clearable
                {...form.getInputProps('event_types')}
              />
            )}
          </Stack>
          <Stack gap={6}>
            <Checkbox
              label="Repositories with any tag (or none)"
              {...form.getInputProps('all_tags', { type: 'checkbox' })}
            />
            {!form.values.all_tags && (
              <MultiSelect
                label="Tags"
                description="Repositories with at least one of these tags"
                placeholder={tags.isPending ? 'Loading tags…' : 'Choose tags'}
                data={tagNames}
                searchable
                clearable
                nothingFoundMessage={tags.isError ? 'Tags could not be loaded' : 'No such tag'}
                {...form.getInputProps('tags')}
                error={form.errors.tags ?? form.errors['tags.0']}
              />
            )}
          </Stack>
          {sendsAdvisories(form.values) && (
            <Select
              label="Minimum severity"
              description="Security advisories less severe than this are not sent; other events are not filtered by it."
              data={SEVERITY_CHOICES}
              allowDeselect={false}
              {...form.getInputProps('min_severity')}
            />
          )}
          <Select
            label="Channel"
            data={channels.map((channel) => ({ value: String(channel.id), label: channel.name }))}
            allowDeselect={false}
            placeholder="Choose a channel"
            {...form.getInputProps('channel_id')}
          />
          <Stack gap={4}>
            <Text size="sm" fw={500} id="rule-cadence-label">
              When
            </Text>
            <SegmentedControl
              aria-labelledby="rule-cadence-label"
              fullWidth
              data={CADENCES.map((value) => ({ value, label: CADENCE_SHORT[value] }))}
              {...form.getInputProps('cadence')}
            />
            <Text size="xs" c="dimmed">
              Digests list everything since the last one, grouped by repository: daily at the server's digest
              hour, weekly on Mondays.
            </Text>
          </Stack>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={mutation.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={mutation.isPending}>
              {rule ? 'Save Rule' : 'Add Rule'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
