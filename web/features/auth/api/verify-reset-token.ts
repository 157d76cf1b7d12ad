import { queryOptions, useQuery } from '@tanstack/react-query';
import { type SuccessResponse, successResponseSchema } from '../../../../shared/schemas/auth.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/** GET /auth/verify-reset-token?token= — checks the link before the form is shown. */
export function getVerifyResetToken(token: string, signal?: AbortSignal): Promise<SuccessResponse> {
  return apiRequest(`/auth/verify-reset-token?token=${encodeURIComponent(token)}`, successResponseSchema, {
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
    queryFn: ({ signal }) => getVerifyResetToken(token, signal),
    retry: false,
    gcTime: 0,
  });
}

export function useVerifyResetToken(token: string | null) {
  return useQuery({ ...verifyResetTokenQueryOptions(token ?? ''), enabled: token !== null });
}
