import {
  type Insertable,
  type Kysely,
  type Selectable,
  type SelectQueryBuilder,
  sql,
  type Updateable,
} from 'kysely';
import type {
  CommentsTable,
  Database,
  RepositoriesTable,
  RepositoryMetricsTable,
  VersionsTable,
} from '../db/schema.ts';
import {
  changesDerivedRows,
  deleteDerivedRows,
  inTransaction,
  writeDerivedRows,
} from './repository-labels.ts';
import { scheduleAt } from '../modules/sync/sync-state.queries.ts';

type Db = Kysely<Database>;
export type RepositoryRow = Selectable<RepositoriesTable>;
/**
 * A repository as lists, pages and exports read it: every column but the stored recent commits
 * and ETags (kilobytes a row that only the detail screen and the sync engine need), with its
 * comment and version counts.
 */
export type RepositoryListRow = Omit<RepositoryRow, 'recent_commits' | 'etags'> & {
  comment_count: number;
  version_count: number;
};
/** The detail screen's row: a list row with its recent commits. */
export type RepositoryDetailRow = RepositoryListRow & { recent_commits: string };

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
] as const;

/** The caller as visibility rules see it (docs/product.md#roles-and-visibility). */
export interface Viewer {
  id: number;
  is_admin: boolean;
}

/** Public repositories, plus private ones the viewer proved access to; admins see all. */
export function visibleTo<O>(query: SelectQueryBuilder<Database, 'repositories', O>, viewer: Viewer) {
  if (viewer.is_admin) return query;
  return query.where((eb) =>
    eb.or([
      eb('repositories.private', '=', 0),
      eb.exists(
        eb
          .selectFrom('repository_access')
          .select('repository_access.user_id')
          .whereRef('repository_access.repository_id', '=', 'repositories.id')
          .where('repository_access.user_id', '=', viewer.id),
      ),
    ]),
  );
}

