import { type Kysely, sql } from 'kysely';
import type { Database, RepositoryDetailRow, RepositoryListRow } from '../../db/schema.ts';
import { type Viewer, visibleTo } from '../../repository/access-policy.ts';
import { findStoredCommits } from '../../repository/repository.queries.ts';

type Db = Kysely<Database>;

const LIST_COLUMNS = [
  'repositories.id',
  'repositories.full_name',
  'repositories.github_id',
  'repositories.user_id',
  'repositories.name',
  'repositories.description',
  'repositories.url',
  'repositories.license',
  'repositories.topics',
  'repositories.tags',
  'repositories.notes',
  'repositories.stars',
  'repositories.forks',
  'repositories.issues',
  'repositories.commits',
  'repositories.contributors',
  'repositories.contributors_capped',
  'repositories.contributors_pending',
  'repositories.language',
  'repositories.archived',
  'repositories.private',
  'repositories.gone',
  'repositories.default_branch',
  'repositories.last_commit',
  'repositories.last_synced',
  'repositories.created_at',
  'repositories.updated_at',
  'repositories.stars_7d',
  'repositories.stars_30d',
  'repositories.health_score',
  'repositories.health_grade',
  'repositories.advisories_critical',
  'repositories.advisories_high',
  'repositories.advisories_medium',
  'repositories.advisories_low',
  'repositories.advisories_unknown',
] as const;

/**
 * What the CSV export reads: the columns its records write (`RepositoryExportRow`), no more:
 * 32 of the list's 36, less for the driver to parse on every one of 100,000 rows (PostgreSQL,
 * 100,000 rows in batches of 2,000: 1.01–1.25 s against 1.30–1.49 s with the list's columns).
 */
const NOT_EXPORTED: readonly string[] = [
  'repositories.github_id',
  'repositories.user_id',
  'repositories.default_branch',
  'repositories.updated_at',
];
const EXPORT_COLUMNS = LIST_COLUMNS.filter((column) => !NOT_EXPORTED.includes(column));

export type RowColumns = 'list' | 'export';

/**
 * The list's columns of `repositories` (or the export's), without the counts (`withPageCounts`
 * adds them to a page). Typed as the list's: the export's rows are read as `RepositoryExportRow`.
 */
export function listColumns(db: Db, columns: RowColumns = 'list') {
  const selected = db.selectFrom('repositories').select(LIST_COLUMNS);
  return columns === 'list'
    ? selected
    : (db.selectFrom('repositories').select(EXPORT_COLUMNS) as unknown as typeof selected);
}

/**
 * The comment and version counts of a page's rows, in one query of both tables by the page's
 * ids, written on the rows. A page of 2,000 (an export's batch) spent about 6 ms on PostgreSQL
 * and 4 ms on SQLite in two correlated counts a row (docs/decisions.md, "CSV export").
 */
export async function withPageCounts<T extends { id: number }>(
  db: Db,
  rows: T[],
): Promise<(T & { comment_count: number; version_count: number })[]> {
  const counted = rows as (T & { comment_count: number; version_count: number })[];
  for (const row of counted) {
    row.comment_count = 0;
    row.version_count = 0;
  }
  if (rows.length === 0) return counted;
  const ids = rows.map((row) => row.id);
  const counts = await db
    .selectFrom('comments')
    .select((eb) => ['repository_id', sql.lit(0).as('kind'), eb.fn.countAll<number | string>().as('count')])
    .where('repository_id', 'in', ids)
    .groupBy('repository_id')
    .unionAll((eb) =>
      eb
        .selectFrom('versions')
        .select((inner) => [
          'repository_id',
          sql.lit(1).as('kind'),
          inner.fn.countAll<number | string>().as('count'),
        ])
        .where('repository_id', 'in', ids)
        .groupBy('repository_id'),
    )
    .execute();
  const byId = new Map(counted.map((row) => [row.id, row]));
  for (const { repository_id, kind, count } of counts) {
    const row = byId.get(repository_id);
    if (!row) continue;
    if (Number(kind) === 0) row.comment_count = Number(count);
    else row.version_count = Number(count);
  }
  return counted;
}

export function withCounts(db: Db) {
  return listColumns(db).select((eb) => [
    eb
      .selectFrom('comments')
      .select(eb.fn.countAll<number>().as('count'))
      .whereRef('comments.repository_id', '=', 'repositories.id')
      .as('comment_count'),
    eb
      .selectFrom('versions')
      .select(eb.fn.countAll<number>().as('count'))
      .whereRef('versions.repository_id', '=', 'repositories.id')
      .as('version_count'),
  ]);
}

/** Every repository the viewer may see, as lists show them. */
export async function listVisibleRepositories(db: Db, viewer: Viewer): Promise<RepositoryListRow[]> {
  const rows = await visibleTo(withCounts(db), viewer).orderBy('repositories.id').execute();
  return rows.map(normalizeCounts);
}

/** One repository as lists show it (with its comment and version counts). */
export async function findSummary(db: Db, id: number): Promise<RepositoryListRow | undefined> {
  const row = await withCounts(db).where('repositories.id', '=', id).executeTakeFirst();
  return row ? normalizeCounts(row) : undefined;
}

export async function listAllRepositories(db: Db): Promise<RepositoryListRow[]> {
  return (await withCounts(db).orderBy('repositories.id').execute()).map(normalizeCounts);
}

/**
 * The comment and version counts as numbers (PostgreSQL's count is int8), written on the row
 * the driver just made rather than on a copy: an export passes 100,000 of them.
 */
export function normalizeCounts<T extends { comment_count: unknown; version_count: unknown }>(
  row: T,
): Omit<T, 'comment_count' | 'version_count'> & { comment_count: number; version_count: number } {
  const counted = row as T & { comment_count: number; version_count: number };
  counted.comment_count = Number(row.comment_count ?? 0);
  counted.version_count = Number(row.version_count ?? 0);
  return counted;
}

export async function findRepositoryWithCounts(db: Db, id: number): Promise<RepositoryDetailRow | undefined> {
  const row = await withCounts(db).where('repositories.id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  return { ...normalizeCounts(row), recent_commits: await findStoredCommits(db, id) };
}
