import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewEvent } from '#shared/schemas/activity.ts';
import { PRIVATE_REPOSITORY } from '../../../test/github-double/index.ts';
import { signedInUser } from '../../../test/helpers/auth-factory.ts';
import { createReposTestApp, repoPath } from '../../../test/helpers/repos-app.ts';
import { isPostgres } from '../../db/migration-helpers.ts';
import { systemClock } from '../../lib/clock.ts';
import { visibleTo } from '../../repository/access-policy.ts';
import { ActivityRecorder } from './activity-recorder.service.ts';
import { eventsQuery, insertEvents } from './events.queries.ts';

/**
 * GET /activity (docs/product.md#activity): newest first, filters, cursor paging, visibility of
 * private repositories, the errors, and the query plans at a few thousand events.
 */
let t: Awaited<ReturnType<typeof createReposTestApp>>;
type Member = Awaited<ReturnType<typeof signedInUser>>;
let owner: Member;
let outsider: Member;
let admin: Member;
const OWNER_TOKEN = 'ghp_ownerReadsPrivateActivity1';
const PUBLIC = ['pallets/flask', 'twbs/bootstrap', 'vercel/next.js'];
const ids = new Map<string, number>();

beforeAll(async () => {
  t = await createReposTestApp();
  owner = await signedInUser(t.app, { first_name: 'Grace', last_name: 'Hopper' });
  outsider = await signedInUser(t.app);
  admin = await signedInUser(t.app, { is_admin: true });
  t.github.grantPrivateAccess(OWNER_TOKEN);
  expect((await call(owner, '/auth/me/github-token', 'PUT', { token: OWNER_TOKEN })).statusCode).toBe(200);
  for (const name of [...PUBLIC, PRIVATE_REPOSITORY]) {
    const response = await call(owner, '/repositories/', 'POST', { id: name });
    expect(response.statusCode).toBe(201);
    const row = await t.app.db
      .selectFrom('repositories')
      .select('id')
      .where('full_name', '=', name)
      .executeTakeFirstOrThrow();
    ids.set(name, row.id);
  }
  await call(owner, repoPath('pallets/flask', '/metadata/'), 'PUT', { tags: 'Web, python' });
  await call(owner, repoPath(PRIVATE_REPOSITORY, '/metadata/'), 'PUT', { tags: 'web' });
  // What the sync engine would have seen since (recorded as it records them).
  await record([
    {
      type: 'star_milestone',
      repository_id: id('twbs/bootstrap'),
      data: { milestone: 100_000, stars: 100_200 },
    },
    { type: 'archived', repository_id: id(PRIVATE_REPOSITORY), data: {} },
    { type: 'description_changed', repository_id: id('pallets/flask'), data: { from: 'a', to: 'b' } },
    { type: 'topics_changed', repository_id: id('vercel/next.js'), data: { added: ['react'], removed: [] } },
  ]);
});

afterAll(async () => {
  await t?.close();
});

function id(name: string): number {
  const value = ids.get(name);
  if (value === undefined) throw new Error(`not added: ${name}`);
  return value;
}

async function record(events: NewEvent[]) {
  await insertEvents(t.app.db, events, new Date().toISOString());
}

function call(who: Member, url: string, method: 'GET' | 'POST' | 'PUT' = 'GET', payload?: object) {
  return t.app.inject({ method, url, headers: who.headers, payload });
}

