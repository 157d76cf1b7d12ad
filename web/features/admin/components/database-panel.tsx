import {
  ActionIcon,
  Badge,
  Button,
  Code,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconClockPlay, IconDatabasePlus, IconDownload, IconTrash } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { MOBILE_BREAKPOINT_PX } from '#shared/constants.ts';
import { formatBytes, formatDateTime } from '#shared/format.ts';
import type { Backup } from '#shared/schemas/admin.ts';
import { ConfirmDialog } from '#web/components/confirm-dialog.tsx';
import { InlineMessage } from '#web/components/inline-message.tsx';
import { SectionError } from '#web/components/load-states.tsx';
import { describeError } from '#web/lib/api-errors.ts';
import { useMessage } from '#web/lib/hooks/use-message.ts';
import { type BackupRequestKind, useCreateBackup } from '../api/create-backup.ts';
import { useDeleteBackup } from '../api/delete-backup.ts';
import { useDownloadBackup } from '../api/download-backup.ts';
import { useBackups } from '../api/get-backups.ts';
import { backupMessages, isForbidden } from '../lib/admin-messages.ts';

const errorText = (error: unknown) => describeError(error, 'Request failed');

/** Database: the backup panel — list, manual backup, automatic backup. */
export function DatabasePanel({ onForbidden }: { onForbidden: () => void }) {
  const backups = useBackups();
  const create = useCreateBackup();
  const remove = useDeleteBackup();
  const download = useDownloadBackup();
  const { message, showSuccess, showError, clear } = useMessage();
  const [confirming, setConfirming] = useState<Backup | null>(null);

  useEffect(() => {
    if (isForbidden(backups.error)) onForbidden();
  }, [backups.error, onForbidden]);

  /** A 403 means the caller is no admin any more: the denial screen, not a message. */
  function fail(error: unknown, text: (message: string) => string) {
    if (isForbidden(error)) onForbidden();
    else showError(text(errorText(error)));
  }

  async function takeBackup(kind: BackupRequestKind) {
    clear();
    try {
      const { name } = await create.mutateAsync(kind);
      showSuccess(kind === 'auto' ? backupMessages.autoDone(name) : backupMessages.manualDone(name));
    } catch (error) {
      fail(error, kind === 'auto' ? backupMessages.autoFailed : backupMessages.manualFailed);
    }
  }

  async function confirmDelete() {
    if (!confirming) return;
    const { name } = confirming;
    clear();
    try {
      await remove.mutateAsync(name);
      showSuccess(backupMessages.deleted(name));
    } catch (error) {
      fail(error, backupMessages.deleteFailed);
    } finally {
      setConfirming(null);
    }
  }

  async function startDownload(name: string) {
    clear();
    try {
      await download.mutateAsync(name);
    } catch (error) {
      fail(error, backupMessages.downloadFailed);
    }
  }

  const busyKind = create.isPending ? create.variables : null;
  const compact = useMediaQuery(`(max-width: ${MOBILE_BREAKPOINT_PX}px)`) ?? false;

  return (
    <Stack gap="lg">
      <Paper withBorder radius="md" p="md">
        <Stack gap="sm">
          <Group justify="space-between" align="flex-start" gap="sm">
            <div style={{ flex: '1 1 280px' }}>
              <Title order={2} size="h4">
                Backups
              </Title>
              <Text size="sm" c="dimmed" mt={4}>
                A backup holds every account and the whole catalogue. Automatic backups also run on the
                server's schedule and only the newest 10 are kept; manual backups stay until you delete them.
              </Text>
            </div>
            <Group gap="sm">
              <Button
                leftSection={<IconDatabasePlus size={16} aria-hidden />}
                w={{ base: '100%', xs: 'auto' }}
                onClick={() => void takeBackup('manual')}
                loading={busyKind === 'manual'}
                disabled={create.isPending && busyKind !== 'manual'}
              >
                Create Backup
              </Button>
              <Button
                variant="default"
                leftSection={<IconClockPlay size={16} aria-hidden />}
                w={{ base: '100%', xs: 'auto' }}
                onClick={() => void takeBackup('auto')}
                loading={busyKind === 'auto'}
                disabled={create.isPending && busyKind !== 'auto'}
              >
                Run Automatic Backup
              </Button>
            </Group>
          </Group>
          {message && (
            <InlineMessage kind={message.kind} onClose={clear}>
              {message.text}
            </InlineMessage>
          )}
        </Stack>
      </Paper>

      {backups.isError && !isForbidden(backups.error) && (
        <SectionError
          message={backupMessages.loadFailed(errorText(backups.error))}
          onRetry={() => void backups.refetch()}
          retrying={backups.isFetching}
        />
      )}
      {backups.isPending && <Text c="dimmed">Loading backups...</Text>}
      {backups.data && backups.data.length === 0 && (
        <Text c="dimmed">No backups yet. Create one with the button above.</Text>
      )}
      {backups.data && backups.data.length > 0 && (
        <BackupList
          backups={backups.data}
          compact={compact}
          downloading={download.isPending ? (download.variables ?? null) : null}
          onDownload={(name) => void startDownload(name)}
          onDelete={setConfirming}
        />
      )}

      <Text size="sm" c="dimmed">
        To restore a backup, stop the server and run <Code>npm run cli -- restore &lt;file&gt;</Code> on it.
        Stored GitHub tokens and Slack webhooks need the same <Code>SECRET_KEY</Code>.
      </Text>

      <ConfirmDialog
        opened={confirming !== null}
        title="Delete this backup?"
        confirmLabel="Delete"
        busy={remove.isPending}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setConfirming(null)}
      >
        {confirming ? `${confirming.name} will be deleted from the server. This cannot be undone.` : null}
      </ConfirmDialog>
    </Stack>
  );
}

