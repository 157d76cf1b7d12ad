import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayLicense } from '#shared/format.ts';
import {
  CATALOGUE_SORTS,
  type CatalogueListQuery,
  catalogueCountsResponseSchema,
  catalogueListQuerySchema,
  catalogueStatsResponseSchema,
  repositoryPageSchema,
  tagsResponseSchema,
} from '#shared/schemas/catalogue.ts';
import { type RepositorySummary, repositoryListResponseSchema } from '#shared/schemas/repositories.ts';
import {
  computeStats,
  distinctValues,
  filterRepositories,
  licenseDistribution,
  type StatsFilters,
  starDistribution,
  topTopics,
} from '#shared/stats.ts';
import { countDistinctTags, countTags, tagSuggestions } from '#shared/tag-colors.ts';
import { signedInUser } from '../../../test/helpers/auth-factory.ts';
import {
  buildCatalogue,
  CATALOGUE_NOW,
  type ReferenceViewer,
  referenceQuery,
  referenceVisible,
  seedCatalogue,
} from '../../../test/helpers/catalogue-fixtures.ts';
import { createFakeClock } from '../../../test/helpers/fake-clock.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import type { RepositoryRow } from '../../db/schema.ts';
import { deleteRepository, grantAccess, insertRepository } from '../../repository/repository.queries.ts';

/**
 * GET /repositories/ with query parameters, and the aggregates (docs/product.md#catalogue-queries),
 * over a varied catalogue (ties, NULLs, case and accent variants, private repositories) checked
 * against a plain-JavaScript reference and against the shared statistics helpers the web used to
 * run over the whole list. Runs on SQLite, and on PostgreSQL under TEST_DB=postgres.
 */
let t: TestApp;
type Caller = Awaited<ReturnType<typeof signedInUser>>;
let alice: Caller;
let bob: Caller;
let admin: Caller;
let seeded: Awaited<ReturnType<typeof seedCatalogue>>;

beforeAll(async () => {
  t = await createTestApp({}, { clock: createFakeClock(CATALOGUE_NOW) });
  admin = await signedInUser(t.app, { is_admin: true });
  alice = await signedInUser(t.app);
  bob = await signedInUser(t.app);
  seeded = await seedCatalogue(t.app.db, buildCatalogue({ alice: alice.id, bob: bob.id }));
});

afterAll(async () => {
  await t?.close();
});

const viewerOf = (caller: Caller): ReferenceViewer => ({ id: caller.id, is_admin: caller === admin });

function get(caller: Caller | null, path: string, params: Record<string, string> = {}) {
  const query = new URLSearchParams(params).toString();
  return t.app.inject({
    method: 'GET',
    url: query ? `${path}?${query}` : path,
    headers: caller?.headers ?? {},
  });
}

/** Every page of a query, following next_cursor; checks the pages fit together. */
async function walk(caller: Caller, params: Record<string, string>, limit: number, path = '/repositories/') {
  const ids: string[] = [];
  let cursor: string | null = null;
  let total: number | null = null;
  for (let pages = 0; pages < 1000; pages += 1) {
    const response = await get(caller, path, {
      ...params,
      limit: String(limit),
      ...(cursor ? { cursor } : {}),
    });
    expect(response.statusCode, response.body).toBe(200);
    const page = repositoryPageSchema.parse(response.json());
    expect(page.repositories.length).toBeLessThanOrEqual(limit);
    total ??= page.total;
    expect(page.total).toBe(total);
    ids.push(...page.repositories.map((repository) => repository.id));
    cursor = page.next_cursor;
    if (!cursor) break;
    // A page that says more follow is full.
    expect(page.repositories).toHaveLength(limit);
  }
  expect(new Set(ids).size, 'no repository on two pages').toBe(ids.length);
  expect(ids).toHaveLength(total ?? 0);
  return ids;
}

const expected = (caller: Caller, params: Record<string, string>) =>
  referenceQuery(seeded.rows, seeded.access, viewerOf(caller), catalogueListQuerySchema.parse(params)).map(
    (row) => row.full_name,
  );

