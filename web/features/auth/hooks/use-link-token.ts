import { useEffect, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';

/**
 * The `token` of an e-mail link: from the query part of the hash (`#/reset-password?token=`,
 * how the server builds links) or from the page's own query string (`/?token=…#/verify-email`).
 * Read once, then removed from the address bar (docs/security.md#b3, #c5), so it doesn't linger in
 * history, bookmarks or a screenshot. null when the link has none.
 */
export function useLinkToken(): string | null {
  const [searchParams] = useSearchParams();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [token] = useState(() => {
    const fromHash = searchParams.get('token')?.trim();
    if (fromHash) return fromHash;
    return new URLSearchParams(window.location.search).get('token')?.trim() || null;
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: strips the token once, on arrival
  useEffect(() => {
    const page = new URL(window.location.href);
    if (page.searchParams.has('token')) {
      page.searchParams.delete('token');
      window.history.replaceState(window.history.state, '', `${page.pathname}${page.search}${page.hash}`);
    }
    if (searchParams.has('token')) {
      const rest = new URLSearchParams(searchParams);
      rest.delete('token');
      const search = rest.toString();
      navigate({ pathname, search: search ? `?${search}` : '' }, { replace: true });
    }
  }, []);

  return token;
}
