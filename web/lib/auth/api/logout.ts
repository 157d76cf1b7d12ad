import type { MessageResponse } from '#shared/schemas/auth.ts';
import { apiRequest, schemaFromGuard } from '../../api-client.ts';

const messageResponseSchema = schemaFromGuard(
  (data: unknown): data is MessageResponse =>
    typeof (data as { message?: unknown } | null)?.message === 'string',
);

/** POST /auth/logout: revokes this session's refresh-token family on the server. */
export function postLogout(refreshToken: string): Promise<MessageResponse> {
  return apiRequest('/auth/logout', messageResponseSchema, {
    method: 'POST',
    body: { refresh_token: refreshToken },
    // Sign-out must not hang on a slow server; the local session is gone either way.
    timeoutMs: 5_000,
  });
}
