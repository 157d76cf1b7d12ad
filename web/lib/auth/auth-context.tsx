import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { STORAGE_KEYS } from '#shared/constants.ts';
import { setUnauthorizedHandler } from '../api-client.ts';
import { describeApiError } from '../api-errors.ts';
import {
  clearSession,
  readAccessToken,
  readJson,
  readRefreshToken,
  writeJson,
  writeRememberMe,
  writeTokens,
} from '../storage.ts';
import { getMe } from './api/get-me.ts';
import { postLogin } from './api/login.ts';
import { postLogout } from './api/logout.ts';
import { postRefresh } from './api/refresh-token.ts';
import { leaveApp } from './leave-app.ts';
import { createTokenRefresher } from './token-refresh.ts';
import { isSameUser, isUser, type User } from './user.ts';

export const INIT_FAILED_MESSAGE = 'Failed to initialize authentication';

export type AuthStatus = 'initializing' | 'ready';

/**
 * Why the last session ended, until the visitor has arrived where that sends them
 * (route-guard.tsx): 'signed-out' goes to `/` (logout, also a sign-out in another
 * tab), 'expired' goes to `/login` (a failed refresh).
 */
export type SessionEnd = 'signed-out' | 'expired' | null;

export const SESSION_EXPIRED_MESSAGE = 'Your session has expired. Please sign in again.';
const SESSION_EXPIRED_ID = 'session-expired';

export interface AuthState {
  status: AuthStatus;
  /** null when nobody is signed in (or before `status` is 'ready'). */
  user: User | null;
  sessionEnd: SessionEnd;
}

export interface Credentials {
  email_or_username: string;
  password: string;
}

/** A sign-in's answer: the password sign-in's, or single sign-on's exchange or link. */
export interface SessionAnswer {
  access_token: string;
  refresh_token: string;
  user: User;
}

export interface AuthContextValue extends AuthState {
  /**
   * POST /auth/login, then stores both tokens, the user and the remember-me flag. Rejects with
   * the ApiError for the form to show. The login screen's guard then sends the member to the
   * stored redirect-after-login hash, else to /home.
   */
  login: (credentials: Credentials, remember: boolean) => Promise<User>;
  /**
   * Keeps a session another sign-in made (single sign-on's exchange or link) as `login` keeps
   * its own; `remember` is null when the server alone knows it.
   */
  acceptSession: (answer: SessionAnswer, remember: boolean | null) => User;
  /**
   * Revokes the session on the server (best effort), clears storage; the guards go to `/`. When
   * the server answers the provider's `end_session_url` (single sign-on), the browser goes there.
   */
  logout: () => Promise<void>;
  /** After a profile edit or a token/webhook change: merged into the user, kept and stored. */
  updateUser: (changes: Partial<User>) => void;
  /** Called by the route guard once the visitor stands where the session end sent them. */
  acknowledgeSessionEnd: () => void;
}

const AuthContext = createContext<AuthContextValue | null>(null);

interface RestoredSession {
  user: User | null;
  /** The check could not be made (network, server error): the stored session is kept. */
  failed: boolean;
}

/**
 * Stored tokens are checked with GET /auth/me (an expired access token is refreshed
 * on the way, by the 401 handler). A refused session is cleared. When the server can't be
 * reached the stored user stays signed in and the failure is reported: clearing it would sign
 * everybody out whenever the server restarts.
 */
async function restoreSession(): Promise<RestoredSession> {
  if (!readAccessToken() && !readRefreshToken()) {
    clearSession();
    return { user: null, failed: false };
  }
  try {
    const user = await getMe();
    writeJson(localStorage, STORAGE_KEYS.user, user);
    return { user, failed: false };
  } catch (error) {
    const { kind, transient } = describeApiError(error);
    if (transient) {
      const stored = readJson(localStorage, STORAGE_KEYS.user);
      if (isUser(stored)) return { user: stored, failed: true };
    }
    clearSession();
    return { user: null, failed: kind === 'unexpected' || transient };
  }
}

/** The user another tab left in storage: null when it signed out (or storage is incomplete). */
function readStoredUser(): User | null {
  const stored = readJson(localStorage, STORAGE_KEYS.user);
  return readAccessToken() && isUser(stored) ? stored : null;
}

export interface AuthProviderProps {
  children: ReactNode;
  /**
   * Called once when the tab starts with stored tokens, as their check begins and after the
   * 401 handler is installed, so requests made then share its refresh (main.tsx prefetches the
   * list there).
   */
  onStoredSession?: () => void;
}

