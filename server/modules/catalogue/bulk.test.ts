import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkResponseSchema } from '#shared/schemas/bulk.ts';
import { signedInUser } from '../../../test/helpers/auth-factory.ts';
import { createReposTestApp, repoPath } from '../../../test/helpers/repos-app.ts';
import { syncDueJob } from '../sync/sync.service.ts';

let t: Awaited<ReturnType<typeof createReposTestApp>>;
type Caller = Awaited<ReturnType<typeof signedInUser>>;
let ada: Caller;
let bob: Caller;
let admin: Caller;
const ADAS = ['vitejs/vite', 'vuejs/core'];
const BOBS = 'sveltejs/svelte';

beforeAll(async () => {
  t = await createReposTestApp();
  admin = await signedInUser(t.app, { is_admin: true });
  ada = await signedInUser(t.app);
  bob = await signedInUser(t.app);
  for (const id of ADAS) {
    const added = await t.app.inject({
      method: 'POST',
      url: '/repositories/',
      headers: ada.headers,
      payload: { id },
    });
    expect(added.statusCode, added.body).toBe(201);
  }
  const added = await t.app.inject({
    method: 'POST',
    url: '/repositories/',
    headers: bob.headers,
    payload: { id: BOBS },
  });
  expect(added.statusCode, added.body).toBe(201);
});
afterAll(() => t?.close());

async function bulk(caller: Caller, payload: object) {
  const answer = await t.app.inject({
    method: 'POST',
    url: '/repositories/bulk',
    headers: caller.headers,
    payload,
  });
  expect(answer.statusCode, answer.body).toBe(200);
  return bulkResponseSchema.parse(answer.json());
}

async function tagsOf(id: string): Promise<string> {
  const answer = await t.app.inject({ method: 'GET', url: repoPath(id), headers: ada.headers });
  return answer.json().repository.tags;
}

describe('bulk actions on a selection', () => {
  it('adds tags without duplicates (any case) and removes them, per repository', async () => {
    const added = await bulk(bob, { items: [...ADAS, BOBS], action: 'add_tags', tags: 'Web, frontend' });
    expect(added).toMatchObject({ succeeded: 3, failed: 0 });
    await bulk(bob, { items: ADAS, action: 'add_tags', tags: 'web,js' });
    expect(await tagsOf('vitejs/vite')).toBe('Web,frontend,js');
    const removed = await bulk(ada, { items: ADAS, action: 'remove_tags', tags: 'WEB' });
    expect(removed.succeeded).toBe(2);
    expect(await tagsOf('vuejs/core')).toBe('frontend,js');
    expect(await tagsOf(BOBS)).toBe('Web,frontend');
  });

  it('deletes what the caller may delete and reports each other repository with the reason', async () => {
    const answer = await bulk(ada, { items: [ADAS[0], BOBS, 'nobody/nothing'], action: 'delete' });
    expect(answer).toMatchObject({ succeeded: 1, failed: 2 });
    expect(answer.results).toEqual([
      { id: 'vitejs/vite', ok: true, status: 'done' },
      {
        id: BOBS,
        ok: false,
        status: 'failed',
        error: 'Only the member who added this repository or an administrator can delete it.',
      },
      { id: 'nobody/nothing', ok: false, status: 'failed', error: 'Repository not found in database' },
    ]);
    // An admin may delete anyone's.
    expect((await bulk(admin, { items: [BOBS], action: 'delete' })).succeeded).toBe(1);
  });

  it('queues updates for the sync engine: due now, one engine run', async () => {
    const before = await t.app.db
      .selectFrom('jobs')
      .select('id')
      .where('kind', '=', syncDueJob.name)
      .execute();
    const answer = await bulk(bob, { items: ['vuejs/core'], action: 'sync' });
    expect(answer.results).toEqual([{ id: 'vuejs/core', ok: true, status: 'queued' }]);
    const state = await t.app.db
      .selectFrom('repository_sync_state')
      .innerJoin('repositories', 'repositories.id', 'repository_sync_state.repository_id')
      .select('due_at')
      .where('full_name', '=', 'vuejs/core')
      .executeTakeFirstOrThrow();
    expect(new Date(state.due_at).getTime()).toBeLessThanOrEqual(Date.now());
    const after = await t.app.db
      .selectFrom('jobs')
      .select('id')
      .where('kind', '=', syncDueJob.name)
      .execute();
    expect(after.length).toBeGreaterThan(before.length);
  });

  it('refuses an empty selection, an unknown action and tag actions without tags', async () => {
    for (const [payload, field] of [
      [{ items: [], action: 'delete' }, 'items'],
      [{ items: ['a/b'], action: 'archive' }, 'action'],
      [{ items: ['a/b'], action: 'add_tags', tags: ' , ' }, 'tags'],
    ] as const) {
      const answer = await t.app.inject({
        method: 'POST',
        url: '/repositories/bulk',
        headers: ada.headers,
        payload,
      });
      expect(answer.statusCode).toBe(400);
      expect(Object.keys(answer.json().fields)).toContain(field);
    }
  });

  it('exports the selection the caller can see as CSV, in the order given', async () => {
    await t.app.inject({
      method: 'POST',
      url: '/repositories/',
      headers: ada.headers,
      payload: { id: 'vitejs/vite' },
    });
    const answer = await t.app.inject({
      method: 'POST',
      url: '/repositories/export',
      headers: ada.headers,
      payload: { items: ['vuejs/core', 'nobody/nothing', 'vitejs/vite'] },
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toContain('text/csv');
    const rows = parse(answer.body, { columns: true }) as Record<string, string>[];
    expect(rows.map((row) => Object.values(row).find((value) => value.includes('/')))).toEqual([
      'vuejs/core',
      'vitejs/vite',
    ]);
  });
});