describe('GET /repositories/ without parameters', () => {
  it('answers the whole visible catalogue as before: { repositories } only, by id', async () => {
    const response = await get(bob, '/repositories/');
    expect(response.statusCode).toBe(200);
    expect(Object.keys(response.json())).toEqual(['repositories']);
    const { repositories } = repositoryListResponseSchema.parse(response.json());
    const visible = referenceVisible(seeded.rows, seeded.access, viewerOf(bob));
    expect(repositories.map((repository) => repository.id)).toEqual(visible.map((row) => row.full_name));
  });

  it('ignores parameters it does not know (a cache-buster stays a whole-catalogue call)', async () => {
    const response = await get(bob, '/repositories/', { _: '12345' });
    expect(Object.keys(response.json())).toEqual(['repositories']);
  });
});

describe('GET /repositories/ with parameters: one page', () => {
  it('any parameter answers { repositories, total, next_cursor }, 50 rows by default', async () => {
    const response = await get(alice, '/repositories/', { sort: 'stars' });
    expect(response.statusCode).toBe(200);
    const page = repositoryPageSchema.parse(response.json());
    expect(Object.keys(response.json()).sort()).toEqual(['next_cursor', 'repositories', 'total']);
    const all = expected(alice, { sort: 'stars' });
    expect(page.total).toBe(all.length);
    expect(page.repositories.map((repository) => repository.id)).toEqual(all.slice(0, 50));
    expect(page.next_cursor).toEqual(expect.any(String));
  });

  it('an empty search is still a page, of everything visible', async () => {
    const page = repositoryPageSchema.parse((await get(bob, '/repositories/', { q: '  ' })).json());
    expect(page.total).toBe(referenceVisible(seeded.rows, seeded.access, viewerOf(bob)).length);
  });

  it('the last page has next_cursor null', async () => {
    const page = repositoryPageSchema.parse((await get(bob, '/repositories/', { limit: '500' })).json());
    expect(page.next_cursor).toBeNull();
    expect(page.repositories).toHaveLength(page.total);
  });
});

describe('filters', () => {
  const cases: [string, Record<string, string>][] = [
    ['q of three or more characters (trigram index)', { q: 'parser' }],
    ['q is case-insensitive', { q: 'PARSER' }],
    ['q in the full id', { q: 'octo-org/' }],
    ['q in the description', { q: 'ouvertes' }],
    ['q in a tag', { q: 'to-rea' }],
    ['q in the licence', { q: 'apache-2' }],
    ['q with accents and emoji', { q: 'ÉCLAIR' }],
    ['q of one character (scan)', { q: 'x' }],
    ['q of two characters (scan)', { q: '9-' }],
    ['q with LIKE and FTS5 syntax characters', { q: '100% pure_text [with]' }],
    ['q with quotes and backslashes', { q: '\\ "quotes"' }],
    ['q on the second line of a description', { q: 'line two' }],
    ['q not in topics or notes', { q: 'secret-note' }],
    ['q that matches nothing', { q: 'no-such-text-anywhere' }],
    ['one tag', { tags: 'frontend' }],
    ['tags are case-insensitive and all must be present', { tags: 'FRONTEND, ui' }],
    ['a tag with an accent', { tags: 'ünïcode' }],
    ['a tag nobody has', { tags: 'nope' }],
    ['topics, all present', { topics: 'cli,tooling' }],
    ['licence, exact and case-insensitive', { license: 'mit' }],
    ['licence No License matches none', { license: 'No License' }],
    ['licence is exact, not a substring', { license: 'MI' }],
    ['language, case-insensitive', { language: 'TYPESCRIPT' }],
    ['minimum stars', { min_stars: '1000' }],
    ['maximum stars', { max_stars: '99' }],
    ['a star range', { min_stars: '5', max_stars: '5' }],
    ['archived', { archived: 'true' }],
    ['not archived', { archived: 'false' }],
    ['gone', { gone: 'true' }],
    ['added by me', { added_by: 'me' }],
    ['combined', { q: 'a', tags: 'frontend', min_stars: '1', archived: 'false', sort: 'name' }],
    ['combined with topics and licence', { topics: 'react', license: 'MIT', language: 'typescript' }],
  ];
  it.each(cases)('%s', async (_, params) => {
    for (const caller of [alice, bob, admin]) {
      expect(await walk(caller, params, 500), `${caller.username} ${JSON.stringify(params)}`).toEqual(
        expected(caller, params),
      );
    }
  });

  it('the data exercise every filter (no case above is vacuous)', () => {
    for (const [name, params] of cases.filter(
      ([name]) => !/nothing|nobody|not in|not a substring/.test(name),
    )) {
      expect(expected(alice, params).length, name).toBeGreaterThan(0);
    }
    expect(expected(admin, { q: 'secret-note' })).toEqual([]);
  });
});

