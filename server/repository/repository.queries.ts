import { type Insertable, type Kysely, sql, type Updateable } from 'kysely';
import type { Commit } from '#shared/schemas/repositories.ts';
import { inTransaction } from '../db/database.ts';
import type { Database, RepositoriesTable, RepositoryRow } from '../db/schema.ts';
import { changesDerivedRows, deleteDerivedRows, writeDerivedRows } from './repository-labels.ts';

type Db = Kysely<Database>;

export async function findRepositoryById(db: Db, id: number): Promise<RepositoryRow | undefined> {
  return db.selectFrom('repositories').selectAll().where('id', '=', id).executeTakeFirst();
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
    .orderBy('user_id')
    .execute();
  const ids = rows.map((row) => row.user_id);
  return first !== null && ids.includes(first) ? [first, ...ids.filter((id) => id !== first)] : ids;
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

/**
 * A new repository with its derived rows (every write keeps the tag, topic and search rows in
 * step) and its place on the sync engine's schedule, next due at `nextSyncAt`, in one transaction.
 */
export async function insertRepository(db: Db, row: NewRepository, nextSyncAt: Date): Promise<RepositoryRow> {
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

/** Puts a repository on the sync engine's schedule, or moves its due time (a queued "Update", an import). */
export async function scheduleAt(db: Db, repositoryId: number, dueAt: Date): Promise<void> {
  const due = dueAt.toISOString();
  await db
    .insertInto('repository_sync_state')
    .values({ repository_id: repositoryId, due_at: due, failures: 0 })
    .onConflict((conflict) => conflict.column('repository_id').doUpdateSet({ due_at: due }))
    .execute();
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

/** The recent commits a sync stored for a repository, as JSON (`[]` when none were). */
export async function findStoredCommits(db: Db, repositoryId: number): Promise<string> {
  const row = await db
    .selectFrom('repository_commits')
    .select('commits')
    .where('repository_id', '=', repositoryId)
    .executeTakeFirst();
  return row?.commits ?? '[]';
}

/**
 * Stores a sync's recent commits (their own table: docs/decisions.md, "Stored commits in their
 * own table"). Unchanged commits are not written again, and none leave no row.
 */
export async function saveStoredCommits(db: Db, repositoryId: number, commits: Commit[]): Promise<void> {
  if (commits.length === 0) {
    await db.deleteFrom('repository_commits').where('repository_id', '=', repositoryId).execute();
    return;
  }
  const json = JSON.stringify(commits);
  await db
    .insertInto('repository_commits')
    .values({ repository_id: repositoryId, commits: json })
    .onConflict((oc) =>
      oc
        .column('repository_id')
        .doUpdateSet({ commits: json })
        .where('repository_commits.commits', '<>', json),
    )
    .execute();
}

export async function addAlias(db: Db, repositoryId: number, formerFullName: string): Promise<void> {
  await db
    .insertInto('repository_aliases')
    .values({ full_name_lower: formerFullName.toLowerCase(), repository_id: repositoryId })
    .onConflict((oc) => oc.column('full_name_lower').doUpdateSet({ repository_id: repositoryId }))
    .execute();
}

/** A member's username, to name who did something ('' when the account is gone). */
export async function findUsername(db: Db, userId: number): Promise<string> {
  const row = await db.selectFrom('users').select('username').where('id', '=', userId).executeTakeFirst();
  return row?.username ?? '';
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
