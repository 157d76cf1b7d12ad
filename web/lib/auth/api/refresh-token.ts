import type { RefreshResponse } from '#shared/schemas/auth.ts';
import { type ApiClient, apiRequest, schemaFromGuard } from '../../api-client.ts';

const refreshResponseSchema = schemaFromGuard((data: unknown): data is RefreshResponse => {
  const body = data as Partial<Record<keyof RefreshResponse, unknown>> | null;
  return typeof body?.access_token === 'string' && typeof body.refresh_token === 'string';
});

/** POST /auth/refresh: both tokens come back rotated, and both must be stored. */
export function postRefresh(
  refreshToken: string,
  client: Pick<ApiClient, 'apiRequest'> = { apiRequest },
): Promise<RefreshResponse> {
  return client.apiRequest('/auth/refresh', refreshResponseSchema, {
    method: 'POST',
    body: { refresh_token: refreshToken },
    skipUnauthorizedHandler: true,
  });
}
