import type { LoginBody, LoginResponse } from '#shared/schemas/auth.ts';
import { apiRequest, schemaFromGuard } from '../../api-client.ts';
import { isUser } from '../user.ts';

const loginResponseSchema = schemaFromGuard((data: unknown): data is LoginResponse => {
  const body = data as Partial<Record<keyof LoginResponse, unknown>> | null;
  return (
    typeof body?.access_token === 'string' &&
    typeof body.refresh_token === 'string' &&
    typeof body.message === 'string' &&
    isUser(body.user)
  );
});

/** POST /auth/login. A 401 here is "wrong credentials": it never triggers a token refresh. */
export function postLogin(body: LoginBody): Promise<LoginResponse> {
  return apiRequest('/auth/login', loginResponseSchema, { method: 'POST', body });
}
