import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { CompiledQuery, type Kysely, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE_SORTS } from '#shared/schemas/catalogue.ts';
import { DEFAULT_RELEASE_TRACKING } from '#shared/schemas/releases.ts';
import {
  buildCatalogue,
  CATALOGUE_NOW,
  insertCatalogueUser,
  seedCatalogue,
} from '../../test/helpers/catalogue-fixtures.ts';
import { expectedDerivedRows, readDerivedRows } from '../../test/helpers/derived-rows.ts';
import { createFakeClock } from '../../test/helpers/fake-clock.ts';
import {
  createScratchDatabase,
  postgresReachable,
  testDialect,
  testPostgresUrl,
} from '../../test/helpers/test-database.ts';
import type { DatabaseHandle, Dialect } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { isPostgres } from '../db/migration-helpers.ts';
import { migrations } from '../db/migrations/index.ts';
import type { Database } from '../db/schema.ts';
import { writeBackup } from '../modules/backups/backup-stream.ts';
import { restoreBackup } from '../modules/backups/restore.ts';
import { normalizeFilters } from '../modules/catalogue-query/catalogue-filters.ts';
import {
  matchingIds,
  resolveSort,
  valuesPageQuery,
} from '../modules/catalogue-query/catalogue-query.queries.ts';
import { CatalogueQueryService } from '../modules/catalogue-query/catalogue-query.service.ts';
import { DERIVED_TABLES, rebuildDerivedTables, writeDerivedRows } from './repository-labels.ts';

/**
 * The derived tables (tag and topic rows, the search index) are left out of backups and built
 * again by restore, whichever way the backup travels between SQLite and PostgreSQL; the
 * migration fills them exactly as `rebuildDerivedTables` does; and the queries use the indexes.
 */
const MIGRATION = '2026-11-23-0100-create-catalogue-indexes';
const workDir = mkdtempSync(join(tmpdir(), 'rt-derived-'));

const postgresAvailable = testDialect === 'postgres' || (await postgresReachable());
if (!postgresAvailable) {
  console.log(
    `catalogue-derived-tables.test.ts: PostgreSQL cases skipped: nothing answers at ${testPostgresUrl}`,
  );
}

const opened: { dispose(): Promise<void> }[] = [];

/** A fresh, empty database of the dialect (SQLite in a file, as restores are). */
async function fresh(dialect: Dialect): Promise<DatabaseHandle> {
  const database = await createScratchDatabase(dialect, { dir: workDir });
  opened.push(database);
  return database.handle;
}

async function addUsers(db: Kysely<Database>) {
  await insertCatalogueUser(db, { id: 1, username: 'alice' });
  await insertCatalogueUser(db, { id: 2, username: 'bob' });
}

/**
 * A database migrated to just before the derived tables existed, holding 60 repositories
 * written straight into the table as that schema knew them.
 */
async function beforeDerivedTables(): Promise<DatabaseHandle> {
  const handle = await fresh(testDialect);
  const older = Object.keys(migrations)
    .sort()
    .filter((name) => name < MIGRATION)
    .at(-1) as string;
  const { error } = await new Migrator({
    db: handle.db,
    provider: { getMigrations: async () => migrations },
  }).migrateTo(older);
  expect(error).toBeUndefined();
  await addUsers(handle.db);
  for (const entry of buildCatalogue({ alice: 1, bob: 2 }, 60)) {
    await handle.db.insertInto('repositories').values(entry.row).execute();
  }
  return handle;
}

async function backupOf(handle: DatabaseHandle): Promise<string> {
  const file = join(workDir, `backup-${randomBytes(4).toString('hex')}.jsonl.gz`);
  await writeBackup(handle.db, handle.dialect, CATALOGUE_NOW, createWriteStream(file));
  return file;
}

