import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser } from '../../../test/helpers/auth-factory.ts';
import { createFakeClock } from '../../../test/helpers/fake-clock.ts';
import { createReposTestApp, repoPath } from '../../../test/helpers/repos-app.ts';
import { isDerivedTable } from '../../repository/repository-labels.ts';
import { OUTLIVING_TABLES, REPOSITORY_OWNED_TABLES } from './repository-trash.ts';

/** Deleting is soft for 30 s (docs/product.md#undo-delete). */

const clock = createFakeClock(new Date('2026-11-25T10:00:00Z'));
let t: Awaited<ReturnType<typeof createReposTestApp>>;
type Caller = Awaited<ReturnType<typeof signedInUser>>;
let ada: Caller;
let bob: Caller;
let admin: Caller;

beforeAll(async () => {
  t = await createReposTestApp({}, {}, { clock });
  admin = await signedInUser(t.app, { is_admin: true });
  ada = await signedInUser(t.app);
  bob = await signedInUser(t.app);
});
afterAll(() => t?.close());

const call = (caller: Caller, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: caller.headers, payload });

async function addWithHistory(id: string) {
  expect((await call(ada, 'POST', '/repositories/', { id })).statusCode).toBe(201);
  await call(ada, 'PUT', repoPath(id, '/metadata/'), { tags: 'web,keep', notes: 'a note' });
  await call(ada, 'POST', repoPath(id, '/comments'), { comment: 'worth it', author: 'Ada' });
  await call(ada, 'POST', repoPath(id, '/versions'), { version_number: 'v1.0' });
}

describe('undo a deletion', () => {
  it('brings the repository back with its tags, notes, comments, versions and events, searchable again', async () => {
    await addWithHistory('vitejs/vite');
    const before = (await call(ada, 'GET', repoPath('vitejs/vite'))).json().repository;
    expect((await call(ada, 'DELETE', repoPath('vitejs/vite'))).statusCode).toBe(200);
    expect((await call(ada, 'GET', repoPath('vitejs/vite'))).statusCode).toBe(404);

    clock.advance(20);
    const restored = await call(ada, 'POST', repoPath('vitejs/vite', '/restore'));
    expect(restored.statusCode, restored.body).toBe(200);
    const after = restored.json().repository;
    expect(after).toMatchObject({ id: 'vitejs/vite', tags: 'web,keep', notes: 'a note' });
    expect(after.comments.map((comment: { comment: string }) => comment.comment)).toEqual(['worth it']);
    expect(after.versions.map((version: { version_number: string }) => version.version_number)).toContain(
      'v1.0',
    );
    expect(after.created_at).toBe(before.created_at);
    const events = await t.app.db.selectFrom('repository_events').select('type').execute();
    expect(events.map((event) => event.type)).toContain('repository_added');
    // Derived rows rebuilt: the tag filter and the search find it again.
    const byTag = await call(ada, 'GET', '/repositories/?tags=keep&limit=10');
    expect(byTag.json().repositories.map((row: { id: string }) => row.id)).toEqual(['vitejs/vite']);
    // Counted once with the rows put back (the counts the database keeps on the row).
    expect(byTag.json().repositories[0]).toMatchObject({
      comment_count: 1,
      version_count: after.versions.length,
    });
    const bySearch = await call(ada, 'GET', '/repositories/?q=vite&limit=10');
    expect(bySearch.json().total).toBe(1);
    // Once only.
    expect((await call(ada, 'POST', repoPath('vitejs/vite', '/restore'))).statusCode).toBe(404);
  });

  it('brings back its stored commits, also from a deletion kept before they had their own table', async () => {
    await addWithHistory('remix-run/react-router');
    const before = (await call(ada, 'GET', repoPath('remix-run/react-router'))).json().repository;
    expect(before.recent_commits.length).toBeGreaterThan(0);
    expect((await call(ada, 'DELETE', repoPath('remix-run/react-router'))).statusCode).toBe(200);
    // The kept rows as a deletion made before migration 2026-11-28-0300 wrote them.
    const trash = await t.app.db
      .selectFrom('repository_trash')
      .select(['id', 'rows'])
      .executeTakeFirstOrThrow();
    const kept = JSON.parse(trash.rows);
    expect(kept.repository_commits).toHaveLength(1);
    kept.repository.recent_commits = kept.repository_commits[0].commits;
    delete kept.repository_commits;
    await t.app.db
      .updateTable('repository_trash')
      .set({ rows: JSON.stringify(kept) })
      .where('id', '=', trash.id)
      .execute();

    const restored = await call(ada, 'POST', repoPath('remix-run/react-router', '/restore'));
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json().repository.recent_commits).toEqual(before.recent_commits);
  });

  it('is for the member who deleted it or an admin, and only for 30 s', async () => {
    await addWithHistory('vuejs/core');
    expect((await call(ada, 'DELETE', repoPath('vuejs/core'))).statusCode).toBe(200);
    // Another member's deletion answers as a name never deleted (issue 22, item 4).
    const asBob = await call(bob, 'POST', repoPath('vuejs/core', '/restore'));
    expect(asBob.statusCode).toBe(404);
    expect(asBob.json().message).toBe('Nothing to restore: the deletion can no longer be undone.');
    expect((await call(admin, 'POST', repoPath('vuejs/core', '/restore'))).statusCode).toBe(200);

    expect((await call(ada, 'DELETE', repoPath('vuejs/core'))).statusCode).toBe(200);
    clock.advance(31);
    const late = await call(ada, 'POST', repoPath('vuejs/core', '/restore'));
    expect(late.statusCode).toBe(404);
    expect(late.json().message).toBe('Nothing to restore: the deletion can no longer be undone.');
    // Expired deletions are purged: nothing of it is kept.
    await call(ada, 'DELETE', repoPath('nobody/nothing'));
    expect(await t.app.db.selectFrom('repository_trash').selectAll().execute()).toEqual([]);
  });

  it('refuses when the name is in the catalogue again', async () => {
    await addWithHistory('sveltejs/svelte');
    expect((await call(ada, 'DELETE', repoPath('sveltejs/svelte'))).statusCode).toBe(200);
    expect((await call(bob, 'POST', '/repositories/', { id: 'sveltejs/svelte' })).statusCode).toBe(201);
    const answer = await call(ada, 'POST', repoPath('sveltejs/svelte', '/restore'));
    expect(answer.statusCode).toBe(409);
  });

  it('keeps every table that belongs to a repository (a new one must join the list)', async () => {
    const tables = await t.app.db.introspection.getTables();
    const owned = tables
      .filter((table) => table.columns.some((column) => column.name === 'repository_id'))
      .map((table) => table.name)
      .filter(
        (name) => !isDerivedTable(name) && name !== 'repository_trash' && !OUTLIVING_TABLES.includes(name),
      );
    expect([...owned].sort()).toEqual([...REPOSITORY_OWNED_TABLES].sort());
  });
});
