import { type ComponentType, useEffect, useRef } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { AuthRequiredPanel } from '#web/components/auth-required-panel.tsx';
import { useAuth } from '#web/lib/auth/auth-context.tsx';
import { useScreenTitle } from '#web/lib/hooks/use-screen-title.ts';
import { takeRedirectAfterLogin, writeRedirectAfterLogin } from '#web/lib/storage.ts';

/**
 * Who may open a screen (docs/product.md#route-guards-and-redirects):
 * - public: anyone.
 * - guest: anonymous visitors; members are sent on to the redirect-after-login hash, else /home
 *   (login, register, password reset). This is also how a sign-in leaves the login screen.
 * - member: members; anonymous visitors are sent to /login and come back afterwards.
 * - member-prompt: members; anonymous visitors see the 'Authentication Required' panel.
 * - landing: `/` — the landing page for anonymous visitors; members go to /home.
 * - fallback: unknown paths — the member's list, or the landing page.
 */
export type RouteAccess = 'public' | 'guest' | 'member' | 'member-prompt' | 'landing' | 'fallback';

export interface RouteGuardProps {
  access: RouteAccess;
  screen: ComponentType;
  /** The anonymous visitor's screen for 'fallback'. */
  anonymousScreen?: ComponentType;
  /** The panel's message for 'member-prompt'. */
  prompt?: string;
  /** The screen's name in the browser tab ('Tags · Repository Tracker'). */
  title: string;
}

/** Where a sign-in must not return to. */
const GUEST_PATHS = ['/login', '/register', '/forgot-password', '/reset-password'];

export function RouteGuard({
  access,
  screen: Screen,
  anonymousScreen: AnonymousScreen,
  prompt,
  title,
}: RouteGuardProps) {
  const { user, sessionEnd, acknowledgeSessionEnd } = useAuth();
  useScreenTitle(title, { precise: false });
  const location = useLocation();
  const signedIn = user !== null;

  // Sign-out goes to `/`, a failed refresh to /login. The reason is kept until the
  // visitor is there, so no other guard (say, a member screen's "remember and go to login")
  // acts on the signed-out state first.
  const exitPath = signedIn
    ? null
    : sessionEnd === 'signed-out'
      ? '/'
      : sessionEnd === 'expired'
        ? '/login'
        : null;
  const arrived = exitPath !== null && location.pathname === exitPath;
  useEffect(() => {
    if (arrived) acknowledgeSessionEnd();
  }, [arrived, acknowledgeSessionEnd]);

  if (exitPath !== null && !arrived) {
    return <LeaveEndedSession to={exitPath} remember={sessionEnd === 'expired' && access !== 'public'} />;
  }

  switch (access) {
    case 'public':
      return <Screen />;
    case 'guest':
      return signedIn ? <LeaveGuestScreen /> : <Screen />;
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

function currentHash(location: { pathname: string; search: string }): string {
  return `#${location.pathname}${location.search}`;
}

/** Remembers where the visitor was going, then replaces the entry with /login. */
function RedirectToLogin() {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    writeRedirectAfterLogin(currentHash(location));
    navigate('/login', { replace: true });
  }, [location, navigate]);
  return null;
}

function LeaveEndedSession({ to, remember }: { to: string; remember: boolean }) {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    if (remember) writeRedirectAfterLogin(currentHash(location));
    navigate(to, { replace: true });
  }, [location, navigate, to, remember]);
  return null;
}

/** The stored hash when it is a screen of this app worth returning to, else /home. */
function pathAfterLogin(): string {
  const hash = takeRedirectAfterLogin();
  if (!hash?.startsWith('#/')) return '/home';
  const path = hash.slice(1);
  const pathname = path.split('?')[0] ?? path;
  return GUEST_PATHS.includes(pathname) ? '/home' : path;
}

/** A member on a guest screen: just signed in, or opened it by hand. */
function LeaveGuestScreen() {
  const navigate = useNavigate();
  // The stored hash is taken once; React's development double effects must not lose it.
  const target = useRef<string | null>(null);
  useEffect(() => {
    target.current ??= pathAfterLogin();
    navigate(target.current, { replace: true });
  }, [navigate]);
  return null;
}
