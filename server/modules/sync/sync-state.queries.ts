import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../../db/migration-helpers.ts';
import type { Database, RepositoryRow } from '../../db/schema.ts';

/**
 * The sync engine's schedule (docs/architecture.md#sync-engine): one `repository_sync_state`
 * row per repository saying when it is next due, who holds it now (a row lease), and how the
 * last attempt went. Nothing is removed while it is worked: a crashed instance's rows stay due
 * and its lease runs out, so another instance takes them.
 */

type Db = Kysely<Database>;

export type SyncResult = 'ok' | 'gone' | 'failed';

/**
 * Leases up to `limit` due repositories (oldest due first) to `owner` until `until`, and
 * returns them. One statement: on PostgreSQL the candidates are picked `FOR UPDATE SKIP
 * LOCKED`, so instances leasing at once take disjoint rows without waiting on each other; on
 * SQLite writes are serialised, so the statement alone is enough. Gone repositories wait for
 * a member's "Update" instead.
 */
export async function leaseDue(
  db: Db,
  options: { owner: string; now: Date; until: Date; limit: number; private: boolean },
): Promise<RepositoryRow[]> {
  const now = options.now.toISOString();
  const candidates = db
    .selectFrom('repository_sync_state as s')
    .innerJoin('repositories as r', 'r.id', 's.repository_id')
    .select('s.repository_id')
    .where('s.due_at', '<=', now)
    .where((eb) => eb.or([eb('s.leased_until', 'is', null), eb('s.leased_until', '<', now)]))
    .where('r.gone', '=', 0)
    .where('r.private', '=', options.private ? 1 : 0)
    .orderBy('s.due_at')
    .orderBy('s.repository_id')
    .limit(options.limit);
  const leased = await db
    .updateTable('repository_sync_state')
    .set({ leased_until: options.until.toISOString(), lease_owner: options.owner })
    .where(
      'repository_id',
      'in',
      isPostgres(db) ? candidates.modifyEnd(sql`for update of s skip locked`) : candidates,
    )
    .returning('repository_id')
    .execute();
  if (leased.length === 0) return [];
  const rows = await db
    .selectFrom('repositories')
    .selectAll()
    .where(
      'id',
      'in',
      leased.map((row) => row.repository_id),
    )
    .execute();
  return rows.sort((a, b) => a.id - b.id);
}

/** Records an attempt's outcome and hands the row back, due again at `dueAt`. */
export async function finishAttempt(
  db: Db,
  repositoryId: number,
  outcome: { owner: string; result: SyncResult; error: string | null; dueAt: Date; at: Date },
): Promise<void> {
  await db
    .updateTable('repository_sync_state')
    .set((eb) => ({
      due_at: outcome.dueAt.toISOString(),
      leased_until: null,
      lease_owner: null,
      last_result: outcome.result,
      last_error: outcome.error?.slice(0, 1000) ?? null,
      last_attempt_at: outcome.at.toISOString(),
      failures: outcome.result === 'failed' ? eb('failures', '+', 1) : 0,
    }))
    .where('repository_id', '=', repositoryId)
    .where('lease_owner', '=', outcome.owner)
    .execute();
}

/** Hands leased rows back untouched but for their due time (GitHub's pace said "later"). */
export async function releaseLeases(
  db: Db,
  owner: string,
  repositoryIds: number[],
  dueAt: Date,
): Promise<void> {
  if (repositoryIds.length === 0) return;
  await db
    .updateTable('repository_sync_state')
    .set({ due_at: dueAt.toISOString(), leased_until: null, lease_owner: null })
    .where('repository_id', 'in', repositoryIds)
    .where('lease_owner', '=', owner)
    .execute();
}

/**
 * Every public repository due now and not leased becomes due at `dueAt`: the shared token's
 * budget is spent, so none of them can be synced before its reset (docs/product.md#background-sync).
 */
export async function deferDuePublic(db: Db, now: Date, dueAt: Date): Promise<number> {
  const at = now.toISOString();
  const result = await db
    .updateTable('repository_sync_state')
    .set({ due_at: dueAt.toISOString() })
    .where('due_at', '<=', at)
    .where((eb) => eb.or([eb('leased_until', 'is', null), eb('leased_until', '<', at)]))
    .where('repository_id', 'in', (eb) =>
      eb.selectFrom('repositories').select('id').where('private', '=', 0).where('gone', '=', 0),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function failuresOf(db: Db, repositoryId: number): Promise<number> {
  const row = await db
    .selectFrom('repository_sync_state')
    .select('failures')
    .where('repository_id', '=', repositoryId)
    .executeTakeFirst();
  return row?.failures ?? 0;
}

/** The admin's view: due and unleased, leased now, and the latest failing repositories. */
export async function scheduleOverview(db: Db, now: Date, errorLimit: number) {
  const at = now.toISOString();
  const counts = await db
    .selectFrom('repository_sync_state as s')
    .innerJoin('repositories as r', 'r.id', 's.repository_id')
    .where('r.gone', '=', 0)
    .select((eb) => [
      eb.fn
        .sum<number | string | null>(
          eb
            .case()
            .when(
              eb.and([
                eb('s.due_at', '<=', at),
                eb.or([eb('s.leased_until', 'is', null), eb('s.leased_until', '<', at)]),
              ]),
            )
            .then(1)
            .else(0)
            .end(),
        )
        .as('queued'),
      eb.fn
        .sum<number | string | null>(eb.case().when('s.leased_until', '>=', at).then(1).else(0).end())
        .as('running'),
    ])
    .executeTakeFirstOrThrow();
  const errors = await db
    .selectFrom('repository_sync_state as s')
    .innerJoin('repositories as r', 'r.id', 's.repository_id')
    .select(['r.id', 'r.full_name', 's.last_error', 's.failures', 's.last_attempt_at', 's.due_at'])
    .where('s.failures', '>', 0)
    .orderBy('s.last_attempt_at', 'desc')
    .orderBy('r.id')
    .limit(errorLimit)
    .execute();
  return { queued: Number(counts.queued ?? 0), running: Number(counts.running ?? 0), errors };
}
