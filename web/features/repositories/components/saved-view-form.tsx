import { Button, Group, Modal, Stack, Switch, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { createSavedViewBodySchema, type SavedView } from '#shared/schemas/views.ts';
import { InlineMessage } from '#web/components/inline-message.tsx';
import { describeApiError, describeError } from '#web/lib/api-errors.ts';
import { zodResolver } from '#web/lib/forms/zod-resolver.ts';
import { useCreateView, useUpdateView } from '../api/saved-views.ts';

const nameAndSharing = createSavedViewBodySchema.pick({ name: true, shared: true });

/**
 * Saving or renaming a view (saved-view-controls.tsx): loaded when first opened, with Mantine's
 * Modal and Switch, which the list's first screen does not show.
 */
export default function ViewForm({
  opened,
  view,
  query,
  onClose,
}: {
  opened: boolean;
  view: SavedView | null;
  query: string;
  onClose: () => void;
}) {
  const create = useCreateView();
  const update = useUpdateView();
  const form = useForm({
    mode: 'controlled',
    initialValues: { name: view?.name ?? '', shared: view?.shared ?? false },
    validate: zodResolver(nameAndSharing),
  });
  const busy = create.isPending || update.isPending;
  // A refusal that is not the name's (the member already keeps the most views one may): the
  // dialog says it above its buttons.
  const [refusal, setRefusal] = useState<string | null>(null);

  const close = () => {
    form.reset();
    setRefusal(null);
    onClose();
  };
  const submit = form.onSubmit(({ name, shared }) => {
    const done = {
      onSuccess: () => {
        notifications.show({ message: view ? 'View renamed.' : `View “${name.trim()}” saved.` });
        close();
      },
      onError: (error: unknown) => {
        // A taken or refused name is the field's problem, in the server's words; any other
        // refusal (too many views) or failure is the dialog's.
        const { kind, message, fields } = describeApiError(error);
        if (kind === 'conflict' || (kind === 'validation' && fields.query === undefined)) {
          form.setFieldError('name', fields.name ?? message);
        } else {
          setRefusal(
            kind === 'bad_request' || kind === 'validation'
              ? message
              : describeError(error, 'Request failed'),
          );
        }
      },
    };
    setRefusal(null);
    if (view) update.mutate({ id: view.id, name }, done);
    else create.mutate({ name, shared, query }, done);
  });

  return (
    <Modal opened={opened} onClose={close} title={view ? 'Rename view' : 'Save this view'} centered>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput
            label="Name"
            placeholder="e.g. Web, most stars"
            data-autofocus
            {...form.getInputProps('name')}
            key={form.key('name')}
          />
          {!view && (
            <Switch
              label="Share with the team"
              description="Every member sees it in the sidebar; you (and admins) can change it."
              {...form.getInputProps('shared', { type: 'checkbox' })}
              key={form.key('shared')}
            />
          )}
          {refusal && <InlineMessage kind="error">{refusal}</InlineMessage>}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              {view ? 'Rename' : 'Save view'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
