import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueListQuerySchema } from '#shared/schemas/catalogue.ts';
import { DEFAULT_RELEASE_TRACKING } from '#shared/schemas/releases.ts';
import { CATALOGUE_NOW } from '../../../test/helpers/catalogue-fixtures.ts';
import { createFakeClock } from '../../../test/helpers/fake-clock.ts';
import {
  createScratchDatabase,
  postgresReachable,
  type ScratchDatabase,
  testPostgresUrl,
} from '../../../test/helpers/test-database.ts';
import type { Dialect } from '../../db/database.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { CatalogueQueryService } from './catalogue-query.service.ts';
import { streamCsv } from './csv-export.ts';

/**
 * On PostgreSQL the database writes the export's records (COPY, copy-export.ts): on the same
 * database, the export must be the bytes the writer writes from whole rows (as SQLite reads
 * them), for any text — quotes, commas, line breaks, formula starts ASCII and
 * full-width, other scripts — and any numbers. Skipped, with a printed line, when no
 * PostgreSQL answers.
 */
const withPostgres = await postgresReachable();
if (!withPostgres) {
  console.log(`csv-export.postgres.test.ts: skipped: nothing answers at ${testPostgresUrl}`);
}

const piece = fc.constantFrom(
  '"',
  ',',
  '\r',
  '\n',
  '\r\n',
  '=',
  '+',
  '-',
  '@',
  '\t',
  "'",
  '＝',
  '＋',
  '－',
  '＠',
  ' ',
  'a',
  'Z',
  '7',
  'é',
  '名前',
  '😀',
  '=SUM(A1)',
  '\\.',
  '""',
);
const text = (maxLength: number) =>
  fc.array(piece, { maxLength: 6 }).map((pieces) => pieces.join('').slice(0, maxLength));
const optional = (maxLength: number) => fc.option(text(maxLength), { nil: null });
const count = fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 2_000_000_000 }));
const signed = fc.option(fc.integer({ min: -1_000_000, max: 1_000_000 }), { nil: null });
const flag = fc.constantFrom(0 as const, 1 as const);

const row = fc.record({
  name: text(100),
  description: optional(500),
  url: text(300),
  license: text(100),
  topics: text(500),
  tags: text(500),
  notes: text(2000),
  stars: count,
  forks: count,
  issues: count,
  commits: count,
  contributors: fc.integer({ min: 0, max: 500 }),
  contributors_capped: flag,
  contributors_pending: flag,
  language: optional(100),
  archived: flag,
  private: flag,
  gone: flag,
  last_commit: optional(40),
  last_synced: optional(40),
  created_at: text(40),
  stars_7d: signed,
  stars_30d: signed,
  health_score: fc.option(fc.integer({ min: 0, max: 100 }), { nil: null }),
  health_grade: fc.constantFrom(null, 'healthy' as const, 'watch' as const, 'at_risk' as const),
  advisories_critical: count,
  advisories_high: count,
  advisories_medium: count,
  advisories_low: count,
  advisories_unknown: count,
  decision_status: fc.constantFrom(
    null,
    'adopt' as const,
    'trial' as const,
    'assess' as const,
    'hold' as const,
  ),
  decision_quadrant: optional(40),
});

const ROWS = 400;
let database: ScratchDatabase | undefined;

beforeAll(async () => {
  if (!withPostgres) return;
  database = await createScratchDatabase('postgres');
  const db = database.handle.db;
  await migrateToLatest(db);
  const sample = fc.sample(row, { seed: 23, numRuns: ROWS });
  const values = sample.map((cells, index) => ({
    ...cells,
    // The id cell: any text too, kept unique by its number.
    full_name: `${cells.name.slice(0, 40)}/${index}`,
    github_id: 9_000_000 + index,
    user_id: null,
    default_branch: 'main',
    etags: '{}',
    updated_at: CATALOGUE_NOW.toISOString(),
  }));
  for (let start = 0; start < values.length; start += 100) {
    await db
      .insertInto('repositories')
      .values(values.slice(start, start + 100))
      .execute();
  }
}, 60_000);

afterAll(async () => {
  await database?.dispose();
});

/** The export on the scratch database, read as `dialect` reads it (COPY's records or whole rows). */
async function exported(dialect: Dialect, raw: Record<string, string>): Promise<string> {
  const service = new CatalogueQueryService({
    db: (database as ScratchDatabase).handle.db,
    copyOut: (database as ScratchDatabase).handle.copyOut,
    clock: createFakeClock(CATALOGUE_NOW),
    dialect,
    exportBatchSize: 37,
    details: {
      commentsOf: async () => [],
      versionsOf: async () => [],
      tracking: async () => ({ ...DEFAULT_RELEASE_TRACKING }),
    },
  });
  const chunks: Buffer[] = [];
  const batches = service.exportBatches({ id: 1, is_admin: true }, catalogueListQuerySchema.parse(raw));
  for await (const chunk of streamCsv(batches)) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

describe.skipIf(!withPostgres)('records written by PostgreSQL', () => {
  it.each([
    { sort: 'name', order: 'asc' },
    { sort: 'description', order: 'desc' },
    { sort: 'stars', order: 'desc' },
    { sort: 'last_commit', order: 'asc' },
  ])('are written as the same bytes as whole rows, in the same order: %o', async (raw) => {
    const byDatabase = await exported('postgres', raw);
    const byWriter = await exported('sqlite', raw);
    expect(byWriter.split('\r\n').length).toBeGreaterThan(ROWS);
    expect(byDatabase).toBe(byWriter);
  });
});
