import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { STORAGE_KEYS } from '../../../shared/constants.ts';
import { clearSession, readAccessToken, readJson } from '../storage.ts';
import { isStoredUser, type User } from './user.ts';

export type AuthStatus = 'initializing' | 'ready';

export interface AuthState {
  status: AuthStatus;
  /** null when nobody is signed in (or before `status` is 'ready'). */
  user: User | null;
}

export interface AuthContextValue extends AuthState {
  /** Clears the stored session (SPEC §4). The caller navigates to `/` afterwards. */
  logout: () => Promise<void>;
}

const AuthContext = createContext<AuthContextValue | null>(null);

/**
 * Reads the stored session. This is the single place that will verify it with GET /auth/me
 * (and clear storage when that fails) and that will hold login, logout and the token refresh
 * handler for the API client; until then a stored user with a token counts as signed in.
 */
async function restoreSession(): Promise<User | null> {
  const stored = readJson(localStorage, STORAGE_KEYS.user);
  if (!readAccessToken() || !isStoredUser(stored)) {
    clearSession();
    return null;
  }
  return stored;
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<AuthState>({ status: 'initializing', user: null });

  useEffect(() => {
    let cancelled = false;
    restoreSession()
      .catch(() => null)
      .then((user) => {
        if (!cancelled) setState({ status: 'ready', user });
      });
    return () => {
      cancelled = true;
    };
  }, []);

  const logout = useCallback(async () => {
    // The auth issue adds POST /auth/logout here (revokes the refresh-token family).
    clearSession();
    setState({ status: 'ready', user: null });
  }, []);

  const value = useMemo<AuthContextValue>(() => ({ ...state, logout }), [state, logout]);
  return <AuthContext value={value}>{children}</AuthContext>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}
