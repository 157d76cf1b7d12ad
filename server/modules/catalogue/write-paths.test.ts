import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { repositoryPageSchema } from '#shared/schemas/catalogue.ts';
import { signedInUser } from '../../../test/helpers/auth-factory.ts';
import { expectedDerivedRows, readDerivedRows } from '../../../test/helpers/derived-rows.ts';
import { createReposTestApp, repoPath, syncEverythingNow } from '../../../test/helpers/repos-app.ts';

/**
 * Every write of a repository keeps its derived rows (tags, topics, search document) in step:
 * add, batch add, tag edits, a manual and a scheduled sync (which may rename), and delete.
 * After each, the derived tables must equal what the repositories' own columns give, and the
 * catalogue queries must find the repository by its new values only.
 */
let t: Awaited<ReturnType<typeof createReposTestApp>>;
let member: Awaited<ReturnType<typeof signedInUser>>;

beforeAll(async () => {
  t = await createReposTestApp();
  member = await signedInUser(t.app);
});

afterAll(async () => {
  await t?.close();
});

beforeEach(() => {
  t.github.reset();
});

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: member.headers, payload });

async function search(params: Record<string, string>): Promise<string[]> {
  const response = await call('GET', `/repositories/?${new URLSearchParams({ ...params, limit: '500' })}`);
  expect(response.statusCode, response.body).toBe(200);
  return repositoryPageSchema.parse(response.json()).repositories.map((repository) => repository.id);
}

/** The derived tables hold exactly what the repositories' columns give, nothing stale, nothing missing. */
async function expectDerivedInStep(): Promise<number> {
  const expected = await expectedDerivedRows(t.app.db);
  expect(await readDerivedRows(t.app.db)).toEqual(expected);
  return expected.documents.length;
}

describe('derived rows follow every write', () => {
  it('add, with tags', async () => {
    const added = await call('POST', '/repositories/', { id: 'facebook/react', tags: 'UI, Frontend' });
    expect(added.statusCode).toBe(201);
    expect(await expectDerivedInStep()).toBe(1);
    expect(await search({ tags: 'frontend,ui' })).toEqual(['facebook/react']);
    expect(await search({ q: 'facebook/rea' })).toEqual(['facebook/react']);
    const topic = added.json().repository.topics.split(',')[0];
    expect(topic).toBeTruthy();
    expect(await search({ topics: topic })).toEqual(['facebook/react']);
  });

  it('batch add, with shared tags', async () => {
    const response = await call('POST', '/repositories/batch', {
      items: [{ id: 'vuejs/core' }, { url: 'https://github.com/sveltejs/svelte' }],
      tags: 'framework',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().succeeded).toBe(2);
    await expectDerivedInStep();
    expect((await search({ tags: 'FRAMEWORK', sort: 'name' })).sort()).toEqual([
      'sveltejs/svelte',
      'vuejs/core',
    ]);
  });

  it('tag edits replace the tag rows and the search text', async () => {
    await call('PUT', repoPath('vuejs/core', '/metadata/'), { tags: 'reactive, Favourite' });
    await expectDerivedInStep();
    expect(await search({ tags: 'framework' })).toEqual(['sveltejs/svelte']);
    expect(await search({ tags: 'favourite' })).toEqual(['vuejs/core']);
    expect(await search({ q: 'favour' })).toEqual(['vuejs/core']);
    // Notes are not searched and change no derived row.
    await call('PUT', repoPath('vuejs/core', '/metadata/'), { notes: 'zebra crossing' });
    await expectDerivedInStep();
    expect(await search({ q: 'zebra' })).toEqual([]);
  });

  it('a sync that renames: found by the new name, no longer by the old one', async () => {
    t.github.renameRepository('sveltejs/svelte', 'svelte-org/svelte-renamed');
    const response = await call('PUT', repoPath('sveltejs/svelte'));
    expect(response.statusCode).toBe(200);
    await expectDerivedInStep();
    expect(await search({ q: 'svelte-org/svelte-ren' })).toEqual(['svelte-org/svelte-renamed']);
    expect(await search({ q: 'sveltejs/' })).toEqual([]);
  });

  it('the scheduled sync (new GitHub data for every repository)', async () => {
    t.github.setSnapshot('2026-08-22');
    const outcome = await syncEverythingNow(t.app);
    expect(outcome.synced).toBeGreaterThan(0);
    await expectDerivedInStep();
  });

  it('delete removes its derived rows', async () => {
    const response = await call('DELETE', repoPath('facebook/react'));
    expect(response.statusCode).toBe(200);
    expect(await expectDerivedInStep()).toBe(2);
    expect(await search({ q: 'facebook' })).toEqual([]);
    expect(await search({ tags: 'ui' })).toEqual([]);
  });

  it('the totals the list answers unfiltered follow a change of privacy and a statement of many rows', async () => {
    const total = async () => {
      const response = await call('GET', '/repositories/?limit=1');
      return repositoryPageSchema.parse(response.json()).total;
    };
    /** Only the totals: the raw statements below bypass the service that keeps the other rows. */
    const totalsInStep = async () =>
      expect((await readDerivedRows(t.app.db)).totals).toEqual((await expectedDerivedRows(t.app.db)).totals);
    const before = await total();
    // GitHub made one private (the sync writes the column; the trigger moves it between totals).
    await t.app.db
      .updateTable('repositories')
      .set({ private: 1 })
      .where('full_name', '=', 'vuejs/core')
      .execute();
    await totalsInStep();
    expect(await total()).toBe(before - 1);
    await t.app.db
      .updateTable('repositories')
      .set({ private: 0 })
      .where('full_name', '=', 'vuejs/core')
      .execute();
    expect(await total()).toBe(before);
    // One statement of every row, as a restore's delete is, then the rows back one by one.
    const rows = await t.app.db.selectFrom('repositories').selectAll().execute();
    await t.app.db.deleteFrom('repositories').execute();
    await totalsInStep();
    expect(await total()).toBe(0);
    await t.app.db.insertInto('repositories').values(rows).execute();
    await totalsInStep();
    expect(await total()).toBe(before);
  });
});
