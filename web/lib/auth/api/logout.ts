import type { LogoutResponse } from '#shared/schemas/auth.ts';
import { apiRequest, schemaFromGuard } from '../../api-client.ts';

// A hand-written twin of `logoutResponseSchema` (shared/schemas/auth.ts): this call is in the
// first-load bundle, which does without zod (docs/decisions.md, "The first screens").
const logoutResponseSchema = schemaFromGuard((data: unknown): data is LogoutResponse => {
  const body = data as { message?: unknown; end_session_url?: unknown } | null;
  return (
    typeof body?.message === 'string' &&
    (body.end_session_url === undefined || typeof body.end_session_url === 'string')
  );
});

/**
 * POST /auth/logout: revokes this session's refresh-token family on the server. A session from
 * single sign-on may answer the provider's `end_session_url` too.
 */
export function postLogout(refreshToken: string): Promise<LogoutResponse> {
  return apiRequest('/auth/logout', logoutResponseSchema, {
    method: 'POST',
    body: { refresh_token: refreshToken },
    // Sign-out must not hang on a slow server; the local session is gone either way.
    timeoutMs: 5_000,
  });
}