export function withCounts(db: Db) {
  return db
    .selectFrom('repositories')
    .select(LIST_COLUMNS)
    .select((eb) => [
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

export function normalizeCounts<T extends { comment_count: unknown; version_count: unknown }>(row: T) {
  return {
    ...row,
    comment_count: Number(row.comment_count ?? 0),
    version_count: Number(row.version_count ?? 0),
  };
}

export async function findRepositoryById(db: Db, id: number): Promise<RepositoryRow | undefined> {
  return db.selectFrom('repositories').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The member background work acts for, while their account is active; else undefined. */
export async function findActiveViewer(db: Db, userId: number): Promise<Viewer | undefined> {
  const user = await db
    .selectFrom('users')
    .select(['id', 'is_admin'])
    .where('id', '=', userId)
    .where('is_active', '=', 1)
    .executeTakeFirst();
  return user ? { id: user.id, is_admin: user.is_admin === 1 } : undefined;
}

/** By current or former full name (renames keep old ids working), case-insensitively. */
export async function findRepositoryByName(db: Db, fullName: string): Promise<RepositoryRow | undefined> {
  const lower = fullName.toLowerCase();
  const direct = await db
    .selectFrom('repositories')
    .selectAll()
    .where(sql`lower(full_name)`, '=', lower)
    .executeTakeFirst();
  if (direct) return direct;
  return db
    .selectFrom('repository_aliases')
    .innerJoin('repositories', 'repositories.id', 'repository_aliases.repository_id')
    .selectAll('repositories')
    .where('repository_aliases.full_name_lower', '=', lower)
    .executeTakeFirst();
}

export async function findRepositoryByGithubId(db: Db, githubId: number): Promise<RepositoryRow | undefined> {
  return db.selectFrom('repositories').selectAll().where('github_id', '=', githubId).executeTakeFirst();
}

export async function findRepositoryWithCounts(db: Db, id: number): Promise<RepositoryDetailRow | undefined> {
  const row = await withCounts(db)
    .select('repositories.recent_commits')
    .where('repositories.id', '=', id)
    .executeTakeFirst();
  return row ? normalizeCounts(row) : undefined;
}

/** Members who proved access to a repository, the one named first. */
export async function listAccessHolders(
  db: Db,
  repositoryId: number,
  first: number | null,
): Promise<number[]> {
  const rows = await db
    .selectFrom('repository_access')
    .select('user_id')
    .where('repository_id', '=', repositoryId)
    .execute();
  const ids = rows.map((row) => row.user_id);
  return first !== null && ids.includes(first) ? [first, ...ids.filter((id) => id !== first)] : ids;
}

export async function hasAccess(db: Db, repositoryId: number, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('repository_access')
    .select('user_id')
    .where('repository_id', '=', repositoryId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function grantAccess(db: Db, repositoryId: number, userId: number, now: string): Promise<void> {
  await db
    .insertInto('repository_access')
    .values({ repository_id: repositoryId, user_id: userId, granted_at: now })
    .onConflict((oc) => oc.columns(['repository_id', 'user_id']).doNothing())
    .execute();
}

/** The member no longer proves access (their token can't read it, or is gone). */
export async function revokeAccess(db: Db, repositoryId: number, userId: number): Promise<void> {
  await db
    .deleteFrom('repository_access')
    .where('repository_id', '=', repositoryId)
    .where('user_id', '=', userId)
    .execute();
}

/** Every private repository the member proved access to, when their token is removed. */
export async function revokeAllAccess(db: Db, userId: number): Promise<void> {
  await db.deleteFrom('repository_access').where('user_id', '=', userId).execute();
}

export type NewRepository = Insertable<RepositoriesTable>;

/** Every write keeps the derived tag, topic and search rows in step, in the same transaction. */
/**
 * A new repository with its derived rows and its place on the sync engine's schedule (next due
 * at `nextSyncAt`, a day from now unless the caller says otherwise), in one transaction.
 */
export async function insertRepository(
  db: Db,
  row: NewRepository,
  nextSyncAt = new Date(Date.now() + 24 * 3600_000),
): Promise<RepositoryRow> {
  return inTransaction(db, async (trx) => {
    const inserted = await trx
      .insertInto('repositories')
      .values(row)
      .returningAll()
      .executeTakeFirstOrThrow();
    await writeDerivedRows(trx, inserted);
    await scheduleAt(trx, inserted.id, nextSyncAt);
    return inserted;
  });
}

export async function updateRepository(
  db: Db,
  id: number,
  changes: Updateable<RepositoriesTable>,
): Promise<RepositoryRow> {
  const update = (trx: Db) =>
    trx
      .updateTable('repositories')
      .set(changes)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  const columns = Object.keys(changes);
  if (!changesDerivedRows(columns)) return update(db);
  return inTransaction(db, async (trx) => {
    const updated = await update(trx);
    await writeDerivedRows(trx, updated, columns);
    return updated;
  });
}

export async function deleteRepository(db: Db, id: number): Promise<void> {
  await inTransaction(db, async (trx) => {
    await deleteDerivedRows(trx, id);
    await trx.deleteFrom('repositories').where('id', '=', id).execute();
  });
}

export async function addAlias(db: Db, repositoryId: number, formerFullName: string): Promise<void> {
  await db
    .insertInto('repository_aliases')
    .values({ full_name_lower: formerFullName.toLowerCase(), repository_id: repositoryId })
    .onConflict((oc) => oc.column('full_name_lower').doUpdateSet({ repository_id: repositoryId }))
    .execute();
}

export async function upsertDailyMetrics(db: Db, metrics: Insertable<RepositoryMetricsTable>): Promise<void> {
  const { repository_id: _id, day: _day, ...values } = metrics;
  await db
    .insertInto('repository_metrics')
    .values(metrics)
    .onConflict((oc) => oc.columns(['repository_id', 'day']).doUpdateSet(values))
    .execute();
}

// ---- comments and versions -----------------------------------------------------------------

export async function listComments(db: Db, repositoryId: number) {
  return db
    .selectFrom('comments')
    .select(['id', 'author', 'comment', 'created_at', 'user_id'])
    .where('repository_id', '=', repositoryId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function insertComment(db: Db, comment: Insertable<CommentsTable>) {
  return db
    .insertInto('comments')
    .values(comment)
    .returning(['id', 'author', 'comment', 'created_at', 'user_id'])
    .executeTakeFirstOrThrow();
}

const versionColumns = [
  'id',
  'version_number',
  'release_date',
  'description',
  'created_at',
  'source',
  'release_url',
] as const;

export async function listVersions(db: Db, repositoryId: number) {
  return db
    .selectFrom('versions')
    .select(versionColumns)
    .where('repository_id', '=', repositoryId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function insertVersion(db: Db, version: Insertable<VersionsTable>) {
  return db.insertInto('versions').values(version).returning(versionColumns).executeTakeFirstOrThrow();
}

export async function findVersionSnapshot(db: Db, repositoryId: number, versionId: number) {
  // The query string takes any safe integer, but ids are PostgreSQL `integer`s: one out of that
  // range names no version, and sending it would fail the query ("out of range", a 500).
  // Found by server/fuzz.property.test.ts under TEST_DB=postgres.
  if (!Number.isInteger(versionId) || versionId < 1 || versionId > 2_147_483_647) return undefined;
  return db
    .selectFrom('versions')
    .select(['id', 'snapshot'])
    .where('repository_id', '=', repositoryId)
    .where('id', '=', versionId)
    .executeTakeFirst();
}

/** Members with a GitHub token of their own, by id (the sync overview names their tokens). */
export async function listTokenHolders(db: Db, limit: number): Promise<{ id: number; username: string }[]> {
  return db
    .selectFrom('users')
    .select(['id', 'username'])
    .where('github_token_enc', 'is not', null)
    .orderBy('id')
    .limit(limit)
    .execute();
}
