import { Badge, Button, Group, Menu, Modal, Stack, Switch, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconBookmark, IconChevronDown, IconDeviceFloppy, IconUsers } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { createSavedViewBodySchema, type SavedView } from '#shared/schemas/views.ts';
import { InlineMessage } from '#web/components/inline-message.tsx';
import { describeApiError, describeError } from '#web/lib/api-errors.ts';
import { zodResolver } from '#web/lib/forms/zod-resolver.ts';
import {
  normaliseViewQuery,
  useCreateView,
  useDeleteView,
  useSavedViews,
  useUpdateView,
} from '../api/saved-views.ts';

const nameAndSharing = createSavedViewBodySchema.pick({ name: true, shared: true });

/**
 * The list's saved-view controls (docs/product.md#saved-views): 'Save view' for the address as it
 * is, or — when the address is a saved view — its name with Rename, Share and Delete for those who
 * may change it.
 */
export function SavedViewControls({ query }: { query: string }) {
  const views = useSavedViews();
  const current = normaliseViewQuery(query);
  const match = views.data?.find((view) => normaliseViewQuery(view.query) === current);
  const [editing, setEditing] = useState<'new' | SavedView | null>(null);

  return (
    <>
      {match ? (
        <ActiveView view={match} onRename={() => setEditing(match)} />
      ) : (
        <Button
          variant="default"
          leftSection={<IconDeviceFloppy size={18} aria-hidden />}
          onClick={() => setEditing('new')}
        >
          Save view
        </Button>
      )}
      <ViewForm
        opened={editing !== null}
        view={editing === 'new' ? null : editing}
        query={query}
        onClose={() => setEditing(null)}
      />
    </>
  );
}

function ActiveView({ view, onRename }: { view: SavedView; onRename: () => void }) {
  const update = useUpdateView();
  const remove = useDeleteView();
  const navigate = useNavigate();
  const label = (
    <Group gap={6} wrap="nowrap">
      {view.shared ? <IconUsers size={16} aria-hidden /> : <IconBookmark size={16} aria-hidden />}
      <span>{view.name}</span>
    </Group>
  );
  if (!view.can_edit) {
    return (
      <Badge size="lg" variant="light" tt="none" title={`Shared by ${view.owner.username}`}>
        {label}
      </Badge>
    );
  }
  const fail = (error: unknown) =>
    notifications.show({
      color: 'red',
      message: `Failed to change the view: ${describeError(error, 'Request failed')}`,
    });
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button
          variant="light"
          rightSection={<IconChevronDown size={16} aria-hidden />}
          aria-label={`View: ${view.name}`}
        >
          {label}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={onRename}>Rename…</Menu.Item>
        <Menu.Item
          onClick={() =>
            update.mutate(
              { id: view.id, shared: !view.shared },
              {
                onSuccess: () =>
                  notifications.show({
                    message: view.shared ? 'View is private now.' : 'View shared with the team.',
                  }),
                onError: fail,
              },
            )
          }
        >
          {view.shared ? 'Make private' : 'Share with the team'}
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item
          color="red"
          onClick={() =>
            remove.mutate(view.id, {
              onSuccess: () => {
                notifications.show({ message: `View “${view.name}” deleted.` });
                navigate('/home', { replace: true });
              },
              onError: fail,
            })
          }
        >
          Delete view
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

function ViewForm({
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