export function AuthProvider({ children, onStoredSession }: AuthProviderProps) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<AuthState>({ status: 'initializing', user: null, sessionEnd: null });
  const stateRef = useRef(state);
  useEffect(() => {
    stateRef.current = state;
  }, [state]);

  /** Nothing cached for one member may be shown to the next (the version query is everyone's). */
  const forgetUserData = useCallback(() => {
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'version' });
  }, [queryClient]);

  const expireSession = useCallback(() => {
    clearSession();
    forgetUserData();
    // While the app starts nobody is shown as signed in yet: no redirect, just anonymous.
    if (!stateRef.current.user) return;
    setState((current) => (current.user ? { ...current, user: null, sessionEnd: 'expired' } : current));
    // Said once, on the sign-in screen the member lands on, so the move there isn't a mystery.
    notifications.show({ id: SESSION_EXPIRED_ID, color: 'yellow', message: SESSION_EXPIRED_MESSAGE });
  }, [forgetUserData]);

  // Installed before the session check below runs, so that check may refresh an expired token.
  useEffect(() => {
    const refresher = createTokenRefresher({
      requestRefresh: (refreshToken) => postRefresh(refreshToken),
      onSessionExpired: expireSession,
    });
    setUnauthorizedHandler(refresher.handleUnauthorized);
    return () => setUnauthorizedHandler(null);
  }, [expireSession]);

  const onStoredSessionRef = useRef(onStoredSession);
  useEffect(() => {
    let cancelled = false;
    const stored = readAccessToken() !== null || readRefreshToken() !== null;
    const restoring = restoreSession();
    // After GET /auth/me has gone out, so both leave at once.
    if (stored) onStoredSessionRef.current?.();
    restoring.then(({ user, failed }) => {
      if (cancelled) return;
      setState({ status: 'ready', user, sessionEnd: null });
      if (failed) notifications.show({ color: 'red', message: INIT_FAILED_MESSAGE });
    });
    return () => {
      cancelled = true;
    };
  }, []);

  // Other tabs: a sign-in, a sign-out, a failed refresh or a profile edit there shows here too.
  // (Rotated tokens need nothing: every request reads the stored token.)
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key !== null && event.key !== STORAGE_KEYS.user && event.key !== STORAGE_KEYS.accessToken) {
        return;
      }
      const current = stateRef.current;
      if (current.status !== 'ready') return;
      const stored = readStoredUser();
      if (stored === null) {
        if (current.user) {
          forgetUserData();
          setState({ ...current, user: null, sessionEnd: 'signed-out' });
        }
        return;
      }
      if (current.user && isSameUser(current.user, stored)) return;
      if (current.user?.id !== stored.id) forgetUserData();
      setState({ ...current, user: stored, sessionEnd: null });
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [forgetUserData]);

  const acceptSession = useCallback(
    (answer: SessionAnswer, remember: boolean | null) => {
      writeTokens({ accessToken: answer.access_token, refreshToken: answer.refresh_token });
      writeJson(localStorage, STORAGE_KEYS.user, answer.user);
      writeRememberMe(remember);
      forgetUserData();
      setState({ status: 'ready', user: answer.user, sessionEnd: null });
      return answer.user;
    },
    [forgetUserData],
  );

  const login = useCallback(
    async (credentials: Credentials, remember: boolean) => {
      const answer = await postLogin({ ...credentials, remember_me: remember });
      return acceptSession(answer, remember);
    },
    [acceptSession],
  );

  const logout = useCallback(async () => {
    const refreshToken = readRefreshToken();
    clearSession();
    forgetUserData();
    setState((current) => ({ ...current, user: null, sessionEnd: 'signed-out' }));
    if (!refreshToken) return;
    const answer = await postLogout(refreshToken).catch(() => null);
    // The provider's own session ends on its page; ours is already gone.
    if (answer?.end_session_url) leaveApp.assign(answer.end_session_url);
  }, [forgetUserData]);

  const updateUser = useCallback((changes: Partial<User>) => {
    setState((current) => {
      if (!current.user) return current;
      const user = { ...current.user, ...changes };
      writeJson(localStorage, STORAGE_KEYS.user, user);
      return { ...current, user };
    });
  }, []);

  const acknowledgeSessionEnd = useCallback(() => {
    setState((current) => (current.sessionEnd === null ? current : { ...current, sessionEnd: null }));
  }, []);

  const value = useMemo<AuthContextValue>(
    () => ({ ...state, login, acceptSession, logout, updateUser, acknowledgeSessionEnd }),
    [state, login, acceptSession, logout, updateUser, acknowledgeSessionEnd],
  );
  return <AuthContext value={value}>{children}</AuthContext>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}

/** For screens behind the 'member' guard, where a user is always present. */
export function useSignedInUser(): User {
  const { user } = useAuth();
  if (!user) throw new Error('useSignedInUser is only for signed-in screens');
  return user;
}
