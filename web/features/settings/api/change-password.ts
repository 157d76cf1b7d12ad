import { useMutation } from '@tanstack/react-query';
import { type ChangePasswordResponse, changePasswordResponseSchema } from '#shared/schemas/auth.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { readRefreshToken, writeTokens } from '#web/lib/storage.ts';

export interface ChangePasswordVariables {
  current_password: string;
  new_password: string;
}

/**
 * POST /auth/change-password. The server ends every session, this one included, and answers a
 * new pair, stored at once so this browser stays signed in. This browser's refresh token goes
 * along so the new session keeps its remember-me choice.
 */
export async function postChangePassword(body: ChangePasswordVariables): Promise<ChangePasswordResponse> {
  const refreshToken = readRefreshToken();
  const answer = await apiRequest('/auth/change-password', changePasswordResponseSchema, {
    method: 'POST',
    body: refreshToken ? { ...body, refresh_token: refreshToken } : body,
  });
  writeTokens({ accessToken: answer.access_token, refreshToken: answer.refresh_token });
  return answer;
}

export function useChangePassword() {
  return useMutation({ mutationFn: postChangePassword });
}
