import { type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import { isPostgres } from '../../db/migration-helpers.ts';
import type { Database, RepositoryHistoryTable, RepositoryMetricsTable } from '../../db/schema.ts';
import { recomputeGrowth } from './growth.queries.ts';
import type { StarCount } from './star-history.ts';

/**
 * The star-history backfill's rows (docs/architecture.md#star-history-backfill): one
 * `repository_history` row per repository once the engine or a member touched it (none: never
 * backfilled), and the backfilled `repository_metrics` rows (stars only, `forks` null).
 */

type Db = Kysely<Database>;
export type HistoryRow = Selectable<RepositoryHistoryTable>;

/** Every stored metrics row of a repository, oldest first; backfilled ones carry nulls. */
export async function listMetrics(db: Db, repositoryId: number) {
  return db
    .selectFrom('repository_metrics')
    .select(['day', 'stars', 'forks', 'issues', 'commits', 'contributors', 'health_score'])
    .where('repository_id', '=', repositoryId)
    .orderBy('day')
    .execute();
}

export async function findHistory(db: Db, repositoryId: number): Promise<HistoryRow | undefined> {
  return db
    .selectFrom('repository_history')
    .selectAll()
    .where('repository_id', '=', repositoryId)
    .executeTakeFirst();
}

/** A member asked for the history: due now, their token may be used, earlier failures forgiven. */
export async function requestBackfill(db: Db, repositoryId: number, userId: number, now: string) {
  const values = {
    status: 'pending' as const,
    due_at: now,
    requested_by: userId,
    requested_at: now,
    failures: 0,
    message: null,
    updated_at: now,
  };
  await db
    .insertInto('repository_history')
    .values({ repository_id: repositoryId, ...values })
    .onConflict((conflict) => conflict.column('repository_id').doUpdateSet(values))
    .execute();
}

/**
 * Up to `limit` repositories whose history is due, members' requests first: with `sweep`,
 * also those never backfilled (no row). Gone repositories wait (GitHub no longer answers).
 */
export async function dueRepositories(
  db: Db,
  options: { now: string; sweep: boolean; limit: number; skip: readonly number[] },
): Promise<number[]> {
  const { now } = options;
  let query = db
    .selectFrom('repositories as r')
    .leftJoin('repository_history as h', 'h.repository_id', 'r.id')
    .select('r.id')
    .where('r.gone', '=', 0)
    .where((eb) => {
      const due = eb.and([
        eb('h.due_at', 'is not', null),
        eb('h.due_at', '<=', now),
        eb.or([eb('h.leased_until', 'is', null), eb('h.leased_until', '<', now)]),
      ]);
      return options.sweep ? eb.or([eb('h.repository_id', 'is', null), due]) : due;
    });
  if (options.skip.length > 0) query = query.where('r.id', 'not in', [...options.skip]);
  const rows = await query
    .orderBy(sql`case when h.requested_at is not null and h.status = 'pending' then 0 else 1 end`)
    .orderBy('r.id')
    .limit(options.limit)
    .execute();
  return rows.map((row) => row.id);
}

/**
 * Takes a repository's backfill for `owner` until `until` (a row lease, as the sync engine's):
 * one statement, so two instances never read the same history at once. False when another
 * holds it.
 */
export async function leaseHistory(
  db: Db,
  repositoryId: number,
  lease: { owner: string; now: string; until: string },
): Promise<boolean> {
  // Inserted from the repository's own row: one deleted since it was listed as due is simply
  // not leased (a plain insert would fail its foreign key and the whole run with it).
  const result = await db
    .insertInto('repository_history')
    .columns(['repository_id', 'status', 'due_at', 'leased_until', 'lease_owner', 'failures', 'updated_at'])
    .expression((eb) =>
      eb
        .selectFrom('repositories')
        .select([
          'repositories.id',
          sql.lit('pending').as('status'),
          sql.val(lease.now).as('due_at'),
          sql.val(lease.until).as('leased_until'),
          sql.val(lease.owner).as('lease_owner'),
          sql.lit(0).as('failures'),
          sql.val(lease.now).as('updated_at'),
        ])
        .where('repositories.id', '=', repositoryId),
    )
    .onConflict((conflict) =>
      conflict
        .column('repository_id')
        .doUpdateSet({ leased_until: lease.until, lease_owner: lease.owner })
        .where((eb) =>
          eb.and([
            // Still due: another instance may have finished it since it was picked.
            eb('repository_history.due_at', '<=', lease.now),
            eb.or([
              eb('repository_history.leased_until', 'is', null),
              eb('repository_history.leased_until', '<', lease.now),
            ]),
          ]),
        ),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** Hands the lease back with the outcome (or untouched but for `changes`, when deferred). */
export async function finishHistory(
  db: Db,
  repositoryId: number,
  owner: string,
  changes: Partial<Omit<HistoryRow, 'repository_id' | 'leased_until' | 'lease_owner'>> & {
    updated_at: string;
  },
): Promise<void> {
  await db
    .updateTable('repository_history')
    .set({ ...changes, leased_until: null, lease_owner: null })
    .where('repository_id', '=', repositoryId)
    .where('lease_owner', '=', owner)
    .execute();
}

/** Rows written at a time: 3 parameters each, far below either database's limit. */
const INSERT_CHUNK = 500;

/**
 * Replaces a repository's backfilled rows with `counts` in one transaction. The app's own
 * daily rows win: a day that already has one keeps it (and a later sync of a backfilled day
 * overwrites the backfilled row with every metric). The repository's growth is recomputed from
 * the rows as they now are (growth.queries.ts).
 */
export async function replaceBackfilledRows(
  db: Db,
  repositoryId: number,
  counts: readonly StarCount[],
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    // The repository may have been deleted while GitHub was read: then there is nothing to write.
    // (Locked on PostgreSQL, so it can't go between this check and the inserts.)
    let exists = trx.selectFrom('repositories').select('id').where('id', '=', repositoryId);
    if (isPostgres(trx)) exists = exists.forUpdate();
    if (!(await exists.executeTakeFirst())) return false;
    await trx
      .deleteFrom('repository_metrics')
      .where('repository_id', '=', repositoryId)
      .where('forks', 'is', null)
      .execute();
    for (let start = 0; start < counts.length; start += INSERT_CHUNK) {
      await trx
        .insertInto('repository_metrics')
        .values(
          counts
            .slice(start, start + INSERT_CHUNK)
            .map((count) => ({ repository_id: repositoryId, day: count.day, stars: count.stars })),
        )
        .onConflict((conflict) => conflict.columns(['repository_id', 'day']).doNothing())
        .execute();
    }
    await recomputeGrowth(trx, repositoryId);
    return true;
  });
}

/** Jobs other than `kind` that are due now or running: the engine has something more urgent. */
export async function otherJobsDue(db: Db, kind: string, now: string): Promise<boolean> {
  const row = await db
    .selectFrom('jobs')
    .select('id')
    .where('status', '=', 'pending')
    .where('run_at', '<=', now)
    .where('kind', '<>', kind)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Repositories the sync engine should refresh now (due, or being refreshed). */
export async function syncDue(db: Db, now: string): Promise<boolean> {
  const row = await db
    .selectFrom('repository_sync_state as s')
    .innerJoin('repositories as r', 'r.id', 's.repository_id')
    .select('s.repository_id')
    .where('s.due_at', '<=', now)
    .where('r.gone', '=', 0)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The day's metrics of a repository (one row per repository and day; a later write the same day wins). */
export async function upsertDailyMetrics(db: Db, metrics: Insertable<RepositoryMetricsTable>): Promise<void> {
  const { repository_id: _id, day: _day, ...values } = metrics;
  await db
    .insertInto('repository_metrics')
    .values(metrics)
    .onConflict((oc) => oc.columns(['repository_id', 'day']).doUpdateSet(values))
    .execute();
}
