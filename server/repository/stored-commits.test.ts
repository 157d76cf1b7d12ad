import { Migrator } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRepositoryRow } from '../../test/helpers/repository-row.ts';
import { createTestDatabase, type ScratchDatabase } from '../../test/helpers/test-database.ts';
import { migrations } from '../db/migrations/index.ts';
import { listTablesInOrder } from '../modules/backups/backups.queries.ts';
import { deleteRepository, findStoredCommits, saveStoredCommits } from './repository.queries.ts';

/**
 * Stored commits in their own table (docs/decisions.md, "Stored commits in their own table"):
 * the migration moves what the rows held, and a sync's write stores, replaces or clears them.
 */

const BEFORE = '2026-11-28-0200-repository-totals';
const commit = (sha: string) => ({
  date: '2026-11-01T10:00:00Z',
  sha,
  author: 'Ada',
  message: `Commit ${sha}`,
});
let database: ScratchDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.dispose();
});

const db = () => database.handle.db;

describe('migration 2026-11-28-0300 (stored commits)', () => {
  it('moves each row’s stored commits to their table, none for a row without, and drops the column', async () => {
    const migrator = new Migrator({ db: db(), provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
    const stored = JSON.stringify([commit('a1'), commit('b2')]);
    const [withCommits, without] = await db()
      // biome-ignore lint/suspicious/noExplicitAny: the column existed before this migration only
      .insertInto('repositories' as any)
      .values([
        { ...buildRepositoryRow('octo/with', 501), recent_commits: stored },
        { ...buildRepositoryRow('octo/without', 502), recent_commits: '[]' },
      ])
      .returning('id')
      .execute();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();

    expect(await db().selectFrom('repository_commits').selectAll().execute()).toEqual([
      { repository_id: withCommits?.id, commits: stored },
    ]);
    expect(await findStoredCommits(db(), without?.id as number)).toBe('[]');
    const tables = await listTablesInOrder(db());
    expect(tables.find((table) => table.name === 'repositories')?.columns).not.toContain('recent_commits');
  });
});

describe('saveStoredCommits', () => {
  it('stores, replaces, keeps unchanged, clears, and goes with its repository', async () => {
    const { id } = await db()
      .insertInto('repositories')
      .values(buildRepositoryRow('octo/saved', 601))
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(await findStoredCommits(db(), id)).toBe('[]');

    await saveStoredCommits(db(), id, [commit('c3')]);
    expect(JSON.parse(await findStoredCommits(db(), id))).toEqual([commit('c3')]);
    await saveStoredCommits(db(), id, [commit('d4'), commit('c3')]);
    expect(JSON.parse(await findStoredCommits(db(), id))).toEqual([commit('d4'), commit('c3')]);
    await saveStoredCommits(db(), id, [commit('d4'), commit('c3')]);
    expect(JSON.parse(await findStoredCommits(db(), id))).toEqual([commit('d4'), commit('c3')]);

    await saveStoredCommits(db(), id, []);
    const rows = () =>
      db().selectFrom('repository_commits').selectAll().where('repository_id', '=', id).execute();
    expect(await rows()).toEqual([]);

    await saveStoredCommits(db(), id, [commit('e5')]);
    await deleteRepository(db(), id);
    expect(await rows()).toEqual([]);
  });
});