/** What a few catalogue queries answer, to compare a restored database with its source. */
async function answers(db: Kysely<Database>) {
  const service = new CatalogueQueryService({
    db,
    dialect: isPostgres(db) ? 'postgres' : 'sqlite',
    clock: createFakeClock(CATALOGUE_NOW),
    // Pages only: the detail answer's parts are not read here.
    details: {
      commentsOf: async () => [],
      versionsOf: async () => [],
      tracking: async () => ({ ...DEFAULT_RELEASE_TRACKING }),
    },
  });
  const viewer = { id: 1, is_admin: false };
  return {
    search: await service.page(viewer, { q: 'parser', limit: 500 }),
    tags: await service.page(viewer, { tags: 'frontend', sort: 'name', limit: 500 }),
    stats: await service.stats(viewer, {}),
    tagCounts: await service.tags(viewer, {}),
  };
}

let source: DatabaseHandle;

beforeAll(async () => {
  source = await fresh(testDialect);
  await migrateToLatest(source.db);
  await addUsers(source.db);
  await seedCatalogue(source.db, buildCatalogue({ alice: 1, bob: 2 }, 60));
}, 60_000);

afterAll(async () => {
  for (const handle of opened.reverse()) await handle.dispose();
  rmSync(workDir, { recursive: true, force: true });
});

describe('backups and restores', () => {
  it('a backup holds no derived table', async () => {
    const file = await backupOf(source);
    const header = JSON.parse(gunzipSync(readFileSync(file)).toString('utf8').split('\n')[0] ?? '{}');
    const names: string[] = header.tables.map((table: { name: string }) => table.name);
    expect(names).toContain('repositories');
    for (const name of names) expect(name.startsWith('repository_search')).toBe(false);
    for (const table of DERIVED_TABLES) expect(names).not.toContain(table);
  });

  it.each([
    ['sqlite', true],
    ['postgres', postgresAvailable],
  ] as const)('a restore into a fresh %s database rebuilds them', async (dialect, available) => {
    if (!available) return;
    const file = await backupOf(source);
    const target = await fresh(dialect);
    await restoreBackup(target, file);
    const rows = await readDerivedRows(target.db);
    expect(rows.tags.length).toBeGreaterThan(0);
    expect(rows).toEqual(await expectedDerivedRows(target.db));
    expect(rows).toEqual(await readDerivedRows(source.db));
    expect(await answers(target.db)).toEqual(await answers(source.db));
  });

  it('a restore over a database with data replaces its derived rows too', async () => {
    const target = await fresh(testDialect);
    await migrateToLatest(target.db);
    await addUsers(target.db);
    // Different rows with the same ids: none of their tags or search text may survive.
    await seedCatalogue(target.db, buildCatalogue({ alice: 1, bob: 2 }, 80, 7));
    await restoreBackup(target, await backupOf(source));
    expect(await readDerivedRows(target.db)).toEqual(await readDerivedRows(source.db));
    expect(await answers(target.db)).toEqual(await answers(source.db));
  });

  it('a backup made before the derived tables existed restores with them built', async () => {
    const old = await beforeDerivedTables();
    const target = await fresh(testDialect);
    await restoreBackup(target, await backupOf(old));
    expect(await readDerivedRows(target.db)).toEqual(await expectedDerivedRows(target.db));
    expect((await readDerivedRows(target.db)).documents).toHaveLength(60);
  });
});

describe('the migration', () => {
  it('fills the derived tables from existing rows exactly as rebuildDerivedTables does', async () => {
    const handle = await beforeDerivedTables();
    await migrateToLatest(handle.db);
    const migrated = await readDerivedRows(handle.db);
    expect(migrated.documents).toHaveLength(60);
    expect(migrated).toEqual(await expectedDerivedRows(handle.db));
    await rebuildDerivedTables(handle.db, new Date());
    expect(await readDerivedRows(handle.db)).toEqual(migrated);
  });
});