describe('sort and paging', () => {
  const orders = CATALOGUE_SORTS.flatMap((sort) => [
    { sort, order: 'asc' },
    { sort, order: 'desc' },
  ]);
  it.each(orders)(
    '$sort $order: ties by id, NULLs last, pages of 7 fit together',
    async ({ sort, order }) => {
      const params = { sort, order };
      expect(await walk(alice, params, 7)).toEqual(expected(alice, params));
    },
  );

  it('no sort is last_commit newest first; a sort alone takes its column’s direction', async () => {
    const first = (params: Record<string, string>) => walk(bob, params, 500).then((ids) => ids.slice(0, 10));
    expect(await first({ limit: '500' })).toEqual(
      expected(bob, { sort: 'last_commit', order: 'desc' }).slice(0, 10),
    );
    expect(await first({ sort: 'name' })).toEqual(expected(bob, { sort: 'name', order: 'asc' }).slice(0, 10));
    expect(await first({ sort: 'stars' })).toEqual(
      expected(bob, { sort: 'stars', order: 'desc' }).slice(0, 10),
    );
    expect(await first({ sort: 'last_commit' })).toEqual(
      expected(bob, { sort: 'last_commit', order: 'asc' }).slice(0, 10),
    );
  });

  it('the data have ties and NULLs for the sorts that need them', () => {
    const keys = (pick: (row: RepositoryRow) => unknown) => seeded.rows.map(pick);
    const hasTie = (values: unknown[]) => new Set(values.map(String)).size < values.length;
    expect(hasTie(keys((row) => row.stars))).toBe(true);
    expect(hasTie(keys((row) => row.name.toLowerCase()))).toBe(true);
    expect(keys((row) => row.last_commit)).toContain(null);
    expect(keys((row) => row.last_synced)).toContain(null);
    expect(keys((row) => row.description)).toContain(null);
    expect(keys((row) => row.license)).toContain('');
  });

  it('a cursor stays valid across inserts and deletes: no repeats, nothing skipped', async () => {
    const { id: _id, ...template } = seeded.rows[0] as RepositoryRow;
    const extra = (name: string, githubId: number, stars: number) =>
      insertRepository(
        t.app.db,
        {
          ...template,
          full_name: `paging/${name}`,
          github_id: githubId,
          stars,
          private: 0,
        },
        new Date(Date.now() + 86_400_000),
      );
    const doomed = await extra('doomed', 9_100_001, 50);
    const params = { sort: 'stars', order: 'desc', limit: '10' };
    const first = repositoryPageSchema.parse((await get(admin, '/repositories/', params)).json());
    expect(first.next_cursor).not.toBeNull();
    const lastSeen = first.repositories.at(-1)?.id;
    // One repository sorting before the cursor, one after it; one not yet seen is deleted.
    const before = await extra('before-cursor', 9_100_002, 999_999);
    const after = await extra('after-cursor', 9_100_003, 1);
    await deleteRepository(t.app.db, doomed.id);
    try {
      const rest: string[] = [];
      let cursor = first.next_cursor;
      while (cursor) {
        const response = await get(admin, '/repositories/', { ...params, cursor });
        expect(response.statusCode, response.body).toBe(200);
        const page = repositoryPageSchema.parse(response.json());
        rest.push(...page.repositories.map((repository) => repository.id));
        cursor = page.next_cursor;
      }
      const now = referenceQuery([...seeded.rows, before, after], seeded.access, viewerOf(admin), {
        sort: 'stars',
        order: 'desc',
      }).map((row) => row.full_name);
      expect(rest).toEqual(now.slice(now.indexOf(lastSeen as string) + 1));
      expect(rest).toContain(after.full_name);
      expect(rest).not.toContain(before.full_name);
      expect(rest).not.toContain(doomed.full_name);
      expect(rest.filter((id) => first.repositories.some((seen) => seen.id === id))).toEqual([]);
    } finally {
      await deleteRepository(t.app.db, before.id);
      await deleteRepository(t.app.db, after.id);
    }
  });
});

