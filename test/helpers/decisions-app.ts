import { expect } from 'vitest';
import { PRIVATE_REPOSITORY } from '../github-double/index.ts';
import { signedInUser } from './auth-factory.ts';
import { createReposTestApp } from './repos-app.ts';

type Member = Awaited<ReturnType<typeof signedInUser>>;

/**
 * The decisions tests' instance with DECISIONS_BY=admins: two members (ada, who reads private
 * repositories with her GitHub token, and bob) and an admin; react, vue and the double's private
 * repository in the catalogue, added by ada.
 */
export async function createDecisionsTestApp(ownerToken: string) {
  const t = await createReposTestApp({ SYNC_SCHEDULE: 'off', DECISIONS_BY: 'admins' });
  const ada = await signedInUser(t.app);
  const bob = await signedInUser(t.app);
  const admin = await signedInUser(t.app, { is_admin: true });
  const call = (who: Member, method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: who.headers, payload });
  t.github.grantPrivateAccess(ownerToken);
  expect((await call(ada, 'PUT', '/auth/me/github-token', { token: ownerToken })).statusCode).toBe(200);
  for (const id of ['facebook/react', 'vuejs/core', PRIVATE_REPOSITORY])
    expect((await call(ada, 'POST', '/repositories/', { id })).statusCode).toBe(201);
  return { t, ada, bob, admin, call };
}

export type DecisionsTestApp = Awaited<ReturnType<typeof createDecisionsTestApp>>;
export type { Member };
