import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CATALOGUE_SORTS,
  type CatalogueListQuery,
  catalogueFilterQuerySchema,
  catalogueListQuerySchema,
} from '#shared/schemas/catalogue.ts';
import { DEFAULT_RELEASE_TRACKING } from '#shared/schemas/releases.ts';
import {
  buildCatalogue,
  CATALOGUE_NOW,
  insertCatalogueUser,
  type ReferenceViewer,
  referenceQuery,
  seedCatalogue,
} from '../../../test/helpers/catalogue-fixtures.ts';
import { createFakeClock } from '../../../test/helpers/fake-clock.ts';
import {
  createScratchDatabase,
  postgresReachable,
  testPostgresUrl,
} from '../../../test/helpers/test-database.ts';
import type { DatabaseHandle } from '../../db/database.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import type { RepositoryRow } from '../../db/schema.ts';
import { CatalogueQueryService } from './catalogue-query.service.ts';
import { streamCsv } from './csv-export.ts';

/**
 * One query set on SQLite and on PostgreSQL in the same run, answers compared: the same rows in
 * the same order, the same totals, cursors and aggregates, and both equal to the reference. The
 * PostgreSQL half is skipped, with a printed line, when no server answers.
 */
interface Side {
  name: 'sqlite' | 'postgres';
  handle: DatabaseHandle;
  service: CatalogueQueryService;
  rows: RepositoryRow[];
  access: Map<number, number[]>;
  dispose(): Promise<void>;
}

const users = { alice: 1, bob: 2, admin: 3 };
const viewers: ReferenceViewer[] = [
  { id: users.alice, is_admin: false },
  { id: users.bob, is_admin: false },
  { id: users.admin, is_admin: true },
];

const open = (name: 'sqlite' | 'postgres') => createScratchDatabase(name);

async function prepare(name: 'sqlite' | 'postgres'): Promise<Side> {
  const { handle, dispose } = await open(name);
  await migrateToLatest(handle.db);
  for (const [username, id] of Object.entries(users)) {
    await insertCatalogueUser(handle.db, { id, username, isAdmin: username === 'admin' });
  }
  const seeded = await seedCatalogue(handle.db, buildCatalogue({ alice: users.alice, bob: users.bob }, 120));
  const service = new CatalogueQueryService({
    db: handle.db,
    clock: createFakeClock(CATALOGUE_NOW),
    dialect: name,
    copyOut: handle.copyOut,
    exportBatchSize: 7,
    // Pages, exports and statistics only: the detail answer's parts are not read here.
    details: {
      commentsOf: async () => [],
      versionsOf: async () => [],
      tracking: async () => ({ ...DEFAULT_RELEASE_TRACKING }),
    },
  });
  return { name, handle, service, ...seeded, dispose };
}

const sides: Side[] = [];
const withPostgres = await postgresReachable();
if (!withPostgres) {
  console.log(
    `catalogue-parity.test.ts: PostgreSQL half skipped: nothing answers at ${testPostgresUrl} (SQLite is still checked against the reference)`,
  );
}

beforeAll(async () => {
  sides.push(await prepare('sqlite'));
  if (withPostgres) sides.push(await prepare('postgres'));
}, 60_000);

afterAll(async () => {
  for (const side of sides) await side.dispose();
});

/** Every page of a query on one side: ids, totals and cursors as they came. */
async function walk(side: Side, viewer: ReferenceViewer, query: CatalogueListQuery) {
  const pages: { ids: string[]; total: number; next: string | null }[] = [];
  let cursor: string | undefined;
  do {
    const page = await side.service.page(viewer, { ...query, cursor });
    pages.push({ ids: page.repositories.map((row) => row.id), total: page.total, next: page.next_cursor });
    cursor = page.next_cursor ?? undefined;
  } while (cursor && pages.length < 500);
  return pages;
}

async function compare(raw: Record<string, string>) {
  const query = catalogueListQuerySchema.parse(raw);
  for (const viewer of viewers) {
    const answers = [];
    for (const side of sides) answers.push(await walk(side, viewer, query));
    const [first, ...others] = answers;
    for (const other of others) expect(other, JSON.stringify(raw)).toEqual(first);
    const sqlite = sides[0] as Side;
    const reference = referenceQuery(sqlite.rows, sqlite.access, viewer, query).map((row) => row.full_name);
    expect(
      first?.flatMap((page) => page.ids),
      `${JSON.stringify(raw)} as ${viewer.id}`,
    ).toEqual(reference);
    expect(first?.[0]?.total).toBe(reference.length);
  }
}

const FIXED: Record<string, string>[] = [
  { limit: '500' },
  { q: 'par' },
  { q: 'É' },
  { q: 'é' },
  { q: 'ÉCLAIR' },
  { q: '🚀' },
  { q: 'rocket-🚀' },
  { q: '_' },
  { q: '%' },
  { q: '100% pure_text' },
  { q: '"quotes"' },
  { q: '\\' },
  { q: 'données' },
  { q: 'DONNÉES' },
  { tags: 'ünïcode' },
  { tags: 'ÜNÏCODE' },
  { tags: 'frontend,ui', topics: 'web' },
  { license: 'no license' },
  { license: ' mit ' },
  { language: 'c++' },
  { min_stars: '100', max_stars: '50000', sort: 'stars', order: 'asc', limit: '3' },
  { archived: 'true', gone: 'false' },
  { added_by: 'me', sort: 'updated_at' },
  { min_growth_30d: '10', sort: 'growth_30d', limit: '3' },
  { min_growth_30d: '-7', sort: 'growth_7d', order: 'asc', limit: '5' },
  ...CATALOGUE_SORTS.flatMap((sort) => [
    { sort, order: 'asc', limit: '11' },
    { sort, order: 'desc', limit: '4' },
  ]),
];

