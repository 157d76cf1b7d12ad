import { useMutation } from '@tanstack/react-query';
import { type EmailOnlyBody, type SuccessResponse, successResponseSchema } from '#shared/schemas/auth.ts';
import { apiRequest } from '#web/lib/api-client.ts';

/** POST /auth/resend-verification: the same answer whether or not the address exists. */
export function postResendVerification(body: EmailOnlyBody): Promise<SuccessResponse> {
  return apiRequest('/auth/resend-verification', successResponseSchema, { method: 'POST', body });
}

export function useResendVerification() {
  return useMutation({ mutationFn: postResendVerification });
}
