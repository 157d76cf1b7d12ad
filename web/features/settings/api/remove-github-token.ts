import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type GitHubTokenStatus, githubTokenStatusSchema } from '#shared/schemas/auth.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { useAuth } from '#web/lib/auth/auth-context.tsx';
import { applyGitHubTokenStatus } from './github-token-keys.ts';

/** DELETE /auth/me/github-token: the answer is the (now empty) status. */
export function deleteGitHubToken(): Promise<GitHubTokenStatus> {
  return apiRequest('/auth/me/github-token', githubTokenStatusSchema, { method: 'DELETE' });
}

export function useRemoveGitHubToken() {
  const queryClient = useQueryClient();
  const { updateUser } = useAuth();
  return useMutation({
    mutationFn: deleteGitHubToken,
    onSuccess: (status) => applyGitHubTokenStatus(queryClient, status, updateUser),
  });
}