interface BackupListProps {
  backups: Backup[];
  /** Phones get one card per backup instead of the table. */
  compact: boolean;
  downloading: string | null;
  onDownload: (name: string) => void;
  onDelete: (backup: Backup) => void;
}

function KindBadge({ backup }: { backup: Backup }) {
  return (
    <Badge variant="light" color={backup.kind === 'auto' ? 'blue' : 'grape'} tt="none">
      {backup.kind === 'auto' ? 'Automatic' : 'Manual'}
    </Badge>
  );
}

function BackupList({ backups, compact, downloading, onDownload, onDelete }: BackupListProps) {
  if (compact) {
    return (
      <Stack
        component="ul"
        aria-label="Backups"
        gap="sm"
        style={{ listStyle: 'none', padding: 0, margin: 0 }}
      >
        {backups.map((backup) => (
          <Paper component="li" key={backup.name} withBorder radius="md" p="sm" aria-label={backup.name}>
            <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
              {backup.name}
            </Text>
            <Group gap="xs" mt={6}>
              <KindBadge backup={backup} />
              <Text size="sm">{formatBytes(backup.size_bytes)}</Text>
              <Text size="sm" c="dimmed">
                {formatDateTime(backup.created)}
              </Text>
            </Group>
            <Group gap="xs" mt="sm">
              <Button
                size="xs"
                variant="default"
                leftSection={<IconDownload size={14} aria-hidden />}
                aria-label={`Download ${backup.name}`}
                loading={downloading === backup.name}
                onClick={() => onDownload(backup.name)}
              >
                Download
              </Button>
              <Button
                size="xs"
                variant="light"
                color="red"
                leftSection={<IconTrash size={14} aria-hidden />}
                aria-label={`Delete ${backup.name}`}
                onClick={() => onDelete(backup)}
              >
                Delete
              </Button>
            </Group>
          </Paper>
        ))}
      </Stack>
    );
  }
  return (
    <Table.ScrollContainer minWidth={720} type="native">
      <Table striped highlightOnHover verticalSpacing="sm" aria-label="Backups">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Type</Table.Th>
            <Table.Th>Size</Table.Th>
            <Table.Th>Created</Table.Th>
            <Table.Th ta="right">Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {backups.map((backup) => (
            <Table.Tr key={backup.name}>
              <Table.Td>
                <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                  {backup.name}
                </Text>
              </Table.Td>
              <Table.Td>
                <KindBadge backup={backup} />
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatBytes(backup.size_bytes)}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(backup.created)}</Table.Td>
              <Table.Td>
                <Group gap={6} wrap="nowrap" justify="flex-end">
                  <Tooltip label="Download" withArrow>
                    <ActionIcon
                      variant="subtle"
                      aria-label={`Download ${backup.name}`}
                      onClick={() => onDownload(backup.name)}
                      loading={downloading === backup.name}
                    >
                      <IconDownload size={18} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label="Delete" withArrow>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={`Delete ${backup.name}`}
                      onClick={() => onDelete(backup)}
                    >
                      <IconTrash size={18} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
