import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser } from '../helpers/auth-factory.ts';
import { createReposTestApp, repoPath } from '../helpers/repos-app.ts';

/**
 * Issue 22, item 2: bulk `add_tags` had no size limit. Repeating it grew one repository's tags
 * to 11,999 characters (2,000 is the documented maximum), after which the owner's own metadata
 * save failed with 'Tags are too long' and every list and `/tags` answer grew. One rule for
 * tags (shared/repository-input.ts `tagsError`) now applies to the tags a change would store,
 * on every path that changes them: metadata, bulk, one add, a batch or import line, a queued
 * line.
 */

let t: Awaited<ReturnType<typeof createReposTestApp>>;
type Member = Awaited<ReturnType<typeof signedInUser>>;
let ada: Member;
const FULL = 'vitejs/vite';
const ROOMY = 'vuejs/core';
const TOO_LONG = 'Tags are too long';

/** One tag of `length` characters, different for each `seed`. */
const longTag = (seed: string, length = 1999) => `${seed}-`.padEnd(length, 'x');

beforeAll(async () => {
  t = await createReposTestApp();
  ada = await signedInUser(t.app);
  for (const id of [FULL, ROOMY]) expect((await call('POST', '/repositories/', { id })).statusCode).toBe(201);
});
afterAll(() => t?.close());

function call(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  return t.app.inject({ method, url, headers: ada.headers, payload });
}

async function tagsOf(id: string): Promise<string> {
  return (await call('GET', repoPath(id))).json().repository.tags;
}

describe('tags are at most 2,000 characters, whichever path changes them', () => {
  it('a bulk add that would pass the limit fails for that repository, with the metadata message; the others go ahead', async () => {
    const first = await call('POST', '/repositories/bulk', {
      items: [FULL],
      action: 'add_tags',
      tags: longTag('first'),
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ succeeded: 1, failed: 0 });
    expect((await tagsOf(FULL)).length).toBe(1999);

    // The attack: the same call again with other tags, five times (11,999 characters before).
    for (const seed of ['second', 'third', 'fourth', 'fifth', 'sixth']) {
      const again = await call('POST', '/repositories/bulk', {
        items: [FULL, ROOMY],
        action: 'add_tags',
        tags: longTag(seed, 1000),
      });
      expect(again.statusCode, again.body).toBe(200);
      const results = again.json().results;
      expect(results[0]).toEqual({ id: FULL, ok: false, status: 'failed', error: TOO_LONG });
      // The other repository had room the first time, and is full after it.
      expect(results[1].ok).toBe(seed === 'second');
    }
    const stored = await tagsOf(FULL);
    expect(stored.length).toBe(1999);
    expect(stored).toBe(longTag('first'));
    expect((await tagsOf(ROOMY)).length).toBeLessThanOrEqual(2000);
    const longest = await t.app.db
      .selectFrom('repositories')
      .select('tags')
      .execute()
      .then((rows) => Math.max(...rows.map((row) => row.tags.length)));
    expect(longest).toBeLessThanOrEqual(2000);

    // The owner's own save of what is stored still works, and /tags stays bounded.
    const saved = await call('PUT', repoPath(FULL, '/metadata/'), { tags: stored, notes: 'still mine' });
    expect(saved.statusCode, saved.body).toBe(200);
    const tags = await call('GET', '/tags');
    expect(tags.statusCode).toBe(200);
    expect(tags.body.length).toBeLessThan(10_000);
  });

  it('adding tags a repository already has (any case) changes nothing and is not refused', async () => {
    const answer = await call('POST', '/repositories/bulk', {
      items: [FULL],
      action: 'add_tags',
      tags: longTag('FIRST'),
    });
    expect(answer.json().results[0]).toEqual({ id: FULL, ok: true, status: 'done' });
  });

  it('tags stored over the limit before the rule can still be shortened in bulk, not grown', async () => {
    const legacy = `${longTag('old-a', 1500)},${longTag('old-b', 1500)}`;
    await t.app.db.updateTable('repositories').set({ tags: legacy }).where('full_name', '=', FULL).execute();
    const grown = await call('POST', '/repositories/bulk', {
      items: [FULL],
      action: 'add_tags',
      tags: 'more',
    });
    expect(grown.json().results[0]).toEqual({ id: FULL, ok: false, status: 'failed', error: TOO_LONG });
    const shortened = await call('POST', '/repositories/bulk', {
      items: [FULL],
      action: 'remove_tags',
      tags: longTag('old-a', 1500),
    });
    expect(shortened.json().results[0]).toEqual({ id: FULL, ok: true, status: 'done' });
    expect(await tagsOf(FULL)).toBe(longTag('old-b', 1500));
  });

  it('the rule is on what would be stored: trimmed, without duplicates', async () => {
    // 2,400 characters sent, 1,199 once trimmed and without duplicates: within the limit.
    const repeated = Array.from({ length: 2 }, () => ` ${longTag('dup', 1199)} `).join(',');
    expect(repeated.length).toBeGreaterThan(2000);
    const saved = await call('PUT', repoPath(ROOMY, '/metadata/'), { tags: repeated });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().repository.tags).toBe(longTag('dup', 1199));
    // 2,001 once normalised: refused on the field, with the same message.
    const over = await call('PUT', repoPath(ROOMY, '/metadata/'), {
      tags: `${longTag('a', 1000)},${longTag('b', 1000)}`,
    });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toMatchObject({ code: 'validation_failed', fields: { tags: TOO_LONG } });
  });

  it('an add, a batch and an import whose tags are too long are refused with the same message', async () => {
    const tags = `${longTag('a', 1000)},${longTag('b', 1001)}`;
    const requests: [string, object][] = [
      ['/repositories/', { id: 'sveltejs/svelte', tags }],
      ['/repositories/batch', { items: [{ id: 'sveltejs/svelte' }], tags }],
      ['/repositories/import', { source: 'owner', login: 'sveltejs', tags }],
    ];
    for (const [url, payload] of requests) {
      const answer = await call('POST', url, payload);
      expect(answer.statusCode, url).toBe(400);
      expect(answer.json(), url).toMatchObject({ code: 'validation_failed', fields: { tags: TOO_LONG } });
    }
    expect(
      await t.app.db
        .selectFrom('repositories')
        .select('id')
        .where('full_name', '=', 'sveltejs/svelte')
        .execute(),
    ).toEqual([]);
  });

  it('a queued line whose tags are too long is refused when its turn comes, not stored', async () => {
    const outcome = await t.app.services.catalogue.addQueuedLine(
      { user_id: ada.id, full_name: 'sveltejs/svelte', tags: `${longTag('a', 1000)},${longTag('b', 1001)}` },
      Date.now() + 5_000,
    );
    expect(outcome).toBe('failed');
    const rows = await t.app.db
      .selectFrom('repositories')
      .select('tags')
      .where('full_name', '=', 'sveltejs/svelte')
      .execute();
    expect(rows).toEqual([]);
  });
});
