import { Badge, Button, Group, Loader, type MantineSpacing, Paper, Stack, Text, Title } from '@mantine/core';
import { IconRefresh, IconRss, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { formatDateTime } from '#shared/format.ts';
import { ConfirmDialog } from '#web/components/confirm-dialog.tsx';
import { CopyField } from '#web/components/copy-field.tsx';
import { InlineMessage } from '#web/components/inline-message.tsx';
import { SectionError } from '#web/components/load-states.tsx';
import { describeError } from '#web/lib/api-errors.ts';
import { useMessage } from '#web/lib/hooks/use-message.ts';
import { useCreateFeedToken } from '../api/create-feed-token.ts';
import { useFeedToken } from '../api/get-feed-token.ts';
import { useRevokeFeedToken } from '../api/revoke-feed-token.ts';

/** Token messages stay 5 s, like the other secrets' (docs/product.md#message-durations). */
const MESSAGE_MS = 5000;

/**
 * Settings → the Atom feed of the activity (docs/product.md#activity-feed): create its address,
 * shown once with a copy button (only the token's hash is kept), regenerate it to cut off old
 * copies, or revoke it.
 */
export function FeedTokenCard({ mt }: { mt?: MantineSpacing } = {}) {
  const status = useFeedToken();
  const create = useCreateFeedToken();
  const revoke = useRevokeFeedToken();
  const { message, showSuccess, showError, clear } = useMessage(MESSAGE_MS);
  const [shown, setShown] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<'regenerate' | 'revoke' | null>(null);
  const exists = status.data?.exists === true;

  const createAddress = () => {
    clear();
    create.mutate(undefined, {
      onSuccess: (created) => {
        setShown(created.feed_url);
        showSuccess(
          exists ? 'A new feed address was made; the old one no longer works.' : 'Feed address created.',
        );
      },
      onError: (error) => showError(describeError(error, 'The feed address could not be created.')),
      onSettled: () => setConfirming(null),
    });
  };

  const revokeAddress = () => {
    clear();
    revoke.mutate(undefined, {
      onSuccess: () => {
        setShown(null);
        showSuccess('Feed address revoked: feed readers using it get nothing now.');
      },
      onError: (error) => showError(describeError(error, 'The feed address could not be revoked.')),
      onSettled: () => setConfirming(null),
    });
  };

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} mt={mt} data-feed-token-card>
      <Stack gap="md">
        <Group justify="space-between" gap="xs" align="center">
          <Group gap="sm" wrap="nowrap">
            <IconRss size={22} aria-hidden />
            <Title order={2} size="h4">
              Activity feed
            </Title>
          </Group>
          {status.isSuccess && (
            <Badge variant="dot" color={exists ? 'teal' : 'gray'} size="lg" tt="none">
              {exists ? 'Active' : 'Not set up'}
            </Badge>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          Follow the catalogue’s activity in a feed reader (Atom). The address holds a private token: anyone
          with it reads the activity you can see, so keep it to yourself. Regenerate it to cut off old copies.
        </Text>

        {message && <InlineMessage kind={message.kind}>{message.text}</InlineMessage>}

        {status.isPending && <Loader size="sm" aria-label="Loading the activity feed status" />}
        {status.isError && (
          <SectionError
            title="The activity feed status could not be loaded."
            message={describeError(status.error, 'Request failed')}
            onRetry={() => void status.refetch()}
          />
        )}

        {shown && (
          <Stack gap={6}>
            <CopyField label="Your feed address" value={shown} />
            <Text size="xs" c="dimmed">
              Copy it now: it is shown only this once. For one tag only, add <code>&amp;tag=</code> and the
              tag’s name.
            </Text>
          </Stack>
        )}

        {status.isSuccess && exists && !shown && status.data.created_at && (
          <Text size="sm">
            Created {formatDateTime(status.data.created_at)}.{' '}
            {status.data.last_used_at
              ? `Last read by a feed reader ${formatDateTime(status.data.last_used_at)}.`
              : 'No feed reader has read it yet.'}
          </Text>
        )}

        {status.isSuccess && (
          <Group gap="sm">
            {exists ? (
              <>
                <Button
                  variant="light"
                  leftSection={<IconRefresh size={16} aria-hidden />}
                  loading={create.isPending}
                  onClick={() => setConfirming('regenerate')}
                >
                  Regenerate address
                </Button>
                <Button
                  variant="light"
                  color="red"
                  leftSection={<IconTrash size={16} aria-hidden />}
                  onClick={() => setConfirming('revoke')}
                >
                  Revoke
                </Button>
              </>
            ) : (
              <Button
                leftSection={<IconRss size={16} aria-hidden />}
                loading={create.isPending}
                onClick={createAddress}
              >
                Create feed address
              </Button>
            )}
          </Group>
        )}
      </Stack>

      <ConfirmDialog
        opened={confirming !== null}
        title={confirming === 'revoke' ? 'Revoke the feed address?' : 'Make a new feed address?'}
        confirmLabel={confirming === 'revoke' ? 'Revoke' : 'Regenerate'}
        busy={create.isPending || revoke.isPending}
        onCancel={() => setConfirming(null)}
        onConfirm={confirming === 'revoke' ? revokeAddress : createAddress}
      >
        {confirming === 'revoke'
          ? 'Feed readers using the current address will get nothing from now on.'
          : 'The current address stops working at once; feed readers need the new one.'}
      </ConfirmDialog>
    </Paper>
  );
}
