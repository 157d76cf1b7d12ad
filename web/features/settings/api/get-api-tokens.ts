import { queryOptions, useQuery } from '@tanstack/react-query';
import { type ApiTokenList, apiTokenListSchema } from '#shared/schemas/api-tokens.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { apiTokensQueryKey } from './api-token-keys.ts';

/** GET /auth/me/tokens: the member's API tokens, never the tokens themselves. */
export function getApiTokens(signal?: AbortSignal): Promise<ApiTokenList> {
  return apiRequest('/auth/me/tokens', apiTokenListSchema, { signal });
}

export const apiTokensQueryOptions = queryOptions({
  queryKey: apiTokensQueryKey,
  queryFn: ({ signal }) => getApiTokens(signal),
});

export function useApiTokens() {
  return useQuery(apiTokensQueryOptions);
}