async function activity(who: Member, query = '') {
  const response = await call(who, `/activity${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as {
    events: { id: number; type: string; repository: { id: string }; data: unknown; actor?: unknown }[];
    next_cursor: string | null;
  };
}

describe('GET /activity', () => {
  it('lists the events newest first, each with its repository, details and actor', async () => {
    const page = await activity(owner);
    expect(page.next_cursor).toBeNull();
    expect(page.events.map((event) => event.type)).toEqual([
      'topics_changed',
      'description_changed',
      'archived',
      'star_milestone',
      'repository_added',
      'repository_added',
      'repository_added',
      'repository_added',
    ]);
    const ids = page.events.map((event) => event.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(page.events[0]).toEqual({
      id: expect.any(Number),
      type: 'topics_changed',
      occurred_at: expect.any(String),
      detected_at: expect.any(String),
      repository: { id: 'vercel/next.js', full_name: 'vercel/next.js', name: 'next.js' },
      data: { added: ['react'], removed: [] },
    });
    expect(page.events.at(-1)).toMatchObject({
      type: 'repository_added',
      repository: { id: 'pallets/flask' },
      actor: { id: owner.id, name: 'Grace Hopper' },
    });
  });

  it('answers when an event happened and when the catalogue found it (issue 23 item 7)', async () => {
    const found = '2026-11-20T09:00:00.000Z';
    await insertEvents(
      t.app.db,
      [
        {
          type: 'release_published',
          repository_id: id('pallets/flask'),
          data: { tag: 'v0.1', name: null, url: null, prerelease: false },
          occurred_at: '2026-07-01T12:00:00.000Z',
        },
      ],
      found,
    );
    const page = await activity(owner, '?type=release_published');
    expect(page.events[0]).toMatchObject({
      occurred_at: '2026-07-01T12:00:00.000Z',
      detected_at: found,
    });
    await t.app.db.deleteFrom('repository_events').where('type', '=', 'release_published').execute();
  });

  it('dates every event one transaction records with one detection time (issue 23 item 8)', async () => {
    const recorder = new ActivityRecorder({ clock: systemClock, staleAfterDays: 180 });
    await t.app.db.transaction().execute(async (trx) => {
      // The releases module and the sync's own detection read the clock a moment apart.
      await recorder.record(
        trx,
        [
          {
            type: 'release_published',
            repository_id: id('twbs/bootstrap'),
            data: { tag: 'v9', name: null, url: null, prerelease: false },
          },
        ],
        '2026-11-20T09:00:00.000Z',
      );
      await recorder.record(
        trx,
        [
          {
            type: 'star_milestone',
            repository_id: id('twbs/bootstrap'),
            data: { milestone: 250_000, stars: 250_001 },
          },
        ],
        '2026-11-20T09:00:00.004Z',
      );
    });
    const rows = await t.app.db
      .selectFrom('repository_events')
      .select(['id', 'created_at'])
      .where('created_at', 'like', '2026-11-20T09:00:00.00%')
      .execute();
    expect(rows.map((row) => row.created_at)).toEqual([
      '2026-11-20T09:00:00.000Z',
      '2026-11-20T09:00:00.000Z',
    ]);
    await t.app.db
      .deleteFrom('repository_events')
      .where(
        'id',
        'in',
        rows.map((row) => row.id),
      )
      .execute();
  });

  it('shows a private repository’s events only to members who can see it', async () => {
    const hidden = await activity(outsider);
    expect(hidden.events.some((event) => event.repository.id === PRIVATE_REPOSITORY)).toBe(false);
    expect(hidden.events).toHaveLength(6);
    const asAdmin = await activity(admin);
    expect(asAdmin.events.filter((event) => event.repository.id === PRIVATE_REPOSITORY)).toHaveLength(2);
    // Asked for by name: answered like a repository that doesn't exist.
    const named = await call(outsider, `/activity?repository=${encodeURIComponent(PRIVATE_REPOSITORY)}`);
    expect(named.statusCode).toBe(404);
    expect(named.json()).toEqual({ message: 'Repository not found in database', code: 'not_found' });
    // Tag filters can't reveal it either.
    expect((await activity(outsider, '?tag=web')).events.map((event) => event.repository.id)).toEqual([
      'pallets/flask',
      'pallets/flask',
    ]);
  });

  it('filters by one type or a comma list', async () => {
    const added = await activity(owner, '?type=repository_added');
    expect(added.events).toHaveLength(4);
    const two = await activity(owner, '?type=archived,star_milestone');
    expect(two.events.map((event) => event.type)).toEqual(['archived', 'star_milestone']);
  });

  it('filters by tag, case-insensitively, and by repository (full name, any case)', async () => {
    const web = await activity(owner, '?tag=WEB');
    expect(web.events.map((event) => event.repository.id)).toEqual([
      'pallets/flask',
      PRIVATE_REPOSITORY,
      PRIVATE_REPOSITORY,
      'pallets/flask',
    ]);
    expect((await activity(owner, '?tag=python&type=description_changed')).events).toHaveLength(1);
    expect((await activity(owner, '?tag=nothing-tagged')).events).toEqual([]);
    const one = await activity(owner, `?repository=${encodeURIComponent('TWBS/Bootstrap')}`);
    expect(one.events.map((event) => event.type)).toEqual(['star_milestone', 'repository_added']);
    const missing = await call(owner, '/activity?repository=nobody%2Fnothing');
    expect(missing.statusCode).toBe(404);
  });

  it('pages with an opaque cursor until next_cursor is null, without gaps or repeats', async () => {
    const seen: number[] = [];
    let cursor: string | null = '';
    let pages = 0;
    while (cursor !== null) {
      const page = await activity(owner, `?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(page.events.length).toBeLessThanOrEqual(3);
      seen.push(...page.events.map((event) => event.id));
      cursor = page.next_cursor;
      pages += 1;
    }
    expect(pages).toBe(3);
    const all = (await activity(owner)).events.map((event) => event.id);
    expect(seen).toEqual(all);
    // Paging keeps the filters: the cursor only says where to go on from.
    const first = await activity(owner, '?type=repository_added&limit=3');
    const rest = await activity(
      owner,
      `?type=repository_added&limit=3&cursor=${encodeURIComponent(first.next_cursor ?? '')}`,
    );
    expect([...first.events, ...rest.events].map((event) => event.type)).toEqual(
      Array(4).fill('repository_added'),
    );
    expect(rest.next_cursor).toBeNull();
  });

  it('answers malformed input with 400 and the field at fault', async () => {
    const cases: [string, string][] = [
      ['?type=bogus', 'type'],
      ['?type=archived,bogus', 'type'],
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?limit=ten', 'limit'],
      ['?cursor=not-a-cursor', 'cursor'],
      [`?cursor=${Buffer.from('{"i":-4}').toString('base64url')}`, 'cursor'],
      ['?repository=not%20a%20name', 'repository'],
      [`?tag=${'x'.repeat(101)}`, 'tag'],
    ];
    for (const [query, field] of cases) {
      const response = await call(owner, `/activity${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json(), query).toMatchObject({
        code: 'validation_failed',
        fields: { [field]: expect.any(String) },
      });
    }
  });

  it('needs a signed-in member', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/activity' });
    expect(response.statusCode).toBe(401);
  });
});

describe('query plans at a few thousand events', () => {
  beforeAll(async () => {
    const names = [...PUBLIC, PRIVATE_REPOSITORY];
    const events: NewEvent[] = [];
    for (let index = 0; index < 3000; index += 1) {
      const repository_id = id(names[index % names.length] as string);
      events.push(
        index % 3 === 0
          ? { type: 'star_milestone', repository_id, data: { milestone: 1000, stars: 1000 + index } }
          : { type: 'description_changed', repository_id, data: { from: null, to: `d${index}` } },
      );
    }
    for (let start = 0; start < events.length; start += 500)
      await insertEvents(t.app.db, events.slice(start, start + 500), new Date().toISOString());
    // Planner statistics, as a live database has them.
    await sql`analyze`.execute(t.app.db);
  });

  async function plan(compiled: CompiledQuery): Promise<string> {
    const { db } = t.app;
    if (!isPostgres(db)) {
      const result = await db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]),
      );
      return result.rows.map((row) => row.detail).join('\n');
    }
    const result = await db.executeQuery<{ 'QUERY PLAN': string }>(
      CompiledQuery.raw(`explain ${compiled.sql}`, [...compiled.parameters]),
    );
    return result.rows.map((row) => row['QUERY PLAN']).join('\n');
  }

  const filters = { types: null, tag: null, repositoryId: null, beforeId: null, limit: 51 };
  const member = () => visibleTo(t.app.db.selectFrom('repositories'), { id: outsider.id, is_admin: false });

  it('every filter reads events through an index, never the whole table', async () => {
    const variants = [
      filters,
      { ...filters, beforeId: 2000 },
      { ...filters, types: ['archived' as const] },
      { ...filters, types: ['archived' as const, 'gone' as const], beforeId: 2000 },
      { ...filters, repositoryId: id('twbs/bootstrap'), beforeId: 2000 },
      { ...filters, tag: 'python' },
    ];
    for (const variant of variants) {
      const text = await plan(eventsQuery(member(), variant).compile());
      if (isPostgres(t.app.db)) {
        expect(text, text).not.toMatch(/Seq Scan on repository_events/);
        expect(text, text).toMatch(/Index (Only )?Scan( Backward)? using repository_events_/);
      } else if (variant === filters) {
        // Unfiltered: the table itself, newest first (its rowid order), stopping after the
        // page; never read whole and sorted.
        expect(text, text).toMatch(/^SCAN repository_events$/m);
        expect(text, text).not.toMatch(/TEMP B-TREE/);
      } else {
        expect(text, text).toMatch(/SEARCH repository_events USING/);
        expect(text, text).not.toMatch(/SCAN repository_events/);
      }
    }
  });

  it('still answers the newest page right', async () => {
    const page = await activity(owner, '?limit=5&type=star_milestone');
    expect(page.events).toHaveLength(5);
    expect(page.next_cursor).not.toBeNull();
  });
});