describe(`catalogue queries on ${withPostgres ? 'SQLite and PostgreSQL' : 'SQLite (PostgreSQL unreachable)'}`, () => {
  it.each(FIXED)('%o', async (raw) => {
    await compare(raw);
  });

  it('random queries give the same answers on both', async () => {
    const sample = (sides[0] as Side).rows;
    const fragments = [
      ...sample.slice(0, 40).flatMap((row) => {
        const text = `${row.name}\n${row.description ?? ''}\n${row.full_name}`.split('\n').join(' ');
        const start = text.length > 3 ? Math.floor(text.length / 3) : 0;
        return [text.slice(start, start + 1), text.slice(start, start + 2), text.slice(start, start + 5)];
      }),
      'A',
      'zz',
      'MIT',
      'ops,',
    ].filter((fragment) => fragment.trim() !== '');
    const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined, freq: 2 });
    const queries = fc.record(
      {
        q: optional(fc.constantFrom(...fragments)),
        tags: optional(fc.constantFrom('ui', 'frontend', 'React,ui', 'ops', 'a9', 'Ünïcode')),
        topics: optional(fc.constantFrom('cli', 'web', 'react,web', 'ai')),
        license: optional(fc.constantFrom('MIT', 'apache-2.0', 'No License', 'GPL-3.0')),
        language: optional(fc.constantFrom('typescript', 'Rust', 'go')),
        min_stars: optional(fc.constantFrom('0', '5', '100', '5000')),
        max_stars: optional(fc.constantFrom('5', '999', '100000')),
        min_growth_30d: optional(fc.constantFrom('-100', '0', '10', '300')),
        archived: optional(fc.constantFrom('true', 'false')),
        gone: optional(fc.constantFrom('true', 'false')),
        added_by: optional(fc.constant('me')),
        sort: optional(fc.constantFrom(...CATALOGUE_SORTS)),
        order: optional(fc.constantFrom('asc', 'desc')),
        limit: fc.integer({ min: 1, max: 40 }).map(String),
      },
      { requiredKeys: ['limit'] },
    );
    await fc.assert(
      fc.asyncProperty(queries, async (raw) => {
        const defined = Object.fromEntries(
          Object.entries(raw).filter(([, value]) => value !== undefined),
        ) as Record<string, string>;
        if (defined.min_stars && defined.max_stars && Number(defined.min_stars) > Number(defined.max_stars))
          return;
        await compare(defined);
      }),
      { numRuns: 60, seed: 20_261_123 },
    );
  });

  it('aggregates are the same on both', async () => {
    for (const raw of [
      {},
      { tags: 'frontend' },
      { q: 'a', license: 'MIT' },
      { min_stars: '100' },
      { min_growth_30d: '200' },
    ]) {
      const filters = catalogueFilterQuerySchema.parse(raw);
      for (const viewer of viewers) {
        const answers = [];
        for (const side of sides) {
          answers.push({
            stats: await side.service.stats(viewer, filters),
            tags: await side.service.tags(viewer, filters),
            counts: await side.service.counts(viewer),
          });
        }
        const [first, ...others] = answers;
        for (const other of others) expect(other).toEqual(first);
        expect(first?.stats.cards.total_repositories).toBeGreaterThan(0);
      }
    }
  });

  it('fastest growing: the top 10 of the 30-day growth sort among those that gained stars', async () => {
    for (const raw of [{}, { tags: 'frontend' }, { min_growth_30d: '200' }]) {
      const filters = catalogueFilterQuerySchema.parse(raw);
      const viewer = viewers[0] as ReferenceViewer;
      const sqlite = sides[0] as Side;
      const reference = referenceQuery(sqlite.rows, sqlite.access, viewer, {
        ...filters,
        sort: 'growth_30d',
        order: 'desc',
      })
        .filter((row) => (row.stars_30d ?? 0) > 0)
        .slice(0, 10)
        .map((row) => ({ id: row.full_name, name: row.name, stars: row.stars, stars_30d: row.stars_30d }));
      expect(reference.length).toBeGreaterThan(0);
      for (const side of sides) {
        expect((await side.service.stats(viewer, filters)).fastest_growing, JSON.stringify(raw)).toEqual(
          reference,
        );
      }
    }
  });

  it.each([
    { sort: 'description', tags: 'ui' },
    { sort: 'stars', order: 'asc' },
    { sort: 'last_synced', order: 'desc', archived: 'false' },
    { sort: 'name', order: 'desc', q: 'a' },
  ])(
    'the export writes the same bytes for the same rows in the same order, in small batches: %o',
    async (raw) => {
      const query = catalogueListQuerySchema.parse(raw);
      for (const viewer of viewers) {
        const files: string[] = [];
        for (const side of sides) {
          const chunks: Buffer[] = [];
          for await (const chunk of streamCsv(side.service.exportBatches(viewer, query))) chunks.push(chunk);
          files.push(Buffer.concat(chunks).toString('utf8'));
        }
        const [sqlite, ...others] = files;
        for (const other of others) expect(other, JSON.stringify(raw)).toBe(sqlite);
        const side = sides[0] as Side;
        const reference = referenceQuery(side.rows, side.access, viewer, query).map((row) => row.full_name);
        expect(reference.length).toBeGreaterThan(7);
        const records = parse(sqlite ?? '', { columns: true }) as { id: string }[];
        expect(records.map((record) => record.id)).toEqual(reference);
      }
    },
  );
});
