import { STORAGE_KEYS } from '#shared/constants.ts';

/**
 * The one place that touches Web Storage. Every read tolerates missing, corrupt or blocked
 * storage (private mode, quota, user edits) and falls back to "nothing stored".
 */

function read(storage: Storage, key: string): string | null {
  try {
    return storage.getItem(key);
  } catch {
    return null;
  }
}

function write(storage: Storage, key: string, value: string | null): void {
  try {
    if (value === null) storage.removeItem(key);
    else storage.setItem(key, value);
  } catch {
    // Storage full or blocked: the app keeps working with in-memory state only.
  }
}

/** Parses stored JSON; a corrupt value reads as absent instead of crashing the app. */
export function readJson(storage: Storage, key: string): unknown {
  const raw = read(storage, key);
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return null;
  }
}

export function writeJson(storage: Storage, key: string, value: unknown): void {
  write(storage, key, JSON.stringify(value));
}

export function readAccessToken(): string | null {
  return read(localStorage, STORAGE_KEYS.accessToken);
}

export function readRefreshToken(): string | null {
  return read(localStorage, STORAGE_KEYS.refreshToken);
}

export function writeTokens(tokens: { accessToken: string | null; refreshToken: string | null }): void {
  write(localStorage, STORAGE_KEYS.accessToken, tokens.accessToken);
  write(localStorage, STORAGE_KEYS.refreshToken, tokens.refreshToken);
}

export function writeRememberMe(value: boolean | null): void {
  write(localStorage, STORAGE_KEYS.rememberMe, value === null ? null : String(value));
}

/** Clears everything a session leaves behind (logout and a failed check clear storage). */
export function clearSession(): void {
  for (const key of [
    STORAGE_KEYS.accessToken,
    STORAGE_KEYS.refreshToken,
    STORAGE_KEYS.user,
    STORAGE_KEYS.rememberMe,
  ]) {
    write(localStorage, key, null);
  }
}

/** The hash a visitor asked for before being sent to sign in. */
export function writeRedirectAfterLogin(hash: string): void {
  write(sessionStorage, STORAGE_KEYS.redirectAfterLogin, hash);
}

/** The stored hash, left in place (single sign-on sends it to the provider as `return_to`). */
export function peekRedirectAfterLogin(): string | null {
  return read(sessionStorage, STORAGE_KEYS.redirectAfterLogin);
}

/** Returns and forgets the stored hash, so a later sign-in doesn't reuse it. */
export function takeRedirectAfterLogin(): string | null {
  const hash = read(sessionStorage, STORAGE_KEYS.redirectAfterLogin);
  write(sessionStorage, STORAGE_KEYS.redirectAfterLogin, null);
  return hash;
}
