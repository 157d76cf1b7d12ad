import { Migrator } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../../test/helpers/fake-clock.ts';
import { buildRepositoryRow } from '../../../test/helpers/repository-row.ts';
import { createTestDatabase, type ScratchDatabase } from '../../../test/helpers/test-database.ts';
import { migrations } from '../../db/migrations/index.ts';
import type { RepositoryRow } from '../../db/schema.ts';
import { replaceBackfilledRows } from './history.queries.ts';
import { type HistoryDeps, HistoryService } from './history.service.ts';

/**
 * Growth in the list (docs/product.md#catalogue-queries): `stars_7d` and `stars_30d` on the
 * repository's row, recomputed when a day's metrics are written and after a backfill, and
 * filled by the 2026-11-26-0100 migration for rows already there.
 */

const BEFORE = '2026-11-25-0900-create-repository-trash';
const DAY = 86_400;
let database: ScratchDatabase;
let id = 0;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.dispose();
});

const db = () => database.handle.db;

async function growthOf(repositoryId: number) {
  return db()
    .selectFrom('repositories')
    .select(['stars_7d', 'stars_30d'])
    .where('id', '=', repositoryId)
    .executeTakeFirstOrThrow();
}

async function insertRepository(name: string, stars: number): Promise<RepositoryRow> {
  id += 1;
  return db()
    .insertInto('repositories')
    .values(buildRepositoryRow(name, 9000 + id, { stars }))
    .returningAll()
    .executeTakeFirstOrThrow();
}

function metricsRow(repositoryId: number, day: string, stars: number) {
  return { repository_id: repositoryId, day, stars, forks: 0, issues: 0, commits: 1, contributors: 1 };
}

describe('migration 2026-11-26-0100 (growth)', () => {
  it('fills the figures of existing rows from their stored days', async () => {
    const migrator = new Migrator({ db: db(), provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
    const insert = async (name: string) =>
      (
        await db()
          .insertInto('repositories')
          .values(buildRepositoryRow(name, 100 + ++id))
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const long = await insert('octo/long');
    const short = await insert('octo/short');
    const none = await insert('octo/none');
    await db()
      .insertInto('repository_metrics')
      .values([
        // A backfilled day 40 days back, daily rows after it.
        { repository_id: long, day: '2026-10-16', stars: 100 },
        metricsRow(long, '2026-10-27', 150),
        metricsRow(long, '2026-11-17', 180),
        metricsRow(long, '2026-11-20', 190),
        metricsRow(long, '2026-11-25', 200),
        metricsRow(short, '2026-11-20', 10),
        metricsRow(short, '2026-11-25', 12),
      ])
      .execute();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    // 7 days before 11-25 is 11-18: the latest day at or before it is 11-17; 30 days: 10-26 → 10-16.
    expect(await growthOf(long)).toEqual({ stars_7d: 20, stars_30d: 100 });
    expect(await growthOf(short)).toEqual({ stars_7d: null, stars_30d: null });
    expect(await growthOf(none)).toEqual({ stars_7d: null, stars_30d: null });
  });
});

describe('recomputed on write', () => {
  const clock = createFakeClock(new Date('2026-11-01T12:00:00Z'));
  const history = new HistoryService({ db: undefined, clock } as unknown as HistoryDeps);

  async function sync(row: RepositoryRow, stars: number) {
    await db().updateTable('repositories').set({ stars }).where('id', '=', row.id).execute();
    const after = { ...row, stars };
    await db()
      .transaction()
      .execute((trx) => history.recordDay({ before: row, after, snapshot: null }, trx));
    return after;
  }

  it('follows adds and syncs across days: null until a stored day is old enough', async () => {
    let row = await insertRepository('growth/daily', 10);
    await db()
      .transaction()
      .execute((trx) => history.recordDay({ repository: row, actor: null } as never, trx));
    expect(await growthOf(row.id)).toEqual({ stars_7d: null, stars_30d: null });

    // Six days later: nothing 7 days old yet.
    clock.advance(6 * DAY);
    row = await sync(row, 16);
    expect(await growthOf(row.id)).toEqual({ stars_7d: null, stars_30d: null });

    // Day 7: the add's day is exactly 7 days back.
    clock.advance(DAY);
    row = await sync(row, 20);
    expect(await growthOf(row.id)).toEqual({ stars_7d: 10, stars_30d: null });
    // A second sync the same day: the day's row is replaced, the figure follows.
    row = await sync(row, 21);
    expect(await growthOf(row.id)).toEqual({ stars_7d: 11, stars_30d: null });

    // Day 30: 7 days back is day 23, with no row: the latest before it is day 7 (21 stars).
    clock.advance(23 * DAY);
    row = await sync(row, 25);
    expect(await growthOf(row.id)).toEqual({ stars_7d: 4, stars_30d: 15 });

    // Stars lost count as negative growth (30 days back is day 1: the latest before it is day 0).
    clock.advance(DAY);
    row = await sync(row, 5);
    expect(await growthOf(row.id)).toEqual({ stars_7d: -16, stars_30d: -5 });
  });

  it('is recomputed after a backfill rewrites the older rows', async () => {
    const row = await insertRepository('growth/backfilled', 500);
    await db()
      .insertInto('repository_metrics')
      .values(metricsRow(row.id, '2026-11-25', 500))
      .execute();
    expect(
      await replaceBackfilledRows(db(), row.id, [
        { day: '2026-10-20', stars: 300 },
        { day: '2026-11-10', stars: 420 },
        { day: '2026-11-18', stars: 450 },
        // The daily row wins over the backfilled one for its day.
        { day: '2026-11-25', stars: 1 },
      ]),
    ).toBe(true);
    expect(await growthOf(row.id)).toEqual({ stars_7d: 50, stars_30d: 200 });

    // A later backfill with less history: figures follow what is stored now.
    await replaceBackfilledRows(db(), row.id, [{ day: '2026-11-20', stars: 480 }]);
    expect(await growthOf(row.id)).toEqual({ stars_7d: null, stars_30d: null });
  });
});