describe('malformed parameters: 400 with fields', () => {
  const cases: [Record<string, string>, string, string][] = [
    [{ min_stars: '-1' }, 'min_stars', 'Minimum stars must be 0 or greater.'],
    [{ max_stars: '-5' }, 'max_stars', 'Maximum stars must be 0 or greater.'],
    [{ min_stars: 'many' }, 'min_stars', 'Minimum stars must be a whole number.'],
    [{ min_stars: '1.5' }, 'min_stars', 'Minimum stars must be a whole number.'],
    [{ min_stars: '99999999999' }, 'min_stars', 'Minimum stars is too large.'],
    [{ min_stars: '10', max_stars: '5' }, 'min_stars', 'Minimum stars cannot be greater than maximum.'],
    [{ sort: 'popularity' }, 'sort', 'Unknown sort column'],
    [{ order: 'up' }, 'order', 'order must be asc or desc'],
    [{ limit: '0' }, 'limit', 'limit must be a whole number from 1 to 500'],
    [{ limit: '501' }, 'limit', 'limit must be a whole number from 1 to 500'],
    [{ limit: 'ten' }, 'limit', 'limit must be a whole number from 1 to 500'],
    [{ archived: 'maybe' }, 'archived', 'archived must be true or false'],
    [{ gone: 'yes' }, 'gone', 'gone must be true or false'],
    [{ added_by: 'someone' }, 'added_by', "added_by takes only 'me'"],
    [{ q: 'tab\there' }, 'q', 'Search may not contain control characters'],
    [{ q: 'x'.repeat(201) }, 'q', 'Search is at most 200 characters'],
    [{ cursor: 'not-a-cursor' }, 'cursor', 'Invalid cursor'],
    [{ cursor: Buffer.from('{"h":1}').toString('base64url') }, 'cursor', 'Invalid cursor'],
  ];
  it.each(cases)('%o → %s', async (params, field, message) => {
    for (const path of ['/repositories/', '/auth/admin/repositories']) {
      const response = await get(admin, path, params);
      expect(response.statusCode, `${path} ${response.body}`).toBe(400);
      const body = response.json();
      expect(body.code).toBe('validation_failed');
      expect(body.fields[field]).toContain(message);
    }
  });

  it('the same filter errors on the export, statistics and tags', async () => {
    for (const path of ['/repositories/export', '/repositories/stats', '/tags']) {
      const response = await get(alice, path, { min_stars: '10', max_stars: '2' });
      expect(response.statusCode, path).toBe(400);
      expect(response.json().fields.min_stars).toBe('Minimum stars cannot be greater than maximum.');
    }
  });

  it('a cursor from another search, filter or sort is refused', async () => {
    const page = repositoryPageSchema.parse(
      (await get(alice, '/repositories/', { sort: 'stars', tags: 'frontend', limit: '2' })).json(),
    );
    const cursor = page.next_cursor as string;
    expect(cursor).toBeTruthy();
    expect(
      (await get(alice, '/repositories/', { sort: 'stars', tags: 'frontend', limit: '5', cursor }))
        .statusCode,
    ).toBe(200);
    const others: Record<string, string>[] = [
      { sort: 'forks', tags: 'frontend' },
      { sort: 'stars', order: 'asc', tags: 'frontend' },
      { sort: 'stars', tags: 'frontend,ui' },
      { sort: 'stars', tags: 'frontend', q: 'a' },
      { sort: 'stars' },
    ];
    for (const other of others) {
      const response = await get(alice, '/repositories/', { ...other, cursor });
      expect(response.statusCode, JSON.stringify(other)).toBe(400);
      expect(response.json().fields.cursor).toMatch(/another search, filter or sort/);
    }
    // The same filters written differently are the same query.
    expect(
      (await get(alice, '/repositories/', { sort: 'stars', tags: ' FRONTEND ', cursor })).statusCode,
    ).toBe(200);
  });
});

