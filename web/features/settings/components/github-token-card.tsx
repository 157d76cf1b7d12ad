import { Alert, Badge, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconBrandGithub, IconDeviceFloppy, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { MESSAGE_CLEAR_MS } from '../../../../shared/constants.ts';
import { githubTokenBodySchema } from '../../../../shared/schemas/auth.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { FormMessage } from '../../../components/form-message.tsx';
import { PasswordField } from '../../../components/password-field.tsx';
import { describeError } from '../../../lib/api-errors.ts';
import { formatDate } from '../../../lib/format.ts';
import { zodResolver } from '../../../lib/forms/zod-resolver.ts';
import { useTimedMessage } from '../../../lib/hooks/use-timed-message.ts';
import { useGitHubToken } from '../api/get-github-token.ts';
import { useRemoveGitHubToken } from '../api/remove-github-token.ts';
import { useSaveGitHubToken } from '../api/save-github-token.ts';

export const GITHUB_TOKEN_MESSAGES = {
  loadFailed: 'Failed to load GitHub token status',
  saveFailed: 'Failed to save GitHub token',
  removeFailed: 'Failed to remove GitHub token',
  saved: 'GitHub token saved',
  removed: 'GitHub token removed',
  confirmRemove: 'Remove your personal GitHub token?',
} as const;

export function ConfiguredBadge({ configured }: { configured: boolean }) {
  return (
    <Badge variant="light" color={configured ? 'teal' : 'gray'} size="lg" tt="none" style={{ flexShrink: 0 }}>
      {configured ? 'Configured' : 'Not configured'}
    </Badge>
  );
}

export function GitHubTokenCard() {
  const status = useGitHubToken();
  const save = useSaveGitHubToken();
  const remove = useRemoveGitHubToken();
  const [confirming, setConfirming] = useState(false);
  const { message, showSuccess, showError, clear } = useTimedMessage(MESSAGE_CLEAR_MS.token);
  const form = useForm({ initialValues: { token: '' }, validate: zodResolver(githubTokenBodySchema) });

  const submit = form.onSubmit(({ token }) => {
    clear();
    save.mutate(token.trim(), {
      onSuccess: () => {
        form.reset();
        showSuccess(GITHUB_TOKEN_MESSAGES.saved);
      },
      onError: (error) => showError(describeError(error, GITHUB_TOKEN_MESSAGES.saveFailed)),
    });
  });

  const confirmRemove = () => {
    clear();
    remove.mutate(undefined, {
      onSuccess: () => showSuccess(GITHUB_TOKEN_MESSAGES.removed),
      onError: (error) => showError(describeError(error, GITHUB_TOKEN_MESSAGES.removeFailed)),
      onSettled: () => setConfirming(false),
    });
  };

  const configured = status.data?.has_personal_token ?? false;

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
      <Stack gap="md">
        <Group justify="space-between" gap="xs" align="center">
          <Group gap="sm" wrap="nowrap">
            <IconBrandGithub size={28} aria-hidden />
            <Title order={2} size="h4">
              Personal GitHub Token
            </Title>
          </Group>
          {status.isSuccess && <ConfiguredBadge configured={configured} />}
        </Group>
        <Text size="sm" c="dimmed">
          With your own token, GitHub allows 5,000 requests an hour instead of the shared quota, and you can
          add private repositories your token can read. It is stored encrypted and never shown again.
        </Text>

        {message && <FormMessage kind={message.kind}>{message.text}</FormMessage>}

        {status.isPending && <Loader size="sm" aria-label="Loading GitHub token status" />}
        {status.isError && (
          <Alert color="red" variant="light" role="alert" title={GITHUB_TOKEN_MESSAGES.loadFailed}>
            <Group justify="space-between" gap="sm">
              <Text size="sm">{describeError(status.error, GITHUB_TOKEN_MESSAGES.loadFailed)}</Text>
              <Button size="xs" variant="light" color="red" onClick={() => void status.refetch()}>
                Retry
              </Button>
            </Group>
          </Alert>
        )}
        {status.isSuccess && (
          <Stack gap={4}>
            {configured ? (
              <Text size="sm">
                Token ending in <strong>…{status.data.token_last_four ?? '????'}</strong>, set on{' '}
                {formatDate(status.data.token_set_at)}.
              </Text>
            ) : (
              <Text size="sm">No personal token: requests use the shared server quota.</Text>
            )}
            {status.data.shared_quota_remaining !== null && (
              <Text size="sm" c="dimmed">
                Shared quota remaining: {status.data.shared_quota_remaining.toLocaleString()} requests
              </Text>
            )}
          </Stack>
        )}

        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <PasswordField
              label={configured ? 'Replace token' : 'Personal access token'}
              placeholder="ghp_… or github_pat_…"
              autoComplete="off"
              spellCheck={false}
              {...form.getInputProps('token')}
            />
            <Group gap="sm">
              <Button
                type="submit"
                loading={save.isPending}
                leftSection={<IconDeviceFloppy size={16} aria-hidden />}
              >
                Save Token
              </Button>
              {configured && (
                <Button
                  variant="light"
                  color="red"
                  leftSection={<IconTrash size={16} aria-hidden />}
                  onClick={() => setConfirming(true)}
                >
                  Remove Token
                </Button>
              )}
            </Group>
          </Stack>
        </form>
      </Stack>

      <ConfirmDialog
        opened={confirming}
        title={GITHUB_TOKEN_MESSAGES.confirmRemove}
        confirmLabel="Remove Token"
        busy={remove.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={confirmRemove}
      >
        Requests will use the shared server quota again, and private repositories added with it stay visible
        only while you can prove access.
      </ConfirmDialog>
    </Paper>
  );
}
