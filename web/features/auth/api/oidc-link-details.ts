import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OidcLinkDetails } from '#shared/schemas/oidc.ts';
import { apiRequest } from '#web/lib/api-client.ts';

/** POST /auth/oidc/link/details: which account "Link your account" links (its e-mail). */
export async function postOidcLinkDetails(code: string): Promise<OidcLinkDetails> {
  const { oidcLinkDetailsBodySchema, oidcLinkDetailsSchema } = await import('#shared/schemas/oidc.ts');
  return apiRequest('/auth/oidc/link/details', oidcLinkDetailsSchema, {
    method: 'POST',
    body: oidcLinkDetailsBodySchema.parse({ code }),
  });
}

export const oidcLinkDetailsQuery = (code: string) =>
  queryOptions({
    queryKey: ['auth', 'oidc-link', code],
    queryFn: () => postOidcLinkDetails(code),
    // A spent or expired code stays so: no retry, no refetch.
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });

export function useOidcLinkDetails(code: string) {
  return useQuery(oidcLinkDetailsQuery(code));
}
