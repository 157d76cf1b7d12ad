import { useMutation } from '@tanstack/react-query';
import { type EmailOnlyBody, type SuccessResponse, successResponseSchema } from '#shared/schemas/auth.ts';
import { apiRequest } from '#web/lib/api-client.ts';

/** POST /auth/forgot-password: `{ success, message }`; 429 carries `retry_after` seconds. */
export function postForgotPassword(body: EmailOnlyBody): Promise<SuccessResponse> {
  return apiRequest('/auth/forgot-password', successResponseSchema, { method: 'POST', body });
}

export function useForgotPassword() {
  return useMutation({ mutationFn: postForgotPassword });
}
