import type { Kysely } from 'kysely';
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
  'repositories.comment_count',
  'repositories.version_count',
  'repositories.decision_status',
  'repositories.decision_quadrant',
] as const;

/**
 * What the CSV export reads: the columns its records write (`RepositoryExportRow`), no more:
 * 36 of the list's 40, less for the driver to parse on every one of 100,000 rows (PostgreSQL,
 * 100,000 rows in batches of 2,000: 1.01–1.25 s against 1.30–1.49 s with the list's columns).
 */
const NOT_EXPORTED: readonly string[] = [
  'repositories.github_id',
  'repositories.user_id',
  'repositories.default_branch',
  'repositories.updated_at',
];
const EXPORT_COLUMNS = LIST_COLUMNS.filter((column) => !NOT_EXPORTED.includes(column));

/** The list's columns, the export's, or only the ids (the export on PostgreSQL, copy-export.ts). */
export type RowColumns = 'list' | 'export' | 'ids';

/**
 * The list's columns of `repositories` (or the export's, or the id). Typed as the list's: the
 * others are read as `RepositoryExportRow` or `{ id }`.
 */
export function listColumns(db: Db, columns: RowColumns = 'list') {
  const selected = db.selectFrom('repositories').select(LIST_COLUMNS);
  if (columns === 'list') return selected;
  const other =
    columns === 'export'
      ? db.selectFrom('repositories').select(EXPORT_COLUMNS)
      : db.selectFrom('repositories').select('repositories.id');
  return other as unknown as typeof selected;
}

/** Every repository the viewer may see, as lists show them. */
export async function listVisibleRepositories(db: Db, viewer: Viewer): Promise<RepositoryListRow[]> {
  return visibleTo(listColumns(db), viewer).orderBy('repositories.id').execute();
}

/** One repository as lists show it (with its comment and version counts). */
export async function findSummary(db: Db, id: number): Promise<RepositoryListRow | undefined> {
  return listColumns(db).where('repositories.id', '=', id).executeTakeFirst();
}

export async function listAllRepositories(db: Db): Promise<RepositoryListRow[]> {
  return listColumns(db).orderBy('repositories.id').execute();
}

export async function findRepositoryWithCounts(db: Db, id: number): Promise<RepositoryDetailRow | undefined> {
  const row = await listColumns(db).where('repositories.id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  return { ...row, recent_commits: await findStoredCommits(db, id) };
}