/** The stats filters of the statistics screen, as shared/stats.ts applies them. */
function statsFilters(params: Record<string, string>): StatsFilters {
  const split = (value: string | undefined) =>
    value ? value.split(',').filter((entry) => entry.trim()) : [];
  return {
    tags: split(params.tags),
    topics: split(params.topics),
    license: params.license ?? '',
    minStars: params.min_stars === undefined ? null : Number(params.min_stars),
    maxStars: params.max_stars === undefined ? null : Number(params.max_stars),
  };
}

const lowered = (entries: { name: string; count: number }[]) =>
  entries.map((entry) => ({ name: entry.name.toLowerCase(), count: entry.count }));

/** The rows the web's whole-list call gave this caller, as the shared helpers read them. */
async function wholeList(caller: Caller): Promise<RepositorySummary[]> {
  return repositoryListResponseSchema.parse((await get(caller, '/repositories/')).json()).repositories;
}

describe('GET /repositories/stats', () => {
  const cases: Record<string, string>[] = [
    {},
    { tags: 'frontend' },
    { topics: 'cli,tooling' },
    { license: 'No License' },
    { license: 'mit', min_stars: '100' },
    { min_stars: '5', max_stars: '999' },
    { tags: 'nope' },
  ];
  it.each(cases)('%o: the numbers the statistics screen computed from the whole list', async (params) => {
    for (const caller of [alice, bob, admin]) {
      const response = await get(caller, '/repositories/stats', params);
      expect(response.statusCode, response.body).toBe(200);
      const stats = catalogueStatsResponseSchema.parse(response.json());
      const rows = await wholeList(caller);
      const filtered = filterRepositories(rows, statsFilters(params));
      const reference = computeStats(filtered, CATALOGUE_NOW);
      expect(stats.catalogue_total).toBe(rows.length);
      expect({ ...stats.cards, most_common_license: null }).toEqual({
        total_repositories: reference.totalRepositories,
        total_stars: reference.totalStars,
        average_stars: reference.averageStars,
        total_forks: reference.totalForks,
        total_issues: reference.totalIssues,
        total_commits: reference.totalCommits,
        total_contributors: reference.totalContributors,
        recently_updated: reference.recentlyUpdated,
        with_license: reference.withLicense,
        license_coverage: reference.licenseCoverage,
        most_common_license: null,
      });
      expect(stats.cards.most_common_license && lowered([stats.cards.most_common_license])).toEqual(
        reference.mostCommonLicense && lowered([reference.mostCommonLicense]),
      );
      expect(lowered(stats.licenses)).toEqual(lowered(licenseDistribution(filtered)));
      expect(stats.top_topics).toEqual(topTopics(filtered, 10));
      expect(stats.star_buckets).toEqual(
        starDistribution(filtered).map(({ range, count }) => ({ label: range, count })),
      );
      const options = distinctValues(rows);
      const lower = (values: string[]) => values.map((value) => value.toLowerCase());
      expect(lower(stats.options.tags)).toEqual(lower(options.tags));
      expect(lower(stats.options.topics)).toEqual(lower(options.topics));
      expect(lower(stats.options.licenses)).toEqual(lower(options.licenses));
    }
  });

  it('the filtered cases are not vacuous, and recently updated counts the 30-day edge', async () => {
    const rows = await wholeList(admin);
    for (const params of cases.slice(1, -1)) {
      const filtered = filterRepositories(rows, statsFilters(params));
      expect(filtered.length, JSON.stringify(params)).toBeGreaterThan(0);
      expect(filtered.length, JSON.stringify(params)).toBeLessThan(rows.length);
    }
    expect(rows.some((row) => row.last_commit === '2026-10-24T12:00:00Z')).toBe(true);
    expect(rows.some((row) => row.last_commit === '2026-10-24T11:59:59Z')).toBe(true);
    expect(computeStats(rows, CATALOGUE_NOW).recentlyUpdated).toBeGreaterThan(0);
  });

  it('takes the list’s other filters too', async () => {
    const stats = catalogueStatsResponseSchema.parse(
      (await get(alice, '/repositories/stats', { q: 'parser', archived: 'false' })).json(),
    );
    expect(stats.cards.total_repositories).toBe(expected(alice, { q: 'parser', archived: 'false' }).length);
  });
});

