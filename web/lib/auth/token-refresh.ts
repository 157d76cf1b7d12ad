import { ApiError, type UnauthorizedHandler } from '../api-client.ts';
import { isTransientError } from '../api-errors.ts';
import { readAccessToken, readRefreshToken, writeTokens } from '../storage.ts';

/** The Web Locks name every tab of the app takes before it renews the tokens (docs/security.md#c3). */
export const REFRESH_LOCK_NAME = 'auth-refresh';
/** Prefix of the marker lock a tab holds for a while after rotating a refresh token. */
export const ROTATED_LOCK_PREFIX = 'auth-rotated:';
/** How long the rotation marker stays up: far longer than storage takes to reach other tabs. */
const ROTATED_MARKER_MS = 60_000;
/** How long a tab waits for another tab's rotated tokens to show up in its own storage. */
const PROPAGATION_WAIT_MS = 5_000;
const PROPAGATION_POLL_MS = 25;

export const SYNC_TIMEOUT_MESSAGE =
  'Your session was renewed in another tab, but this tab could not pick it up.';

/**
 * What tabs share to refresh once between them. Storage alone is not enough: Chromium hands a
 * localStorage write to other tabs asynchronously, so a tab that takes the lock right after
 * another tab's refresh may still read the old tokens, and sending the old refresh token again
 * would look like reuse to the server, which then revokes the whole session. The lock manager
 * is consistent across tabs, so the rotation is also announced through it.
 */
export interface RefreshCoordination {
  /** Runs `task` while holding the one cross-tab refresh lock. */
  exclusive: <T>(task: () => Promise<T>) => Promise<T>;
  /** Announces that `refreshToken` has been rotated; resolves once every tab can see it. */
  markRotated: (refreshToken: string) => Promise<void>;
  /** Whether some tab has rotated `refreshToken` (recently). */
  wasRotated: (refreshToken: string) => Promise<boolean>;
}

/** The tokens as this tab sees them (lib/storage.ts; tests stand in a lagging view). */
export interface TokenStore {
  readAccessToken: () => string | null;
  readRefreshToken: () => string | null;
  writeTokens: (tokens: { accessToken: string; refreshToken: string }) => void;
}

export interface TokenRefresherOptions {
  /** POST /auth/refresh: both tokens come back rotated. */
  requestRefresh: (refreshToken: string) => Promise<{ access_token: string; refresh_token: string }>;
  /** The session can't be renewed (no refresh token, or the server refused it). */
  onSessionExpired: () => void;
  /** Defaults to the Web Locks API when the browser has it, else single-flight within this tab. */
  coordination?: RefreshCoordination;
  store?: TokenStore;
}

export interface TokenRefresher {
  /** Install with `setUnauthorizedHandler`. */
  handleUnauthorized: UnauthorizedHandler;
  /** Makes sure the stored access token is newer than `staleToken`, refreshing at most once. */
  renew: (staleToken: string | null) => Promise<void>;
}

const localStore: TokenStore = { readAccessToken, readRefreshToken, writeTokens };

/** Short, one-way name for a refresh token: the marker must not expose the token itself. */
async function fingerprint(token: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token));
  return Array.from(new Uint8Array(digest).slice(0, 16), (byte) => byte.toString(16).padStart(2, '0')).join(
    '',
  );
}

/** Web Locks: the refresh lock, and a marker lock named after the rotated token's fingerprint. */
export function webLocksCoordination(locks: LockManager): RefreshCoordination {
  return {
    exclusive: (task) => locks.request(REFRESH_LOCK_NAME, () => task()),
    markRotated: async (refreshToken) => {
      const name = ROTATED_LOCK_PREFIX + (await fingerprint(refreshToken));
      await new Promise<void>((granted) => {
        void locks.request(name, () => {
          granted();
          return new Promise((release) => setTimeout(release, ROTATED_MARKER_MS));
        });
      });
    },
    wasRotated: async (refreshToken) => {
      const name = ROTATED_LOCK_PREFIX + (await fingerprint(refreshToken));
      const { held = [] } = await locks.query();
      return held.some((lock) => lock.name === name);
    },
  };
}

/** Without Web Locks (old browsers): refreshes are single-flight within the tab only. */
const tabOnlyCoordination: RefreshCoordination = {
  exclusive: (task) => task(),
  markRotated: async () => {},
  wasRotated: async () => false,
};

function browserCoordination(): RefreshCoordination {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  const digest = typeof crypto === 'undefined' ? undefined : crypto.subtle;
  return locks && digest ? webLocksCoordination(locks) : tabOnlyCoordination;
}

class SessionExpiredError extends Error {
  constructor() {
    super('No refresh token is stored');
    this.name = 'SessionExpiredError';
  }
}

/**
 * The single-flight refresh, across requests and across tabs:
 * - within a tab, every 401 that arrives while a refresh runs waits for that same refresh;
 * - across tabs, the refresh runs under a Web Lock, and inside it the stored tokens are read
 *   again: when another tab has already rotated them (the access token is no longer the one
 *   that failed, or the refresh token is marked as rotated and its successor is on its way to
 *   this tab's storage), that token is used and no second refresh is sent.
 * Each failed request is retried once with the new token.
 */
export function createTokenRefresher(options: TokenRefresherOptions): TokenRefresher {
  const coordination = options.coordination ?? browserCoordination();
  const store = options.store ?? localStore;
  let inflight: Promise<void> | null = null;

  /** Waits until this tab's storage shows the tokens that replaced `rotated`. */
  async function awaitPropagation(rotated: string): Promise<void> {
    const deadline = Date.now() + PROPAGATION_WAIT_MS;
    while (Date.now() < deadline) {
      const refreshToken = store.readRefreshToken();
      if (refreshToken !== rotated) {
        if (refreshToken === null) break;
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, PROPAGATION_POLL_MS));
    }
    // The other tab signed out meanwhile, or its tokens never arrived: don't guess.
    if (store.readRefreshToken() === null) {
      options.onSessionExpired();
      throw new SessionExpiredError();
    }
    throw new ApiError(SYNC_TIMEOUT_MESSAGE, 0);
  }

  async function renewHoldingLock(staleToken: string | null): Promise<void> {
    const current = store.readAccessToken();
    if (current !== null && current !== staleToken) return;

    const refreshToken = store.readRefreshToken();
    if (!refreshToken) {
      options.onSessionExpired();
      throw new SessionExpiredError();
    }
    if (await coordination.wasRotated(refreshToken)) {
      await awaitPropagation(refreshToken);
      return;
    }
    try {
      const pair = await options.requestRefresh(refreshToken);
      // Announced before the lock is released, so the next holder knows even if its storage lags.
      await coordination.markRotated(refreshToken).catch(() => undefined);
      store.writeTokens({ accessToken: pair.access_token, refreshToken: pair.refresh_token });
    } catch (error) {
      // A time-out, a network failure or a 5xx says nothing about the session: keep it and report.
      if (!isTransientError(error)) options.onSessionExpired();
      throw error;
    }
  }

  function renew(staleToken: string | null): Promise<void> {
    if (!inflight) {
      inflight = coordination
        .exclusive(() => renewHoldingLock(staleToken))
        .finally(() => {
          inflight = null;
        });
    }
    return inflight;
  }

  const handleUnauthorized: UnauthorizedHandler = async (retry, failed, sentToken) => {
    try {
      await renew(sentToken);
    } catch (error) {
      // The caller sees why: a network failure as such, anything else as its original 401.
      throw isTransientError(error) ? error : failed;
    }
    return retry();
  };

  return { handleUnauthorized, renew };
}
