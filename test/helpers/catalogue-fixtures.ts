import type { Kysely } from 'kysely';
import type { CatalogueListQuery, CatalogueSort } from '#shared/schemas/catalogue.ts';
import { defaultCatalogueOrder } from '#shared/schemas/catalogue.ts';
import type { Database, RepositoryRow } from '../../server/db/schema.ts';
import {
  grantAccess,
  insertRepository,
  type NewRepository,
} from '../../server/repository/repository.queries.ts';

/**
 * A varied catalogue for the catalogue query tests (the same rows on every database: a seeded
 * generator), and a plain-JavaScript reference of what each query must answer, written from
 * docs/product.md#catalogue-queries rather than from the SQL.
 */

export const CATALOGUE_NOW = new Date('2026-11-23T12:00:00.000Z');

/** mulberry32: small, seeded, the same sequence everywhere. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  return { next, pick };
}

const NAMES = [
  'alpha',
  'Alpha',
  'beta',
  'Éclair',
  'éclair',
  'zed',
  '10-things',
  '9-things',
  '_under',
  'rocket-🚀',
  'Parser',
  'parser',
  'http-kit',
  'Graph',
  'données',
  'x',
] as const;
const LONG_DESCRIPTION = `${'Long description that goes on '.repeat(9)}— and differs only after two hundred characters: `;
const DESCRIPTIONS = [
  null,
  '',
  '   ',
  'A fast parser',
  'a FAST parser',
  'Émoji 🚀 support for the web',
  'données ouvertes',
  'Graph database client',
  `${LONG_DESCRIPTION}A`,
  `${LONG_DESCRIPTION}B`,
  '100% pure_text [with] {odd} chars \\ "quotes"',
  'Line one\nline two',
] as const;
const LICENSES = [
  'MIT',
  'mit',
  ' MIT ',
  'Apache-2.0',
  'GPL-3.0',
  '',
  '',
  'BSD-3-Clause',
  'No License',
] as const;
const LANGUAGES = ['TypeScript', 'typescript', 'Rust', 'Go', null, 'C++'] as const;
const TAGS = [
  'ui',
  'Frontend',
  'frontend',
  'React',
  'to-read',
  'Ünïcode',
  'backend',
  'ops',
  'a10',
  'a9',
] as const;
const TOPICS = ['cli', 'tooling', 'react', 'web', 'database', 'rust', 'ai'] as const;
const STARS = [0, 5, 5, 99, 100, 999, 1000, 5000, 10_000, 50_000, 100_000, 250_000] as const;
const COMMITS_AT = [
  null,
  null,
  '2026-11-20T08:00:00Z',
  '2026-11-20T08:00:00Z',
  '2026-11-01T10:00:00.000Z',
  '2026-10-24T12:00:00Z',
  '2026-10-24T11:59:59Z',
  '2025-01-01T00:00:00Z',
  '2019-06-30T23:59:59Z',
] as const;
const SYNCED_AT = [
  null,
  '2026-11-23T11:00:00.000Z',
  '2026-11-22T09:30:00.000Z',
  '2026-11-22T09:30:00.000Z',
] as const;
const CREATED_AT = [
  '2026-01-01T00:00:00.000Z',
  '2026-06-15T12:00:00.000Z',
  '2026-06-15T12:00:00.000Z',
] as const;

/** Stars gained (null: not enough history), ties and negatives included. */
const GROWTH_7D = [null, 0, 5, 5, -2, 120, null, 40] as const;
const GROWTH_30D = [null, 3, 10, 10, -7, 4000, 250, null, 0] as const;

