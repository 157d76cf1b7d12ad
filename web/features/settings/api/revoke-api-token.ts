import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiTokensRevoked, apiTokensRevokedSchema } from '#shared/schemas/api-tokens.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { apiTokensQueryKey } from './api-token-keys.ts';

/** DELETE /auth/me/tokens/{id}: that token stops working at once. */
export function revokeApiToken(id: number): Promise<ApiTokensRevoked> {
  return apiRequest(`/auth/me/tokens/${id}`, apiTokensRevokedSchema, { method: 'DELETE' });
}

export function useRevokeApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeApiToken,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiTokensQueryKey }),
  });
}