describe('tag keys on PostgreSQL (migration 2026-11-28-0100)', () => {
  /** Each repository's tag keys as the GIN-indexed array holds them, and as its tag rows say. */
  async function tagKeys(db: Kysely<Database>) {
    const arrays = await sql<{ id: number; keys: string[] }>`select repository_id as id, tag_keys as keys
      from repository_search order by repository_id`.execute(db);
    const rows = await db.selectFrom('repository_tags').select(['repository_id', 'tag_lower']).execute();
    const expected = new Map<number, string[]>();
    for (const row of rows)
      expected.set(row.repository_id, [...(expected.get(row.repository_id) ?? []), row.tag_lower]);
    return {
      stored: arrays.rows.map((row) => ({ id: row.id, keys: [...row.keys].sort() })),
      expected: arrays.rows.map((row) => ({ id: row.id, keys: (expected.get(row.id) ?? []).sort() })),
    };
  }

  it.skipIf(testDialect !== 'postgres')(
    'are filled by the migration, by a rebuild and by every write, as the tag rows',
    async () => {
      // Rows from before the derived tables: the catalogue's migration fills the tag rows and
      // documents, then this one the keys.
      const handle = await beforeDerivedTables();
      await migrateToLatest(handle.db);
      const migrated = await tagKeys(handle.db);
      expect(migrated.stored.some((row) => row.keys.length > 1)).toBe(true);
      expect(migrated.stored).toEqual(migrated.expected);
      await rebuildDerivedTables(handle.db, new Date());
      expect((await tagKeys(handle.db)).stored).toEqual(migrated.stored);
      const row = await handle.db
        .selectFrom('repositories')
        .select(['id', 'name', 'full_name', 'description', 'license', 'tags', 'topics'])
        .orderBy('id')
        .executeTakeFirstOrThrow();
      await handle.db
        .updateTable('repositories')
        .set({ tags: 'Web, API,web' })
        .where('id', '=', row.id)
        .execute();
      await writeDerivedRows(handle.db, { ...row, tags: 'Web, API,web' }, ['tags']);
      const written = await tagKeys(handle.db);
      expect(written.stored).toEqual(written.expected);
      expect(written.stored.find((entry) => entry.id === row.id)?.keys).toEqual(['api', 'web']);
    },
  );
});

describe('query plans use the indexes', () => {
  /** The plan text of a query; PostgreSQL is told to avoid sequential scans, as it would on a big table. */
  async function plan(compiled: CompiledQuery): Promise<string> {
    const { db, dialect } = source;
    if (dialect === 'sqlite') {
      const result = await db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]),
      );
      return result.rows.map((row) => row.detail).join('\n');
    }
    return db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      await sql`set local enable_sort = off`.execute(trx);
      const result = await trx.executeQuery<{ 'QUERY PLAN': string }>(
        CompiledQuery.raw(`explain ${compiled.sql}`, [...compiled.parameters]),
      );
      return result.rows.map((row) => row['QUERY PLAN']).join('\n');
    });
  }
  const admin = { id: 1, is_admin: true };

  it.each(CATALOGUE_SORTS)(
    'sorting by %s walks repositories_sort_%s_idx, both ways, from a cursor',
    async (sort) => {
      for (const order of ['asc', 'desc'] as const) {
        const choice = resolveSort({ sort, order });
        const key = ['stars', 'forks', 'issues', 'commits', 'growth_7d', 'growth_30d', 'health'].includes(
          sort,
        )
          ? 5
          : 'm';
        const query = valuesPageQuery(source.db, admin, normalizeFilters({}), choice, 51, { key, id: 10 });
        const text = await plan(query.compile());
        expect(text, text).toContain(`repositories_sort_${sort}_idx`);
        // The index gives the order: no separate sort of the whole table.
        if (source.dialect === 'sqlite') expect(text, text).not.toMatch(/USE TEMP B-TREE FOR ORDER BY/);
      }
    },
  );

  it('search uses the trigram index; tags and topics their own', async () => {
    const sort = resolveSort({ sort: 'stars' });
    // The matching set alone (what `total` counts): an ordered page may rather walk a sort index.
    const search = await plan(matchingIds(source.db, admin, normalizeFilters({ q: 'parser' })).compile());
    expect(search, search).toMatch(
      source.dialect === 'sqlite' ? /VIRTUAL TABLE INDEX/ : /repository_search_document_trgm_idx/,
    );
    const labels = await plan(
      valuesPageQuery(
        source.db,
        admin,
        normalizeFilters({ tags: 'ui', topics: 'cli' }),
        sort,
        51,
        null,
      ).compile(),
    );
    expect(labels, labels).toMatch(/repository_tags_(tag_idx|pk)/);
    expect(labels, labels).toMatch(/repository_topics_(topic_idx|pk)/);
  });
});
