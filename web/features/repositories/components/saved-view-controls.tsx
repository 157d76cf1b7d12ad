import { Badge, Button, Group, Menu } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconBookmark, IconChevronDown, IconDeviceFloppy, IconUsers } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router';
import type { SavedView } from '#shared/schemas/views.ts';
import { describeError } from '#web/lib/api-errors.ts';
import { usePublicPagesEnabled } from '../api/get-public-pages-enabled.ts';
import { normaliseViewQuery, useDeleteView, useSavedViews, useUpdateView } from '../api/saved-views.ts';

const ViewForm = lazy(() => import('./saved-view-form.tsx'));
const PublishDialog = lazy(() => import('./saved-view-publish.tsx'));

/**
 * The list's saved-view controls (docs/product.md#saved-views): 'Save view' for the address as it
 * is, or — when the address is a saved view — its name with Rename, Share, Publish (when
 * PUBLIC_PAGES is on) and Delete for those who may change it.
 */
export function SavedViewControls({ query }: { query: string }) {
  const views = useSavedViews();
  const current = normaliseViewQuery(query);
  const match = views.data?.find((view) => normaliseViewQuery(view.query) === current);
  const [editing, setEditing] = useState<'new' | SavedView | null>(null);
  // Mounted from the first opening on, so that it closes with its transition.
  const [formWanted, setFormWanted] = useState(false);
  if (editing !== null && !formWanted) setFormWanted(true);
  const [publishing, setPublishing] = useState(false);
  const [publishWanted, setPublishWanted] = useState(false);
  if (publishing && !publishWanted) setPublishWanted(true);

  return (
    <>
      {match ? (
        <ActiveView view={match} onRename={() => setEditing(match)} onPublish={() => setPublishing(true)} />
      ) : (
        <Button
          variant="default"
          leftSection={<IconDeviceFloppy size={18} aria-hidden />}
          onClick={() => setEditing('new')}
        >
          Save view
        </Button>
      )}
      {formWanted && (
        <Suspense fallback={null}>
          <ViewForm
            opened={editing !== null}
            view={editing === 'new' ? null : editing}
            query={query}
            onClose={() => setEditing(null)}
          />
        </Suspense>
      )}
      {publishWanted && match && (
        <Suspense fallback={null}>
          <PublishDialog opened={publishing} view={match} onClose={() => setPublishing(false)} />
        </Suspense>
      )}
    </>
  );
}

function ActiveView({
  view,
  onRename,
  onPublish,
}: {
  view: SavedView;
  onRename: () => void;
  onPublish: () => void;
}) {
  const publicPages = usePublicPagesEnabled();
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
        {publicPages && <Menu.Item onClick={onPublish}>Publish…</Menu.Item>}
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
