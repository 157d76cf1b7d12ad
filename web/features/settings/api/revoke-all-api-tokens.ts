import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiTokensRevoked, apiTokensRevokedSchema } from '#shared/schemas/api-tokens.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { apiTokensQueryKey } from './api-token-keys.ts';

/** DELETE /auth/me/tokens: every API token of the member stops working at once. */
export function revokeAllApiTokens(): Promise<ApiTokensRevoked> {
  return apiRequest('/auth/me/tokens', apiTokensRevokedSchema, { method: 'DELETE' });
}

export function useRevokeAllApiTokens() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeAllApiTokens,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiTokensQueryKey }),
  });
}
