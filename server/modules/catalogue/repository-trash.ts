import type { Kysely } from 'kysely';
import { inTransaction } from '../../db/database.ts';
import type { Database, RepositoriesTable, RepositoryRow } from '../../db/schema.ts';
import { addMs } from '../../lib/clock.ts';
import { findRepositoryById, scheduleAt } from '../../repository/repository.queries.ts';
import { deleteDerivedRows, writeDerivedRows } from '../../repository/repository-labels.ts';

type Db = Kysely<Database>;

/** How long a deletion can be undone (docs/product.md#undo-delete). */
export const UNDO_DELETE_MS = 30_000;

/**
 * Every table whose rows belong to one repository (a `repository_id` column, cascading from
 * `repositories`), in restore order: a table after the tables it references. Derived rows (tags,
 * topics, the search index, the sync schedule) are rebuilt instead. A test compares this list
 * with the schema, so a new table can't be forgotten.
 */
export const REPOSITORY_OWNED_TABLES = [
  'repository_commits',
  'repository_health',
  'repository_aliases',
  'repository_access',
  'comments',
  'versions',
  'repository_release_tracking',
  'repository_releases',
  'repository_packages',
  'repository_advisory_reads',
  'repository_advisories',
  'repository_metrics',
  'repository_history',
  'repository_events',
  'decision_proposals',
  'repository_decisions',
  'repository_decision_current',
  'decision_votes',
  'decision_proposal_comments',
  'radar_at_risk_marks',
] as const;

/**
 * Tables that name a repository but outlive it, never trashed: a radar edition's own copies of
 * its entries (docs/product.md#the-radar), whose `repository_id` has no foreign key.
 */
export const OUTLIVING_TABLES: readonly string[] = ['radar_edition_entries'];

type Snapshot = { repository: Record<string, unknown> } & Record<string, Record<string, unknown>[]>;

/**
 * Deletes a repository, keeping its rows for UNDO_DELETE_MS so `restoreDeleted` can put them back
 * exactly (ids included). One transaction: the deletion and its trash row exist together.
 */
export async function deleteToTrash(
  db: Db,
  repositoryId: number,
  deletedBy: number,
  now: Date,
  /** Runs inside the deletion's transaction, with the row as it was (the bus's `repository.deleted`). */
  inside: (trx: Db, repository: RepositoryRow) => Promise<void>,
): Promise<void> {
  await inTransaction(db, async (trx) => {
    const repository = await trx
      .selectFrom('repositories')
      .selectAll()
      .where('id', '=', repositoryId)
      .executeTakeFirst();
    if (!repository) return;
    const snapshot: Record<string, unknown> = { repository };
    for (const table of REPOSITORY_OWNED_TABLES) {
      // biome-ignore lint/suspicious/noExplicitAny: the table list is checked against the schema by a test
      snapshot[table] = await (trx as Kysely<any>)
        .selectFrom(table)
        .selectAll()
        .where('repository_id', '=', repositoryId)
        .execute();
    }
    await trx
      .insertInto('repository_trash')
      .values({
        repository_id: repositoryId,
        full_name_lower: repository.full_name.toLowerCase(),
        deleted_by: deletedBy,
        deleted_at: now.toISOString(),
        expires_at: addMs(now, UNDO_DELETE_MS).toISOString(),
        rows: JSON.stringify(snapshot),
      })
      .execute();
    await deleteDerivedRows(trx, repositoryId);
    await trx.deleteFrom('repositories').where('id', '=', repositoryId).execute();
    await inside(trx, repository);
  });
}

/**
 * The newest deletion of `fullName` that can still be undone by `deletedBy` (any member's for
 * an admin: null), or undefined. Another member's deletion is never read, not even its kept
 * rows: the same one query, with nothing found, as for a name that was never deleted (issue 22,
 * item 4).
 */
export function findUndoable(db: Db, fullName: string, now: Date, deletedBy: number | null) {
  let query = db
    .selectFrom('repository_trash')
    .select(['id', 'repository_id', 'deleted_by'])
    .where('full_name_lower', '=', fullName.toLowerCase())
    .where('expires_at', '>', now.toISOString());
  if (deletedBy !== null) query = query.where('deleted_by', '=', deletedBy);
  return query.orderBy('id', 'desc').executeTakeFirst();
}

/** Puts a deleted repository back with every row it had; false when its id was taken meanwhile. */
export async function restoreDeleted(
  db: Db,
  trashId: number,
  now: Date,
  /** Runs inside the restore's transaction, with the row back (the bus's `repository.restored`). */
  inside: (trx: Db, repository: RepositoryRow) => Promise<void>,
): Promise<number | null> {
  return inTransaction(db, async (trx) => {
    const trash = await trx
      .selectFrom('repository_trash')
      .selectAll()
      .where('id', '=', trashId)
      .executeTakeFirst();
    if (!trash) return null;
    const snapshot = JSON.parse(trash.rows) as Snapshot;
    // Kept before stored commits had their own table (migration 2026-11-28-0300): moved there.
    const { recent_commits: keptCommits, ...kept } = snapshot.repository;
    const repository = kept as unknown as RepositoriesTable & { id: number };
    if (typeof keptCommits === 'string' && keptCommits !== '[]')
      snapshot.repository_commits = [{ repository_id: repository.id, commits: keptCommits }];
    // biome-ignore lint/suspicious/noExplicitAny: rows come back as they were read
    const anyTrx = trx as Kysely<any>;
    // The comment and version counts come back with their rows (the triggers count them in).
    await anyTrx
      .insertInto('repositories')
      .values({ ...repository, comment_count: 0, version_count: 0 })
      .execute();
    for (const table of REPOSITORY_OWNED_TABLES) {
      const rows = snapshot[table] ?? [];
      for (let start = 0; start < rows.length; start += 200) {
        await anyTrx
          .insertInto(table)
          .values(rows.slice(start, start + 200))
          .execute();
      }
    }
    await writeDerivedRows(trx, {
      id: repository.id,
      full_name: repository.full_name,
      name: repository.name,
      description: repository.description,
      tags: repository.tags,
      topics: repository.topics,
      license: repository.license,
    });
    await scheduleAt(trx, repository.id, now);
    await trx.deleteFrom('repository_trash').where('id', '=', trashId).execute();
    const restored = await findRepositoryById(trx, repository.id);
    if (restored) await inside(trx, restored);
    return repository.id;
  });
}

/** Deletions past their undo time are gone for good. */
export async function purgeExpiredTrash(db: Db, now: Date): Promise<void> {
  await db.deleteFrom('repository_trash').where('expires_at', '<=', now.toISOString()).execute();
}
