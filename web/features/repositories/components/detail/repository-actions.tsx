import { Button, Group, Stack, Text } from '@mantine/core';
import { IconRefresh, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { MESSAGE_CLEAR_MS } from '#shared/constants.ts';
import { formatTime } from '#shared/format.ts';
import type { Repository } from '#shared/schemas/repositories.ts';
import { ConfirmDialog } from '#web/components/confirm-dialog.tsx';
import { InlineMessage } from '#web/components/inline-message.tsx';
import { apiErrorKind, describeError } from '#web/lib/api-errors.ts';
import { useAuth } from '#web/lib/auth/auth-context.tsx';
import { useMessage } from '#web/lib/hooks/use-message.ts';
import { useDeleteRepository } from '../../api/delete-repository.ts';
import { useSyncRepository } from '../../api/sync-repository.ts';
import { showDeletedNotice } from '../deleted-notice.tsx';
import tones from '../tones.module.css';

export const UPDATING_MESSAGE = 'Updating from GitHub...';
export const UPDATED_MESSAGE = '✅ Repository updated!';
export const UPDATED_REFRESH_FAILED = '✅ Repository updated, but failed to refresh details.';
export const UPDATE_TIMED_OUT = 'GitHub took too long to answer. Showing the stored data.';
/**
 * A 202: GitHub's pace is used up, the engine updates it in the background. No emoji: the info
 * notice has its own icon, and ⏳ has no glyph in fonts without colour emoji.
 */
export const updateQueuedMessage = (eta: string) =>
  `Queued: GitHub asks us to slow down, so the update runs by ${formatTime(eta)}.`;

/**
 * The update-from-GitHub and delete actions with their messages (docs/product.md#repository-detail),
 * shown in the page's header under the numbers.
 */
export function RepositoryActions({ repository }: { repository: Repository }) {
  const { user } = useAuth();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const sync = useSyncRepository(repository.id);
  const remove = useDeleteRepository(repository.id);
  const [confirming, setConfirming] = useState(false);
  const noteId = useId();
  const { message, show, clear } = useMessage();
  const canDelete = user !== null && (user.is_admin || user.id === repository.user_id);

  const onSync = () => {
    show('info', UPDATING_MESSAGE);
    sync.mutate(undefined, {
      onSuccess: (result) => {
        if (result.queued) show('info', updateQueuedMessage(result.eta));
        else if (result.refreshFailed) show('success', UPDATED_REFRESH_FAILED, MESSAGE_CLEAR_MS.saved);
        else show('success', UPDATED_MESSAGE, MESSAGE_CLEAR_MS.repositoryUpdated);
      },
      // A time-out continues with the local data.
      onError: (error) =>
        apiErrorKind(error) === 'timeout'
          ? show('info', UPDATE_TIMED_OUT, MESSAGE_CLEAR_MS.export)
          : show('error', `❌ Failed to update: ${describeError(error, 'Request failed')}`),
    });
  };

  const onDelete = () => {
    clear();
    remove.mutate(undefined, {
      onSuccess: () => {
        navigate('/');
        showDeletedNotice([repository.id], queryClient, navigate);
      },
      onError: (error) => {
        setConfirming(false);
        show('error', `Failed to delete repository: ${describeError(error, 'Request failed')}`);
      },
    });
  };

  return (
    <Stack gap="xs">
      <Group gap="sm">
        <Button
          variant="light"
          onClick={onSync}
          disabled={sync.isPending}
          leftSection={<IconRefresh size={18} aria-hidden />}
        >
          {sync.isPending ? UPDATING_MESSAGE : 'Update from GitHub'}
        </Button>
        <Button
          color="red"
          variant="outline"
          className={tones.dangerButton}
          onClick={() => setConfirming(true)}
          disabled={!canDelete || remove.isPending}
          leftSection={<IconTrash size={18} aria-hidden />}
          aria-describedby={canDelete ? undefined : noteId}
        >
          Delete Repository
        </Button>
      </Group>
      {!canDelete && (
        <Text size="sm" c="dimmed" id={noteId}>
          Only the member who added this repository, or an administrator, can delete it.
        </Text>
      )}
      {message && (
        <InlineMessage kind={message.kind} onClose={message.kind === 'error' ? clear : undefined}>
          {message.text}
        </InlineMessage>
      )}
      <ConfirmDialog
        opened={confirming}
        title="Delete this repository?"
        confirmLabel="Delete"
        busy={remove.isPending}
        onConfirm={onDelete}
        onCancel={() => setConfirming(false)}
      >
        {`${repository.id} will be removed from the catalogue with its tags, notes, comments and versions. You can undo it for 30 seconds.`}
      </ConfirmDialog>
    </Stack>
  );
}
