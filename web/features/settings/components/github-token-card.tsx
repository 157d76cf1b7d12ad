import { Stack, Text } from '@mantine/core';
import { IconBrandGithub } from '@tabler/icons-react';
import { MESSAGE_CLEAR_MS } from '#shared/constants.ts';
import { formatDate } from '#shared/format.ts';
import { githubTokenBodySchema } from '#shared/schemas/auth.ts';
import { useGitHubToken } from '../api/get-github-token.ts';
import { useRemoveGitHubToken } from '../api/remove-github-token.ts';
import { useSaveGitHubToken } from '../api/save-github-token.ts';
import { StoredSecretCard, type StoredSecretCopy } from './stored-secret-card.tsx';

const copy: StoredSecretCopy = {
  title: 'Personal GitHub Token',
  description:
    'With your own token, GitHub allows 5,000 requests an hour instead of the shared quota, and you can add private repositories your token can read. It is stored encrypted and never shown again.',
  loadingLabel: 'Loading GitHub token status',
  inputLabel: 'Personal access token',
  replaceLabel: 'Replace token',
  placeholder: 'ghp_… or github_pat_…',
  saveLabel: 'Save Token',
  removeLabel: 'Remove Token',
  confirmDetail:
    'Requests will use the shared server quota again, and private repositories added with it stay visible only while you can prove access.',
  messages: {
    loadFailed: 'Failed to load GitHub token status',
    saveFailed: 'Failed to save GitHub token',
    removeFailed: 'Failed to remove GitHub token',
    saved: 'GitHub token saved',
    removed: 'GitHub token removed',
    confirmRemove: 'Remove your personal GitHub token?',
  },
};

export function GitHubTokenCard() {
  const status = useGitHubToken();
  const save = useSaveGitHubToken();
  const remove = useRemoveGitHubToken();
  const configured = status.data?.has_personal_token ?? false;
  return (
    <StoredSecretCard
      icon={<IconBrandGithub size={28} aria-hidden />}
      copy={copy}
      field="token"
      schema={githubTokenBodySchema}
      input="password"
      clearAfterMs={MESSAGE_CLEAR_MS.token}
      status={status}
      configured={configured}
      save={save}
      remove={remove}
      summary={(data) => (
        <Stack gap={4}>
          {configured ? (
            <Text size="sm">
              Token ending in <strong>…{data.token_last_four ?? '????'}</strong>, set on{' '}
              {formatDate(data.token_set_at, { month: 'long' })}.
            </Text>
          ) : (
            <Text size="sm">No personal token: requests use the shared server quota.</Text>
          )}
          {data.shared_quota_remaining !== null && (
            <Text size="sm" c="dimmed">
              Shared quota remaining: {data.shared_quota_remaining.toLocaleString()} requests
            </Text>
          )}
        </Stack>
      )}
    />
  );
}
