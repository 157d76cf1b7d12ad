import { useMutation } from '@tanstack/react-query';
import type { OidcLinkBody, OidcSignInResponse } from '#shared/schemas/oidc.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { useAuth } from '#web/lib/auth/auth-context.tsx';
import { keepOidcSession } from '../lib/oidc-session.ts';

/** POST /auth/oidc/link: the account's password links the provider's identity and signs in. */
export async function postOidcLink(body: OidcLinkBody): Promise<OidcSignInResponse> {
  const { oidcLinkBodySchema, oidcSignInResponseSchema } = await import('#shared/schemas/oidc.ts');
  return apiRequest('/auth/oidc/link', oidcSignInResponseSchema, {
    method: 'POST',
    body: oidcLinkBodySchema.parse(body),
  });
}

export function useOidcLink() {
  const { acceptSession } = useAuth();
  return useMutation({
    mutationFn: postOidcLink,
    onSuccess: (answer) => keepOidcSession(answer, acceptSession),
  });
}
