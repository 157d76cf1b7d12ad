import { queryOptions, useQuery } from '@tanstack/react-query';
import { type SuccessResponse, successResponseSchema } from '#shared/schemas/auth.ts';
import { apiRequest } from '#web/lib/api-client.ts';

/**
 * POST /auth/verify-reset-token — checks the link before the form is shown. The token goes in
 * the body: in a query string it would sit in every proxy's and server's request log.
 */
export function postVerifyResetToken(token: string, signal?: AbortSignal): Promise<SuccessResponse> {
  return apiRequest('/auth/verify-reset-token', successResponseSchema, {
    method: 'POST',
    body: { token },
    signal,
  });
}

/**
 * Never served from the cache: a link that was valid a minute ago may have been used since
 * (opening it again must say 'Invalid Reset Link'), so each visit checks anew.
 */
export function verifyResetTokenQueryOptions(token: string) {
  return queryOptions({
    queryKey: ['auth', 'verify-reset-token', token],
    queryFn: ({ signal }) => postVerifyResetToken(token, signal),
    retry: false,
    gcTime: 0,
  });
}

export function useVerifyResetToken(token: string | null) {
  return useQuery({ ...verifyResetTokenQueryOptions(token ?? ''), enabled: token !== null });
}
