import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRepository } from '../../server/repository/repository.queries.ts';
import { listDoubleRepositories } from '../github-double/index.ts';
import { signedInUser } from '../helpers/auth-factory.ts';
import { createFakeClock } from '../helpers/fake-clock.ts';
import { createReposTestApp, repoPath } from '../helpers/repos-app.ts';
import { buildRepositoryRow } from '../helpers/repository-row.ts';

/**
 * Issue 22, item 4: restore was an oracle. After a member deleted a repository, another
 * member's `POST /repositories/{id}/restore` answered 403 'Only the member who deleted this
 * repository…' where a name that never existed answered 404 'Nothing to restore', and restore
 * had no rate limit. A deletion the caller can't undo (another member's, private or public) now
 * answers exactly as a missing name, from the same single query; restores that undo nothing are
 * limited per member. The private case, compared call for call with a missing name, is in
 * oracle.test.ts.
 */

const clock = createFakeClock(new Date('2026-11-25T10:00:00Z'));
let t: Awaited<ReturnType<typeof createReposTestApp>>;
type Member = Awaited<ReturnType<typeof signedInUser>>;
let ada: Member;
let bob: Member;
let admin: Member;
const NOTHING = { message: 'Nothing to restore: the deletion can no longer be undone.', code: 'not_found' };
const names = listDoubleRepositories().slice(0, 45);

beforeAll(async () => {
  t = await createReposTestApp({}, {}, { clock });
  ada = await signedInUser(t.app);
  bob = await signedInUser(t.app);
  admin = await signedInUser(t.app, { is_admin: true });
  for (const repository of names)
    await insertRepository(
      t.app.db,
      buildRepositoryRow(repository.fullName, repository.id, { user_id: ada.id }),
      new Date('2100-01-01T00:00:00Z'),
    );
});
afterAll(() => t?.close());

const call = (who: Member, method: 'POST' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: who.headers, payload });
const restore = (who: Member, fullName: string) => call(who, 'POST', repoPath(fullName, '/restore'), {});
const nameAt = (index: number) => names[index]?.fullName ?? '';

describe('restoring a deletion the caller cannot undo answers as a missing name', () => {
  it('another member’s deletion of a public repository: the same 404 as a name that never existed', async () => {
    expect((await call(ada, 'DELETE', repoPath(nameAt(0)))).statusCode).toBe(200);
    const ofDeleted = await restore(bob, nameAt(0).toUpperCase());
    const ofMissing = await restore(bob, 'never-existed/nothing-here');
    expect({ status: ofDeleted.statusCode, body: ofDeleted.json() }).toEqual({ status: 404, body: NOTHING });
    expect({ status: ofMissing.statusCode, body: ofMissing.json() }).toEqual({ status: 404, body: NOTHING });
    // Still the deleter's to undo, and an admin's.
    expect((await restore(ada, nameAt(0))).statusCode).toBe(200);
    expect((await call(ada, 'DELETE', repoPath(nameAt(0)))).statusCode).toBe(200);
    expect((await restore(admin, nameAt(0))).statusCode).toBe(200);
  });
});

describe('restore is rate limited per member: 30 restores that undo nothing in 15 minutes', () => {
  it('an undo of a whole bulk deletion is never limited: restores that bring something back are given back', async () => {
    const selection = names.slice(1, 41).map((repository) => repository.fullName);
    const deleted = await t.app.inject({
      method: 'POST',
      url: '/repositories/bulk',
      headers: ada.headers,
      payload: { items: selection, action: 'delete' },
    });
    expect(deleted.json()).toMatchObject({ succeeded: 40, failed: 0 });
    clock.advance(5);
    for (const fullName of selection) expect((await restore(ada, fullName)).statusCode).toBe(200);
  });

  it('the 31st miss answers 429 with retry_after, hidden and missing names alike; other members are not affected', async () => {
    const prober = await signedInUser(t.app);
    for (let attempt = 0; attempt < 30; attempt++)
      expect((await restore(prober, `nobody/probe-${attempt}`)).statusCode).toBe(404);
    // A real deletion of another member's is refused as a miss too, before it is looked up.
    expect((await call(ada, 'DELETE', repoPath(nameAt(42)))).statusCode).toBe(200);
    for (const fullName of [nameAt(42), 'nobody/probe-last']) {
      const refused = await restore(prober, fullName);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ code: 'rate_limited' });
      expect(refused.json().retry_after).toBeGreaterThan(0);
      expect(refused.json().retry_after).toBeLessThanOrEqual(15 * 60);
      expect(refused.headers['retry-after']).toBe(String(refused.json().retry_after));
    }
    // Ada's own undo still works.
    expect((await restore(ada, nameAt(42))).statusCode).toBe(200);
  });
});
