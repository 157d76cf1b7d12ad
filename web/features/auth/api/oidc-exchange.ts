import { useMutation } from '@tanstack/react-query';
import type { OidcExchangeBody, OidcSignInResponse } from '#shared/schemas/oidc.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { useAuth } from '#web/lib/auth/auth-context.tsx';
import { keepOidcSession } from '../lib/oidc-session.ts';

/** POST /auth/oidc/exchange: the callback's one-time code becomes the ordinary session. */
export async function postOidcExchange(body: OidcExchangeBody): Promise<OidcSignInResponse> {
  const { oidcExchangeBodySchema, oidcSignInResponseSchema } = await import('#shared/schemas/oidc.ts');
  return apiRequest('/auth/oidc/exchange', oidcSignInResponseSchema, {
    method: 'POST',
    body: oidcExchangeBodySchema.parse(body),
  });
}

/** Exchanges the code, then keeps the session as the password sign-in does. */
export function useOidcExchange() {
  const { acceptSession } = useAuth();
  return useMutation({
    mutationFn: postOidcExchange,
    onSuccess: (answer) => keepOidcSession(answer, acceptSession),
  });
}
