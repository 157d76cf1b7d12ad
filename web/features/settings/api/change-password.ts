import { useMutation } from '@tanstack/react-query';
import { type MessageResponse, messageResponseSchema } from '../../../../shared/schemas/auth.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { readRefreshToken } from '../../../lib/storage.ts';

export interface ChangePasswordVariables {
  current_password: string;
  new_password: string;
}

/**
 * POST /auth/change-password. Sends this browser's own refresh token, so the server signs out
 * every other session but keeps this one.
 */
export function postChangePassword(body: ChangePasswordVariables): Promise<MessageResponse> {
  const refreshToken = readRefreshToken();
  return apiRequest('/auth/change-password', messageResponseSchema, {
    method: 'POST',
    body: refreshToken ? { ...body, refresh_token: refreshToken } : body,
  });
}

export function useChangePassword() {
  return useMutation({ mutationFn: postChangePassword });
}
