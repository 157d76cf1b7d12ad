import { readAccessToken, readRefreshToken } from '#web/lib/storage.ts';

/**
 * The chunks a signed-in visitor needs, each behind one loader that `lazy()` and the preloads
 * share (docs/architecture.md#web-app). The signed-out first screens load none of them.
 */
export const loadMemberStyles = () => import('./shell/member-styles.ts');
export const loadMemberNavbar = () => import('./shell/member-navbar.tsx');
export const loadRepositoryList = () => import('#web/features/repositories/routes/repository-list.tsx');

/** A member screen's chunk, resolved once the signed-in screens' Mantine styles are in too. */
export function memberScreen<T>(load: () => Promise<T>): () => Promise<T> {
  return () => Promise.all([loadMemberStyles(), load()]).then(([, module]) => module);
}

/** Whether this tab starts with a stored session (the server still decides whether it is valid). */
export function hasStoredSession(): boolean {
  return readAccessToken() !== null || readRefreshToken() !== null;
}

/**
 * Fetches the signed-in shell and the list screen while the session is being checked, instead
 * of after. Failures are left to the `lazy()` that asks again (and to its error boundary).
 */
export function preloadSignedIn(): void {
  for (const load of [loadMemberStyles, loadMemberNavbar, loadRepositoryList]) load().catch(() => undefined);
}
