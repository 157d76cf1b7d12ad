import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { QueryClient } from '@tanstack/react-query';
import { encodeRouteId } from '#shared/route-id.ts';
import { describeError } from '#web/lib/api-errors.ts';
import { repositoryKeys } from '../api/query-keys.ts';
import { restoreRepository } from '../api/restore-repository.ts';

/** As long as the server keeps a deletion undoable. */
export const UNDO_WINDOW_MS = 30_000;

/**
 * The outcome of a delete, with Undo for the 30 s the server keeps it (docs/product.md#undo-delete).
 * `open` goes to a repository page once it is back (given for a single delete).
 */
export function showDeletedNotice(
  fullNames: string[],
  queryClient: QueryClient,
  open?: (path: string) => void,
): void {
  const id = `deleted-${fullNames.join(',')}-${Date.now()}`;
  const what = fullNames.length === 1 ? fullNames[0] : `${fullNames.length} repositories`;
  const undo = async () => {
    notifications.update({ id, message: `Restoring ${what}…`, loading: true, autoClose: false });
    const failed: string[] = [];
    for (const fullName of fullNames) {
      try {
        await restoreRepository(fullName);
      } catch (error) {
        failed.push(`${fullName}: ${describeError(error, 'Request failed')}`);
      }
    }
    await queryClient.invalidateQueries({ queryKey: repositoryKeys.all });
    notifications.update({
      id,
      loading: false,
      color: failed.length === 0 ? 'green' : 'red',
      autoClose: failed.length === 0 ? 4_000 : false,
      withCloseButton: true,
      message: failed.length === 0 ? `${what} restored.` : `Could not restore ${failed.join('; ')}`,
    });
    if (failed.length === 0 && open && fullNames.length === 1 && fullNames[0])
      open(`/repo/${encodeRouteId(fullNames[0])}`);
  };
  notifications.show({
    id,
    autoClose: UNDO_WINDOW_MS,
    message: (
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Text size="sm">{`${what} deleted.`}</Text>
        <Button size="compact-sm" variant="light" onClick={() => void undo()}>
          Undo
        </Button>
      </Group>
    ),
  });
}
