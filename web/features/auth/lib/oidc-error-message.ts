import { useQuery } from '@tanstack/react-query';

/**
 * The sign-in screen's text for an `oidc_error` code (OIDC_ERROR_MESSAGES in
 * shared/schemas/oidc.ts, imported only when there is an error to show: the module brings zod).
 * An unknown code reads as the provider's error. Null while the texts load, or without a code.
 */
export function useOidcErrorMessage(code: string | null): string | null {
  const { data } = useQuery({
    queryKey: ['auth', 'oidc-error', code],
    queryFn: async () => {
      const { OIDC_ERROR_MESSAGES, oidcErrorCodes } = await import('#shared/schemas/oidc.ts');
      const known = oidcErrorCodes.find((candidate) => candidate === code);
      return OIDC_ERROR_MESSAGES[known ?? 'provider_error'];
    },
    enabled: code !== null,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return code === null ? null : (data ?? null);
}
