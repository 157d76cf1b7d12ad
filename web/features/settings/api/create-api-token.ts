import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  type ApiTokenCreated,
  apiTokenCreatedSchema,
  type CreateApiTokenBody,
} from '#shared/schemas/api-tokens.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { apiTokensQueryKey } from './api-token-keys.ts';

/** POST /auth/me/tokens: the new token, answered this once, and its row. */
export function createApiToken(body: CreateApiTokenBody): Promise<ApiTokenCreated> {
  return apiRequest('/auth/me/tokens', apiTokenCreatedSchema, { method: 'POST', body });
}

export function useCreateApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createApiToken,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiTokensQueryKey }),
  });
}
