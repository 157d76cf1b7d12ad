import { Affix, Button, Group, Paper, Popover, Stack, TagsInput, Text, Transition } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconFileExport,
  IconRefresh,
  IconTagMinus,
  IconTagPlus,
  IconTrash,
  IconX,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { AnyBulkAction, BulkResponse } from '#shared/schemas/bulk.ts';
import { ConfirmDialog } from '#web/components/confirm-dialog.tsx';
import { describeError } from '#web/lib/api-errors.ts';
import { useBulkAction, useExportSelection } from '../api/bulk.ts';
import { BarButton } from './bar-button.tsx';
import { showDeletedNotice } from './deleted-notice.tsx';
import { StatusBulkButton, type StatusChange } from './status-bulk-button.tsx';

const DONE: Record<Exclude<AnyBulkAction, 'delete'>, (count: number) => string> = {
  add_tags: (count) => `Tags added to ${count} ${plural(count)}.`,
  set_status: (count) => `Status set on ${count} ${plural(count)}.`,
  remove_tags: (count) => `Tags removed from ${count} ${plural(count)}.`,
  sync: (count) => `${count} ${plural(count)} queued for an update from GitHub.`,
};

function plural(count: number) {
  return count === 1 ? 'repository' : 'repositories';
}

/** The outcome, one notification: what worked, and each failure with its reason. */
function report(action: AnyBulkAction, answer: BulkResponse) {
  const failures = answer.results.filter((result) => !result.ok);
  // Deletions are announced by their own notice, with Undo: here only what failed.
  const successLine = action === 'delete' ? null : DONE[action](answer.succeeded);
  if (!successLine && failures.length === 0) return;
  notifications.show({
    color: failures.length === 0 ? 'green' : answer.succeeded === 0 ? 'red' : 'yellow',
    title: failures.length === 0 ? undefined : `${failures.length} could not be changed`,
    autoClose: failures.length === 0 ? 4_000 : false,
    message: (
      <Stack gap={2}>
        {answer.succeeded > 0 && successLine && <Text size="sm">{successLine}</Text>}
        {failures.map((failure) => (
          <Text size="sm" key={failure.id}>
            {failure.id}: {failure.error}
          </Text>
        ))}
      </Stack>
    ),
  });
}

/**
 * The actions over the list's selection (docs/product.md#bulk-actions), docked at the bottom of
 * the screen while anything is selected: tags, update, the team's status, export, delete (one
 * confirmation for all).
 */
export function SelectionBar({
  selected,
  onClear,
  compact = false,
}: {
  selected: string[];
  onClear: () => void;
  /** Icons only (phones). */
  compact?: boolean;
}) {
  const bulk = useBulkAction();
  const queryClient = useQueryClient();
  const exporter = useExportSelection();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [tagMode, setTagMode] = useState<'add_tags' | 'remove_tags' | null>(null);
  const [tags, setTags] = useState<string[]>([]);
  const count = selected.length;

  const run = (action: AnyBulkAction, extra: { tags?: string } | StatusChange = {}) =>
    bulk.mutate(
      { items: selected, action, ...extra },
      {
        onSuccess: (answer) => {
          report(action, answer);
          if (action === 'delete') {
            onClear();
            const deleted = answer.results.filter((result) => result.ok).map((result) => result.id);
            if (deleted.length > 0) showDeletedNotice(deleted, queryClient);
          }
        },
        onError: (error) =>
          notifications.show({ color: 'red', message: `Failed: ${describeError(error, 'Request failed')}` }),
      },
    );

  const tagButton = (mode: 'add_tags' | 'remove_tags') => (
    <Popover
      opened={tagMode === mode}
      onChange={(opened) => !opened && setTagMode(null)}
      trapFocus
      position="top"
      withArrow
      shadow="md"
    >
      <Popover.Target>
        <BarButton
          compact={compact}
          icon={
            mode === 'add_tags' ? (
              <IconTagPlus size={16} aria-hidden />
            ) : (
              <IconTagMinus size={16} aria-hidden />
            )
          }
          label={mode === 'add_tags' ? 'Add tags' : 'Remove tags'}
          onClick={() => {
            setTags([]);
            setTagMode(tagMode === mode ? null : mode);
          }}
        />
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs" w={260}>
          <TagsInput
            label={mode === 'add_tags' ? 'Tags to add' : 'Tags to remove'}
            value={tags}
            onChange={setTags}
            splitChars={[',']}
            acceptValueOnBlur
            data-autofocus
          />
          <Button
            size="xs"
            disabled={tags.length === 0}
            loading={bulk.isPending}
            onClick={() => {
              run(mode, { tags: tags.join(',') });
              setTagMode(null);
            }}
          >
            {mode === 'add_tags' ? `Add to ${count}` : `Remove from ${count}`}
          </Button>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );

  return (
    <>
      {/* Centred over the content, beside the sidebar rather than across it. */}
      <Affix position={{ bottom: 16, left: 'var(--app-shell-navbar-offset, 0rem)', right: 0 }} zIndex={150}>
        <Transition mounted={count > 0} transition="slide-up">
          {(style) => (
            <Group justify="center" style={style} px="sm">
              <Paper
                withBorder
                shadow="md"
                radius="md"
                p="xs"
                role="region"
                aria-label="Selected repositories"
              >
                <Group gap={compact ? 6 : 'xs'} wrap={compact ? 'nowrap' : 'wrap'} justify="center">
                  <Text size="sm" fw={600} px={4} aria-live="polite">
                    {count} selected
                  </Text>
                  {tagButton('add_tags')}
                  {tagButton('remove_tags')}
                  <BarButton
                    compact={compact}
                    icon={<IconRefresh size={16} aria-hidden />}
                    label="Update from GitHub"
                    loading={bulk.isPending && bulk.variables?.action === 'sync'}
                    onClick={() => run('sync')}
                  />
                  <StatusBulkButton
                    count={count}
                    compact={compact}
                    pending={bulk.isPending && bulk.variables?.action === 'set_status'}
                    onApply={(change) => run('set_status', change)}
                  />
                  <BarButton
                    compact={compact}
                    icon={<IconFileExport size={16} aria-hidden />}
                    label="Export"
                    loading={exporter.isPending}
                    onClick={() =>
                      exporter.mutate(selected, {
                        onSuccess: () =>
                          notifications.show({ message: '✅ Export started. Check your downloads.' }),
                        onError: () =>
                          notifications.show({
                            color: 'red',
                            message: '❌ Failed to export repositories. Please try again.',
                          }),
                      })
                    }
                  />
                  <BarButton
                    compact={compact}
                    icon={<IconTrash size={16} aria-hidden />}
                    label="Delete"
                    color="red"
                    variant="light"
                    onClick={() => setConfirmDelete(true)}
                  />
                  <BarButton
                    compact={compact}
                    icon={<IconX size={16} aria-hidden />}
                    label="Clear selection"
                    variant="subtle"
                    onClick={onClear}
                  />
                </Group>
              </Paper>
            </Group>
          )}
        </Transition>
      </Affix>
      <ConfirmDialog
        opened={confirmDelete}
        title={`Delete ${count} ${plural(count)}?`}
        confirmLabel="Delete"
        busy={bulk.isPending}
        onCancel={() => setConfirmDelete(false)}
        onConfirm={() => {
          setConfirmDelete(false);
          run('delete');
        }}
      >
        {`They will be removed from the catalogue with their tags, notes, comments and versions (you can undo it for 30 seconds). Repositories another member added can only be deleted by them or an administrator; they are listed afterwards.`}
      </ConfirmDialog>
    </>
  );
}
