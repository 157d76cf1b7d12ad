import type { QueryClient } from '@tanstack/react-query';
import type { GitHubTokenStatus } from '#shared/schemas/auth.ts';
import { meQueryKey } from '#web/lib/auth/api/get-me.ts';
import type { User } from '#web/lib/auth/user.ts';

/** Under the user's key: a refreshed user (and a sign-out) takes the status along. */
export const githubTokenQueryKey = [...meQueryKey, 'github-token'] as const;

/** After a save or removal: the status query and the user's token fields show the new state. */
export function applyGitHubTokenStatus(
  queryClient: QueryClient,
  status: GitHubTokenStatus,
  updateUser: (changes: Partial<User>) => void,
): void {
  queryClient.setQueryData(githubTokenQueryKey, status);
  updateUser({
    has_personal_github_token: status.has_personal_token,
    github_token_last_four: status.token_last_four,
    github_token_set_at: status.token_set_at,
    github_default_quota_remaining: status.shared_quota_remaining,
  });
}
