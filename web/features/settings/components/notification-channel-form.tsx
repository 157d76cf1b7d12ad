import { Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  CHANNEL_KIND_LABELS,
  CHANNEL_KINDS,
  type Channel,
  type ChannelKind,
  createChannelBodySchema,
  kindHasUrl,
  updateChannelBodySchema,
} from '#shared/schemas/notifications.ts';
import { InlineMessage } from '#web/components/inline-message.tsx';
import { describeError, fieldErrors } from '#web/lib/api-errors.ts';
import { zodResolver } from '#web/lib/forms/zod-resolver.ts';
import { useCreateNotificationChannel } from '../api/create-notification-channel.ts';
import { useUpdateNotificationChannel } from '../api/update-notification-channel.ts';

interface ChannelValues {
  kind: ChannelKind;
  name: string;
  url: string;
}

const URL_PLACEHOLDER: Record<ChannelKind, string> = {
  webhook: 'https://hooks.example.com/…',
  discord: 'https://discord.com/api/webhooks/…',
  slack: '',
  email: '',
};

const KIND_HELP: Record<ChannelKind, string> = {
  slack: 'Posts to the Slack webhook stored under GitHub Access.',
  webhook: 'Posts a JSON body to a URL on a host your administrator allows.',
  discord: 'Posts to a Discord channel webhook.',
  email: 'Sends to your verified e-mail address.',
};

/** The body the API takes: a URL only for kinds that have one, none when left empty on edit. */
function createBody(values: ChannelValues) {
  return kindHasUrl(values.kind)
    ? { kind: values.kind, name: values.name, url: values.url }
    : { kind: values.kind, name: values.name };
}

function updateBody(values: ChannelValues) {
  return values.url.trim() ? { name: values.name, url: values.url } : { name: values.name };
}

const validateCreate = zodResolver<ReturnType<typeof createBody>>(createChannelBodySchema);
const validateUpdate = zodResolver<ReturnType<typeof updateBody>>(updateChannelBodySchema);

export interface ChannelFormProps {
  /** The channel being edited; none to add one. */
  channel: Channel | null;
  hasSlackWebhook: boolean;
  onClose: () => void;
  onSaved: (message: string) => void;
}

/**
 * Adds a channel, or renames one and replaces its URL (never shown back: write-only). Mounted
 * while open (the parent renders it then), so each opening starts from `channel`.
 */
export function NotificationChannelForm({ channel, hasSlackWebhook, onClose, onSaved }: ChannelFormProps) {
  const create = useCreateNotificationChannel();
  const update = useUpdateNotificationChannel();
  const editing = channel !== null;
  const form = useForm<ChannelValues>({
    initialValues: {
      kind: channel?.kind ?? (hasSlackWebhook ? 'slack' : 'webhook'),
      name: channel?.name ?? '',
      url: '',
    },
    validate: (values) =>
      // The shared schemas check the body the API will get, so their messages show on the fields.
      editing ? validateUpdate(updateBody(values)) : validateCreate(createBody(values)),
  });
  const mutation = editing ? update : create;
  // The server's field messages (a refused host, an address that resolves privately) show on the field.
  const onError = (error: Error) => form.setErrors(fieldErrors(error));
  const submit = form.onSubmit((values) => {
    if (channel) {
      update.mutate(
        { id: channel.id, body: updateBody(values) },
        { onSuccess: (saved) => onSaved(`Channel "${saved.name}" saved`), onError },
      );
    } else {
      create.mutate(createBody(values), {
        onSuccess: (created) => onSaved(`Channel "${created.name}" added`),
        onError,
      });
    }
  });

  const kind = form.values.kind;
  // A message the fields don't already show (a limit, a network failure).
  const serverMessage =
    mutation.error && Object.keys(fieldErrors(mutation.error)).length === 0
      ? describeError(mutation.error, 'Failed to save the channel')
      : null;

  return (
    <Modal opened onClose={onClose} title={editing ? 'Edit channel' : 'Add channel'} centered>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {serverMessage && <InlineMessage kind="error">{serverMessage}</InlineMessage>}
          <Select
            label="Kind"
            data={CHANNEL_KINDS.map((value) => ({
              value,
              label: CHANNEL_KIND_LABELS[value],
              disabled: value === 'slack' && !hasSlackWebhook,
            }))}
            allowDeselect={false}
            disabled={editing}
            {...form.getInputProps('kind')}
          />
          <Text size="xs" c="dimmed">
            {KIND_HELP[kind]}
            {!hasSlackWebhook && !editing ? ' Slack needs a webhook stored under GitHub Access first.' : ''}
          </Text>
          <TextInput label="Name" placeholder="Team alerts" maxLength={100} {...form.getInputProps('name')} />
          {kindHasUrl(kind) && (
            <TextInput
              type="url"
              label={editing ? 'New webhook URL' : 'Webhook URL'}
              description={
                editing
                  ? `Stored encrypted (${channel?.target ?? 'hidden'}). Leave empty to keep it.`
                  : 'Stored encrypted and never shown again.'
              }
              placeholder={URL_PLACEHOLDER[kind]}
              autoComplete="off"
              spellCheck={false}
              {...form.getInputProps('url')}
            />
          )}
          <Group justify="flex-end" gap="sm" mt="xs">
            <Button variant="default" onClick={onClose} disabled={mutation.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={mutation.isPending}>
              {editing ? 'Save Channel' : 'Add Channel'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
