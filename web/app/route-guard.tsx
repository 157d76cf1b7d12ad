import { type ComponentType, useEffect } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { AuthRequiredPanel } from '../components/auth-required-panel.tsx';
import { useAuth } from '../lib/auth/auth-context.tsx';
import { writeRedirectAfterLogin } from '../lib/storage.ts';

/**
 * Who may open a screen (SPEC §2, §6):
 * - public: anyone.
 * - guest: anonymous visitors; members are sent to /home (login, register, password reset).
 * - member: members; anonymous visitors are sent to /login and come back afterwards.
 * - member-prompt: members; anonymous visitors see the 'Authentication Required' panel.
 * - landing: `/` — the landing page for anonymous visitors; members go to /home.
 * - fallback: unknown paths — the member's list, or the landing page (DESIGN §6).
 */
export type RouteAccess = 'public' | 'guest' | 'member' | 'member-prompt' | 'landing' | 'fallback';

export interface RouteGuardProps {
  access: RouteAccess;
  screen: ComponentType;
  /** The anonymous visitor's screen for 'fallback'. */
  anonymousScreen?: ComponentType;
  /** The panel's message for 'member-prompt'. */
  prompt?: string;
}

export function RouteGuard({
  access,
  screen: Screen,
  anonymousScreen: AnonymousScreen,
  prompt,
}: RouteGuardProps) {
  const { user } = useAuth();
  const signedIn = user !== null;

  switch (access) {
    case 'public':
      return <Screen />;
    case 'guest':
    case 'landing':
      return signedIn ? <Navigate to="/home" replace /> : <Screen />;
    case 'member':
      return signedIn ? <Screen /> : <RedirectToLogin />;
    case 'member-prompt':
      return signedIn ? <Screen /> : <AuthRequiredPanel message={prompt ?? 'Please sign in to continue.'} />;
    case 'fallback':
      return signedIn || !AnonymousScreen ? <Screen /> : <AnonymousScreen />;
  }
}

/** Remembers where the visitor was going (SPEC §2), then replaces the entry with /login. */
function RedirectToLogin() {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    writeRedirectAfterLogin(`#${location.pathname}${location.search}`);
    navigate('/login', { replace: true });
  }, [location.pathname, location.search, navigate]);
  return null;
}
