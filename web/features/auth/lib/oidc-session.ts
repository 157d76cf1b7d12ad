import type { OidcSignInResponse } from '#shared/schemas/oidc.ts';
import type { AuthContextValue } from '#web/lib/auth/auth-context.tsx';
import { writeRedirectAfterLogin } from '#web/lib/storage.ts';

/** Where single sign-on starts: the provider, by a full-page navigation (GET /auth/oidc/start). */
export function oidcStartUrl(apiBase: string, returnTo: string | null, rememberMe: boolean): string {
  const query = new URLSearchParams();
  if (returnTo !== null) query.set('return_to', returnTo);
  query.set('remember_me', String(rememberMe));
  return `${apiBase}/auth/oidc/start?${query}`;
}

/**
 * The in-app path of a stored redirect-after-login hash ('#/settings?tab=x' → '/settings?tab=x'),
 * when it is one the server takes as `return_to` (returnToSchema); else null.
 */
export function returnToFromHash(hash: string | null): string | null {
  if (!hash?.startsWith('#/')) return null;
  const path = hash.slice(1);
  if (path.length > 500 || path.startsWith('//') || path.startsWith('/\\')) return null;
  return /^\/[A-Za-z0-9/_.~%?=&+,:@!$'()*;-]*$/.test(path) ? path : null;
}

/**
 * Keeps the session of an exchange or a link as the password sign-in keeps its own; the sign-in
 * screen's guard then goes to `return_to` (else the stored redirect, else /home).
 */
export function keepOidcSession(
  answer: OidcSignInResponse,
  acceptSession: AuthContextValue['acceptSession'],
): void {
  if (answer.return_to && returnToFromHash(`#${answer.return_to}`) !== null) {
    writeRedirectAfterLogin(`#${answer.return_to}`);
  }
  acceptSession(answer, null);
}
