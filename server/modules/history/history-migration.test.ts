import { Migrator } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRepositoryRow } from '../../../test/helpers/repository-row.ts';
import { createTestDatabase, type ScratchDatabase } from '../../../test/helpers/test-database.ts';
import { migrations } from '../../db/migrations/index.ts';

/**
 * The star-history migration on a database that already has metrics (docs/decisions.md, "Star
 * history from GitHub"): on SQLite `repository_metrics` is rebuilt; every row, the primary key
 * and the cascade from `repositories` must survive it, on PostgreSQL the columns only lose NOT NULL.
 */

const BEFORE = '2026-11-25-0200-create-release-tracking';
let database: ScratchDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.dispose();
});

describe('migration 2026-11-25-0300 (star history)', () => {
  it('keeps existing metrics rows and makes the other metrics nullable', async () => {
    const db = database.handle.db;
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    const before = await migrator.migrateTo(BEFORE);
    expect(before.error).toBeUndefined();
    const now = new Date().toISOString();
    const repository = await db
      .insertInto('repositories')
      .values(buildRepositoryRow('octo/widget', 7, { stars: 10, forks: 2, issues: 1, commits: 5 }))
      .returning('id')
      .executeTakeFirstOrThrow();
    const rows = [
      {
        repository_id: repository.id,
        day: '2026-11-24',
        stars: 9,
        forks: 2,
        issues: 1,
        commits: 5,
        contributors: 1,
      },
      {
        repository_id: repository.id,
        day: '2026-11-25',
        stars: 10,
        forks: 2,
        issues: 1,
        commits: 5,
        contributors: 1,
      },
    ];
    await db.insertInto('repository_metrics').values(rows).execute();

    const after = await migrator.migrateToLatest();
    expect(after.error).toBeUndefined();
    const kept = await db.selectFrom('repository_metrics').selectAll().orderBy('day').execute();
    // Later migrations add columns (the daily health score, null for days before it).
    expect(kept).toEqual(rows.map((row) => ({ ...row, health_score: null })));

    // A backfilled row: stars only.
    await db
      .insertInto('repository_metrics')
      .values({ repository_id: repository.id, day: '2026-11-23', stars: 8 })
      .execute();
    // The primary key is still there: a second row for the same day is refused.
    await expect(
      db
        .insertInto('repository_metrics')
        .values({ repository_id: repository.id, day: '2026-11-23', stars: 1 })
        .execute(),
    ).rejects.toThrow();
    // And the cascade: deleting the repository takes its metrics and its history state.
    await db
      .insertInto('repository_history')
      .values({ repository_id: repository.id, status: 'done', updated_at: now })
      .execute();
    await db.deleteFrom('repositories').where('id', '=', repository.id).execute();
    expect(await db.selectFrom('repository_metrics').selectAll().execute()).toEqual([]);
    expect(await db.selectFrom('repository_history').selectAll().execute()).toEqual([]);
  });
});
