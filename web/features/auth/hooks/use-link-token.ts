import { useEffect, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';

/**
 * The `token` of an e-mail link: from the query part of the hash (`#/reset-password?token=`,
 * how the server builds links) or from the page's own query string (`/?token=…#/verify-email`).
 * Read on arrival, then removed from the address bar (docs/security.md#b3, #c5), so it doesn't
 * linger in history, bookmarks or a screenshot. A newer link opened in the same tab (only the
 * hash changes, so the screen stays mounted) replaces the token, and the screen checks it anew.
 * null when the link has none.
 */
export function useLinkToken(): string | null {
  const [searchParams] = useSearchParams();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const arriving = searchParams.get('token')?.trim() || null;
  const [token, setToken] = useState(
    () => arriving ?? (new URLSearchParams(window.location.search).get('token')?.trim() || null),
  );
  // Derived from the address during render (React's "storing information from previous renders").
  if (arriving !== null && arriving !== token) setToken(arriving);

  // biome-ignore lint/correctness/useExhaustiveDependencies: strips each token once, as it arrives
  useEffect(() => {
    const page = new URL(window.location.href);
    if (page.searchParams.has('token')) {
      page.searchParams.delete('token');
      window.history.replaceState(window.history.state, '', `${page.pathname}${page.search}${page.hash}`);
    }
    if (arriving !== null) {
      const rest = new URLSearchParams(searchParams);
      rest.delete('token');
      const search = rest.toString();
      navigate({ pathname, search: search ? `?${search}` : '' }, { replace: true });
    }
  }, [arriving]);

  return token;
}