describe('GET /tags and GET /repositories/counts', () => {
  it('every visible tag with its count by name, and the caller’s 8 most used', async () => {
    for (const caller of [alice, bob, admin]) {
      const response = await get(caller, '/tags');
      expect(response.statusCode).toBe(200);
      const body = tagsResponseSchema.parse(response.json());
      const rows = await wholeList(caller);
      expect(lowered(body.tags)).toEqual(lowered(countTags(rows)));
      expect(lowered(body.suggestions)).toEqual(lowered(tagSuggestions(rows, caller.id)));
      if (caller !== admin) expect(body.suggestions.length).toBeGreaterThan(0);
    }
  });

  it('tags take the filters', async () => {
    const body = tagsResponseSchema.parse((await get(bob, '/tags', { license: 'mit' })).json());
    const rows = (await wholeList(bob)).filter((row) => displayLicense(row.license).toLowerCase() === 'mit');
    expect(lowered(body.tags)).toEqual(lowered(countTags(rows)));
  });

  it('the sidebar: visible, own and distinct tags', async () => {
    for (const caller of [alice, bob, admin]) {
      const response = await get(caller, '/repositories/counts');
      expect(response.statusCode).toBe(200);
      const rows = await wholeList(caller);
      expect(catalogueCountsResponseSchema.parse(response.json())).toEqual({
        total: rows.length,
        mine: rows.filter((row) => row.user_id === caller.id).length,
        tags: countDistinctTags(rows),
      });
    }
  });
});

