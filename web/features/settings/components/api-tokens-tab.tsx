import {
  Badge,
  Button,
  Group,
  Loader,
  Paper,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconKey, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { formatDateTime } from '#shared/format.ts';
import type { ApiToken, ApiTokenCreated } from '#shared/schemas/api-tokens.ts';
import { ConfirmDialog } from '#web/components/confirm-dialog.tsx';
import { CopyField } from '#web/components/copy-field.tsx';
import { InlineMessage } from '#web/components/inline-message.tsx';
import { SectionError } from '#web/components/load-states.tsx';
import { describeError } from '#web/lib/api-errors.ts';
import { useMessage } from '#web/lib/hooks/use-message.ts';
import { useApiTokens } from '../api/get-api-tokens.ts';
import { useRevokeAllApiTokens } from '../api/revoke-all-api-tokens.ts';
import { useRevokeApiToken } from '../api/revoke-api-token.ts';
import { ApiTokenForm } from './api-token-form.tsx';

/** Token messages stay 5 s, like the other secrets' (docs/product.md#message-durations). */
const MESSAGE_MS = 5000;

const SCOPE_BADGES: Record<ApiToken['scope'], string> = { read: 'Read', write: 'Write', admin: 'Admin' };

/**
 * Settings → API tokens (docs/product.md#api-tokens): the member's tokens, a form to create one
 * (shown once, with a copy button), revoke one or all, each after a confirmation.
 */
export function ApiTokensTab({ isAdmin }: { isAdmin: boolean }) {
  const tokens = useApiTokens();
  const revoke = useRevokeApiToken();
  const revokeAll = useRevokeAllApiTokens();
  const { message, showSuccess, showError, clear } = useMessage(MESSAGE_MS);
  const [created, setCreated] = useState<ApiTokenCreated | null>(null);
  const [confirming, setConfirming] = useState<ApiToken | 'all' | null>(null);
  const list = tokens.data?.tokens ?? [];

  const onCreated = (token: ApiTokenCreated) => {
    clear();
    setCreated(token);
    showSuccess(`API token "${token.api_token.name}" created.`);
  };

  const confirm = () => {
    clear();
    const target = confirming;
    const done = { onSettled: () => setConfirming(null) };
    if (target === 'all') {
      revokeAll.mutate(undefined, {
        ...done,
        onSuccess: (answer) => {
          setCreated(null);
          showSuccess(
            answer.revoked === 1 ? '1 API token revoked.' : `${answer.revoked} API tokens revoked.`,
          );
        },
        onError: (error) => showError(describeError(error, 'The API tokens could not be revoked.')),
      });
    } else if (target) {
      revoke.mutate(target.id, {
        ...done,
        onSuccess: () => {
          if (created?.api_token.id === target.id) setCreated(null);
          showSuccess(`API token "${target.name}" revoked: it no longer works.`);
        },
        onError: (error) => showError(describeError(error, 'The API token could not be revoked.')),
      });
    }
  };

  return (
    <Stack gap="lg">
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
        <Stack gap="md">
          <Group gap="sm" wrap="nowrap">
            <IconKey size={22} aria-hidden />
            <Title order={2} size="h4">
              API tokens
            </Title>
          </Group>
          <Text size="sm" c="dimmed">
            For scripts and tools: send <code>Authorization: Bearer rt_…</code>. A token can do what its scope
            allows, never change your password, tokens, sessions or secrets. Signing out everywhere leaves
            tokens working: revoke them here.
          </Text>
          {message && <InlineMessage kind={message.kind}>{message.text}</InlineMessage>}
          {created && <CreatedToken created={created} />}
          <ApiTokenForm isAdmin={isAdmin} onCreated={onCreated} />
        </Stack>
      </Paper>

      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
        <Stack gap="md">
          <Group justify="space-between">
            <Title order={3} size="h5">
              Your tokens
            </Title>
            {list.length > 0 && (
              <Button
                variant="light"
                color="red"
                size="xs"
                leftSection={<IconTrash size={14} aria-hidden />}
                onClick={() => setConfirming('all')}
              >
                Revoke all tokens
              </Button>
            )}
          </Group>
          {tokens.isPending && <Loader size="sm" aria-label="Loading your API tokens" />}
          {tokens.isError && (
            <SectionError
              title="Your API tokens could not be loaded."
              message={describeError(tokens.error, 'Request failed')}
              onRetry={() => void tokens.refetch()}
            />
          )}
          {tokens.isSuccess && list.length === 0 && (
            <Text size="sm" c="dimmed">
              No API tokens yet.
            </Text>
          )}
          {list.length > 0 && <TokenTable tokens={list} onRevoke={setConfirming} />}
        </Stack>
      </Paper>

      <ConfirmDialog
        opened={confirming !== null}
        title={
          confirming === 'all'
            ? 'Revoke all API tokens?'
            : `Revoke the API token "${confirming?.name ?? ''}"?`
        }
        confirmLabel={confirming === 'all' ? 'Revoke all' : 'Revoke'}
        busy={revoke.isPending || revokeAll.isPending}
        onCancel={() => setConfirming(null)}
        onConfirm={confirm}
      >
        {confirming === 'all'
          ? 'Every script and tool using one of your tokens stops working at once.'
          : 'Scripts and tools using it stop working at once.'}
      </ConfirmDialog>
    </Stack>
  );
}

function CreatedToken({ created }: { created: ApiTokenCreated }) {
  return (
    <Stack gap={6}>
      <CopyField label="Your new API token" value={created.token} />
      <InlineMessage kind="warning">Copy it now: it will not be shown again.</InlineMessage>
    </Stack>
  );
}

function TokenTable({ tokens, onRevoke }: { tokens: ApiToken[]; onRevoke: (token: ApiToken) => void }) {
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Scope</Table.Th>
            <Table.Th>Token</Table.Th>
            <Table.Th>Created</Table.Th>
            <Table.Th>Expires</Table.Th>
            <Table.Th>Last used</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {tokens.map((token) => (
            <Table.Tr key={token.id}>
              <Table.Td>{token.name}</Table.Td>
              <Table.Td>
                <Badge variant="light" tt="none">
                  {SCOPE_BADGES[token.scope]}
                </Badge>
              </Table.Td>
              <Table.Td>
                <code>{token.prefix}…</code>
              </Table.Td>
              <Table.Td>{formatDateTime(token.created_at)}</Table.Td>
              <Table.Td>{formatDateTime(token.expires_at, { missing: 'Never' })}</Table.Td>
              <Table.Td>
                {token.last_used_at
                  ? `${formatDateTime(token.last_used_at)}${token.last_used_ip ? ` from ${token.last_used_ip}` : ''}`
                  : 'Never used'}
              </Table.Td>
              <Table.Td>
                <Button
                  variant="subtle"
                  color="red"
                  size="xs"
                  aria-label={`Revoke ${token.name}`}
                  onClick={() => onRevoke(token)}
                >
                  Revoke
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
