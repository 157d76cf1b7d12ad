import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type GitHubTokenStatus, githubTokenStatusSchema } from '#shared/schemas/auth.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { useAuth } from '#web/lib/auth/auth-context.tsx';
import { applyGitHubTokenStatus } from './github-token-keys.ts';

/** PUT /auth/me/github-token `{ token }`: stored encrypted; the answer is the new status. */
export function putGitHubToken(token: string): Promise<GitHubTokenStatus> {
  return apiRequest('/auth/me/github-token', githubTokenStatusSchema, { method: 'PUT', body: { token } });
}

export function useSaveGitHubToken() {
  const queryClient = useQueryClient();
  const { updateUser } = useAuth();
  return useMutation({
    mutationFn: putGitHubToken,
    onSuccess: (status) => applyGitHubTokenStatus(queryClient, status, updateUser),
  });
}
