import { useMutation } from '@tanstack/react-query';
import { type ResetPasswordBody, type SuccessResponse, successResponseSchema } from '#shared/schemas/auth.ts';
import { apiRequest } from '#web/lib/api-client.ts';

/** POST /auth/reset-password `{ token, new_password }` → `{ success, message }`. */
export function postResetPassword(body: ResetPasswordBody): Promise<SuccessResponse> {
  return apiRequest('/auth/reset-password', successResponseSchema, { method: 'POST', body });
}

export function useResetPassword() {
  return useMutation({ mutationFn: postResetPassword });
}