describe('private repositories in every answer', () => {
  const hiddenFromBob = () =>
    seeded.rows.filter((row) => row.private === 1 && !(seeded.access.get(row.id) ?? []).includes(bob.id));

  it('the data have private repositories only some members can see', () => {
    expect(hiddenFromBob().length).toBeGreaterThan(0);
    expect(hiddenFromBob().some((row) => (seeded.access.get(row.id) ?? []).includes(alice.id))).toBe(true);
  });

  it('bob never meets the ones he has no access to; alice meets hers; admins meet all', async () => {
    const hidden = hiddenFromBob();
    const names = hidden.map((row) => row.full_name);
    const aliceSees = hidden.filter((row) => (seeded.access.get(row.id) ?? []).includes(alice.id));
    // Search for each hidden repository by its own full id.
    for (const row of hidden) {
      const forBob = repositoryPageSchema.parse(
        (await get(bob, '/repositories/', { q: row.full_name })).json(),
      );
      expect(forBob.total).toBe(0);
      expect(forBob.repositories).toEqual([]);
      const forAdmin = repositoryPageSchema.parse(
        (await get(admin, '/repositories/', { q: row.full_name })).json(),
      );
      expect(forAdmin.repositories.map((repository) => repository.id)).toContain(row.full_name);
    }
    for (const row of aliceSees) {
      const forAlice = repositoryPageSchema.parse(
        (await get(alice, '/repositories/', { q: row.full_name })).json(),
      );
      expect(forAlice.repositories.map((repository) => repository.id)).toContain(row.full_name);
    }
    const bobAll = await walk(bob, { sort: 'name' }, 500);
    expect(bobAll.filter((id) => names.includes(id))).toEqual([]);
    const csv = (await get(bob, '/repositories/export', { sort: 'name' })).body;
    for (const name of names) expect(csv).not.toContain(name);
    // Aggregates count only what bob sees: his counts equal those over his own list.
    const bobStats = catalogueStatsResponseSchema.parse((await get(bob, '/repositories/stats')).json());
    const adminStats = catalogueStatsResponseSchema.parse((await get(admin, '/repositories/stats')).json());
    expect(adminStats.catalogue_total - bobStats.catalogue_total).toBe(hidden.length);
    const bobCounts = catalogueCountsResponseSchema.parse((await get(bob, '/repositories/counts')).json());
    expect(bobCounts.total).toBe(bobAll.length);
  });

  it('tag names and counts come from visible repositories only', async () => {
    const { id: _id, ...template } = seeded.rows[0] as RepositoryRow;
    const shown = await insertRepository(
      t.app.db,
      {
        ...template,
        full_name: 'labels/shown',
        github_id: 9_200_001,
        private: 0,
        tags: 'shared-label',
      },
      new Date(Date.now() + 86_400_000),
    );
    const hidden = await insertRepository(
      t.app.db,
      {
        ...template,
        full_name: 'labels/hidden',
        github_id: 9_200_002,
        private: 1,
        user_id: alice.id,
        tags: 'SHARED-LABEL,Hidden-Only-Label',
      },
      new Date(Date.now() + 86_400_000),
    );
    await grantAccess(t.app.db, hidden.id, alice.id, CATALOGUE_NOW.toISOString());
    try {
      const forBob = tagsResponseSchema.parse((await get(bob, '/tags')).json());
      expect(forBob.tags.filter((tag) => /label/i.test(tag.name))).toEqual([
        { name: 'shared-label', count: 1 },
      ]);
      const forAlice = tagsResponseSchema.parse((await get(alice, '/tags')).json());
      expect(forAlice.tags.filter((tag) => /label/i.test(tag.name))).toEqual([
        { name: 'Hidden-Only-Label', count: 1 },
        { name: 'SHARED-LABEL', count: 2 },
      ]);
      const bobStats = catalogueStatsResponseSchema.parse((await get(bob, '/repositories/stats')).json());
      expect(bobStats.options.tags.filter((tag) => /label/i.test(tag))).toEqual(['shared-label']);
      const bobCounts = catalogueCountsResponseSchema.parse((await get(bob, '/repositories/counts')).json());
      expect(bobCounts.tags).toBe(countDistinctTags(await wholeList(bob)));
    } finally {
      await deleteRepository(t.app.db, shown.id);
      await deleteRepository(t.app.db, hidden.id);
    }
  });

  it('the admin list pages over everything, with the same parameters', async () => {
    const all = await walk(admin, { sort: 'stars' }, 9, '/auth/admin/repositories');
    expect(all).toEqual(expected(admin, { sort: 'stars' }));
    expect(all.length).toBe(seeded.rows.length);
    const legacy = (await get(admin, '/auth/admin/repositories')).json();
    expect(Object.keys(legacy).sort()).toEqual(['repositories', 'total']);
    expect(legacy.total).toBe(seeded.rows.length);
    expect((await get(alice, '/auth/admin/repositories', { limit: '5' })).statusCode).toBe(403);
  });

  it('every new call needs a session', async () => {
    for (const path of ['/repositories/stats', '/repositories/counts', '/tags']) {
      expect((await get(null, path)).statusCode, path).toBe(401);
    }
    expect((await get(null, '/repositories/', { limit: '5' })).statusCode).toBe(401);
  });
});

describe('query parsing', () => {
  it('the parsed query is what the reference reads', () => {
    const parsed: CatalogueListQuery = catalogueListQuerySchema.parse({
      archived: '1',
      min_stars: '3',
      limit: '9',
    });
    expect(parsed).toEqual({ archived: true, min_stars: 3, limit: 9 });
  });
});
