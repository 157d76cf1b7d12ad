import { queryOptions, useQuery } from '@tanstack/react-query';
import { type SuccessResponse, successResponseSchema } from '#shared/schemas/auth.ts';
import { apiRequest } from '#web/lib/api-client.ts';

/** POST /auth/verify-email `{ token }` → `{ success, message }`. */
export function postVerifyEmail(token: string): Promise<SuccessResponse> {
  return apiRequest('/auth/verify-email', successResponseSchema, { method: 'POST', body: { token } });
}

/**
 * A query rather than a mutation on purpose: the token is single use, and the query cache
 * makes sure one page visit sends it once (React's development double effects, re-renders
 * and remounts all share the one answer).
 */
export function verifyEmailQueryOptions(token: string) {
  return queryOptions({
    queryKey: ['auth', 'verify-email', token],
    queryFn: () => postVerifyEmail(token),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });
}

export function useVerifyEmail(token: string | null) {
  return useQuery({ ...verifyEmailQueryOptions(token ?? ''), enabled: token !== null });
}