/** A verified member (or admin) the catalogue fixtures can attribute repositories to. */
export async function insertCatalogueUser(
  db: Kysely<Database>,
  user: { id: number; username: string; isAdmin?: boolean },
): Promise<void> {
  const now = CATALOGUE_NOW.toISOString();
  await db
    .insertInto('users')
    .values({
      id: user.id,
      username: user.username,
      email: `${user.username}@example.com`,
      first_name: user.username,
      last_name: 'Tester',
      password_hash: 'not-used',
      is_active: 1,
      is_verified: 1,
      is_admin: user.isAdmin ? 1 : 0,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

export interface CatalogueOwners {
  alice: number;
  bob: number;
}

export interface SeededRepository {
  row: NewRepository;
  /** Members granted access to the private repository (its adder included). */
  access: number[];
}

/** `count` repositories (80 by default) with every kind of value, tie and NULL the queries meet. */
export function buildCatalogue(owners: CatalogueOwners, count = 80, seed = 20_261_123): SeededRepository[] {
  const random = generator(seed);
  const list = (values: readonly string[]) => {
    const chosen = new Set<string>();
    const size = Math.floor(random.next() * 4);
    for (let index = 0; index < size; index += 1) chosen.add(random.pick(values));
    return [...chosen].join(',');
  };
  const result: SeededRepository[] = [];
  for (let index = 0; index < count; index += 1) {
    const name = random.pick(NAMES);
    const owner = random.pick(['acme', 'Octo-Org', 'zeta']);
    const adder = random.pick([owners.alice, owners.bob, null]);
    const isPrivate = random.next() < 0.15;
    const access = isPrivate
      ? [...new Set([adder ?? owners.bob, ...(random.next() < 0.5 ? [owners.alice] : [])])]
      : [];
    result.push({
      access,
      row: {
        full_name: `${owner}/${name}-${index}`,
        github_id: 500_000 + index,
        user_id: adder,
        name,
        description: random.pick(DESCRIPTIONS),
        url: `https://github.com/${owner}/${name}-${index}`,
        license: random.pick(LICENSES),
        topics: list(TOPICS),
        tags: list(TAGS),
        notes: index % 7 === 0 ? 'secret-note-text' : '',
        stars: random.pick(STARS),
        forks: random.pick([0, 1, 1, 20]),
        issues: random.pick([0, 3, 3, 40]),
        commits: random.pick([1, 10, 10, 2000]),
        contributors: random.pick([0, 1, 999, 1000, 1500]),
        contributors_capped: 0,
        language: random.pick(LANGUAGES),
        archived: random.next() < 0.1 ? 1 : 0,
        private: isPrivate ? 1 : 0,
        gone: random.next() < 0.1 ? 1 : 0,
        default_branch: 'main',
        last_commit: random.pick(COMMITS_AT),
        last_synced: random.pick(SYNCED_AT),
        etags: '{}',
        created_at: random.pick(CREATED_AT),
        updated_at: random.pick(CREATED_AT),
      },
    });
  }
  return result;
}

/** Writes the catalogue through the service's own write path (derived rows included). */
export async function seedCatalogue(
  db: Kysely<Database>,
  catalogue: readonly SeededRepository[],
): Promise<{ rows: RepositoryRow[]; access: Map<number, number[]> }> {
  const rows: RepositoryRow[] = [];
  const access = new Map<number, number[]>();
  for (const [index, entry] of catalogue.entries()) {
    const inserted = await insertRepository(db, entry.row, new Date(Date.now() + 86_400_000));
    // Growth as the history module keeps it (from the index, not the generator, so the other
    // columns stay as they were; written apart, as older schemas lack the columns).
    const row = await db
      .updateTable('repositories')
      .set({
        stars_7d: GROWTH_7D[index % GROWTH_7D.length] ?? null,
        stars_30d: GROWTH_30D[index % GROWTH_30D.length] ?? null,
      })
      .where('id', '=', inserted.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    rows.push(row);
    for (const userId of entry.access) await grantAccess(db, row.id, userId, CATALOGUE_NOW.toISOString());
    access.set(row.id, entry.access);
  }
  return { rows, access };
}

// ---- the reference -------------------------------------------------------------------------------

export interface ReferenceViewer {
  id: number;
  is_admin: boolean;
}

/** Both databases lower-case A–Z only and trim spaces only. */
const asciiLower = (value: string) => value.replace(/[A-Z]/g, (char) => char.toLowerCase());
const spaceTrim = (value: string) => value.replace(/^ +| +$/g, '');

/** Code point order (SQLite's BINARY, PostgreSQL's "C"), not UTF-16 order. */
export function compareCodePoints(a: string, b: string): number {
  const left = [...a];
  const right = [...b];
  for (let index = 0; index < Math.min(left.length, right.length); index += 1) {
    const difference = (left[index]?.codePointAt(0) ?? 0) - (right[index]?.codePointAt(0) ?? 0);
    if (difference !== 0) return difference;
  }
  return left.length - right.length;
}

function entries(list: string): string[] {
  return [
    ...new Set(
      list
        .split(',')
        .map((entry) => entry.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
}

function sortKey(row: RepositoryRow, sort: CatalogueSort): string | number | null {
  switch (sort) {
    case 'name':
      return asciiLower(row.name);
    case 'description': {
      if (row.description === null) return null;
      const key = [...asciiLower(spaceTrim(row.description))].slice(0, 200).join('');
      return key === '' ? null : key;
    }
    case 'license': {
      const key = asciiLower(spaceTrim(row.license));
      return key === '' ? null : key;
    }
    case 'stars':
    case 'forks':
    case 'issues':
    case 'commits':
      return row[sort];
    case 'growth_7d':
      return row.stars_7d;
    case 'growth_30d':
      return row.stars_30d;
    case 'health':
      return row.health_score;
    default:
      return row[sort];
  }
}

export function referenceVisible(
  rows: readonly RepositoryRow[],
  access: Map<number, number[]>,
  viewer: ReferenceViewer,
): RepositoryRow[] {
  return rows.filter(
    (row) => viewer.is_admin || row.private === 0 || (access.get(row.id) ?? []).includes(viewer.id),
  );
}

/** What a list query must answer: every matching row in order (paging aside). */
export function referenceQuery(
  rows: readonly RepositoryRow[],
  access: Map<number, number[]>,
  viewer: ReferenceViewer,
  query: CatalogueListQuery,
): RepositoryRow[] {
  const needle = (query.q ?? '').trim().toLowerCase();
  const tags = entries(query.tags ?? '');
  const topics = entries(query.topics ?? '');
  const license = asciiLower((query.license ?? '').trim());
  const language = asciiLower((query.language ?? '').trim());
  const matching = referenceVisible(rows, access, viewer).filter((row) => {
    const document = [row.name, row.description ?? '', row.full_name, row.tags, row.license].join('\n');
    if (needle && !document.toLowerCase().includes(needle)) return false;
    const rowTags = entries(row.tags);
    if (!tags.every((tag) => rowTags.includes(tag))) return false;
    const rowTopics = entries(row.topics);
    if (!topics.every((topic) => rowTopics.includes(topic))) return false;
    const rowLicense = asciiLower(spaceTrim(row.license));
    if (license === 'no license' && !(rowLicense === '' || rowLicense === 'no license')) return false;
    if (license && license !== 'no license' && rowLicense !== license) return false;
    if (language && asciiLower(row.language ?? '') !== language) return false;
    if (query.min_stars !== undefined && row.stars < query.min_stars) return false;
    if (query.max_stars !== undefined && row.stars > query.max_stars) return false;
    if (
      query.min_growth_30d !== undefined &&
      (row.stars_30d === null || row.stars_30d < query.min_growth_30d)
    )
      return false;
    if (query.archived !== undefined && (row.archived === 1) !== query.archived) return false;
    if (query.gone !== undefined && (row.gone === 1) !== query.gone) return false;
    if (query.added_by === 'me' && row.user_id !== viewer.id) return false;
    return true;
  });
  const sort = query.sort ?? 'last_commit';
  const order = query.order ?? (query.sort ? defaultCatalogueOrder(query.sort) : 'desc');
  const sign = order === 'asc' ? 1 : -1;
  return matching
    .map((row) => ({ row, key: sortKey(row, sort) }))
    .sort((a, b) => {
      if (a.key === null || b.key === null) {
        if (a.key !== b.key) return a.key === null ? 1 : -1;
        return sign * (a.row.id - b.row.id);
      }
      const byKey =
        typeof a.key === 'number' && typeof b.key === 'number'
          ? a.key - b.key
          : compareCodePoints(String(a.key), String(b.key));
      return sign * (byKey !== 0 ? byKey : a.row.id - b.row.id);
    })
    .map((entry) => entry.row);
}
