import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Dialect } from '../db/database.ts';
import type { Database, JobsTable } from '../db/schema.ts';

type Db = Kysely<Database> | Transaction<Database>;
export type JobRow = Selectable<JobsTable>;

export async function insertJob(
  db: Db,
  job: { kind: string; payload: string; runAt: string; maxAttempts: number; now: string },
): Promise<number> {
  const row = await db
    .insertInto('jobs')
    .values({
      kind: job.kind,
      payload: job.payload,
      status: 'pending',
      run_at: job.runAt,
      attempts: 0,
      max_attempts: job.maxAttempts,
      created_at: job.now,
      updated_at: job.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Takes up to `limit` due jobs of the given kinds for `owner` until `leaseUntil`, counting the
 * attempt. Due: pending, `run_at` reached, and no live lease (a lease left by a crashed or
 * stopped worker has expired, so its job is taken again).
 *
 * PostgreSQL: the candidate rows are locked `FOR UPDATE SKIP LOCKED`, so concurrent workers
 * each get different rows without waiting on one another; a row another worker claimed and
 * committed meanwhile fails the re-checked condition. SQLite: the one UPDATE … RETURNING is its
 * own transaction and SQLite runs one writer at a time, so two workers (in one process or
 * several on one file) can never both see a row as free.
 */
export async function claimDueJobs(
  db: Kysely<Database>,
  dialect: Dialect,
  claim: { owner: string; now: string; leaseUntil: string; kinds: string[]; limit: number },
): Promise<JobRow[]> {
  if (claim.kinds.length === 0 || claim.limit <= 0) return [];
  let due = db
    .selectFrom('jobs')
    .select('id')
    .where('status', '=', 'pending')
    .where('run_at', '<=', claim.now)
    .where('kind', 'in', claim.kinds)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', claim.now)]))
    .orderBy('run_at')
    .orderBy('id')
    .limit(claim.limit);
  if (dialect === 'postgres') due = due.forUpdate().skipLocked();
  return db
    .updateTable('jobs')
    .set((eb) => ({
      lease_owner: claim.owner,
      lease_until: claim.leaseUntil,
      attempts: eb('attempts', '+', 1),
      updated_at: claim.now,
    }))
    .where('id', 'in', due)
    .returningAll()
    .execute();
}

/** Only the claim that holds the lease may record an outcome: same owner, same attempt. */
type Claim = { id: number; owner: string; attempts: number };

export async function deleteClaimedJob(db: Db, claim: Claim): Promise<boolean> {
  const result = await db
    .deleteFrom('jobs')
    .where('id', '=', claim.id)
    .where('lease_owner', '=', claim.owner)
    .where('attempts', '=', claim.attempts)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export async function finishClaimedJob(
  db: Db,
  claim: Claim,
  outcome: { status: 'succeeded' | 'failed'; error: string | null; now: string; erasePayload: boolean },
): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({
      status: outcome.status,
      last_error: outcome.error,
      lease_owner: null,
      lease_until: null,
      finished_at: outcome.now,
      updated_at: outcome.now,
      ...(outcome.erasePayload ? { payload: 'null' } : {}),
    })
    .where('id', '=', claim.id)
    .where('lease_owner', '=', claim.owner)
    .where('attempts', '=', claim.attempts)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function rescheduleClaimedJob(
  db: Db,
  claim: Claim,
  retry: { runAt: string; error: string | null; now: string; refundAttempt?: boolean },
): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set((eb) => ({
      run_at: retry.runAt,
      last_error: retry.error,
      lease_owner: null,
      lease_until: null,
      updated_at: retry.now,
      // Put back for a reason that is not the job's (GitHub's pace): the attempt doesn't count.
      ...(retry.refundAttempt ? { attempts: eb('attempts', '-', 1) } : {}),
    }))
    .where('id', '=', claim.id)
    .where('lease_owner', '=', claim.owner)
    .where('attempts', '=', claim.attempts)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Finished rows (kept as a record of the outcome) older than `before`. */
export async function pruneFinishedJobs(db: Db, before: string): Promise<number> {
  const result = await db
    .deleteFrom('jobs')
    .where('status', 'in', ['succeeded', 'failed'])
    .where('finished_at', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Jobs not finished yet (waiting or running), of one kind or of every kind. */
export async function countPendingJobs(db: Db, kind?: string): Promise<number> {
  let query = db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('status', '=', 'pending');
  if (kind) query = query.where('kind', '=', kind);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Jobs of `kind` waiting for a worker: pending and not held by a live lease. */
export async function countWaitingJobs(db: Db, kind: string, now: Date): Promise<number> {
  const at = now.toISOString();
  const row = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('status', '=', 'pending')
    .where('kind', '=', kind)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', at)]))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Per kind: jobs waiting for a worker, running under a live lease, and failed for good since `since`. */
export async function summarizeJobsByKind(
  db: Db,
  now: Date,
  since: Date,
): Promise<{ kind: string; waiting: number; running: number; failed: number }[]> {
  const at = now.toISOString();
  const rows = await db
    .selectFrom('jobs')
    .select((eb) => [
      'kind',
      eb.fn
        .sum<number | string>(
          eb
            .case()
            .when(
              eb.and([
                eb('status', '=', 'pending'),
                eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', at)]),
              ]),
            )
            .then(1)
            .else(0)
            .end(),
        )
        .as('waiting'),
      eb.fn
        .sum<number | string>(
          eb
            .case()
            .when(eb.and([eb('status', '=', 'pending'), eb('lease_until', '>=', at)]))
            .then(1)
            .else(0)
            .end(),
        )
        .as('running'),
      eb.fn
        .sum<number | string>(
          eb
            .case()
            .when(eb.and([eb('status', '=', 'failed'), eb('finished_at', '>=', since.toISOString())]))
            .then(1)
            .else(0)
            .end(),
        )
        .as('failed'),
    ])
    .where((eb) =>
      eb.or([
        eb('status', '=', 'pending'),
        eb.and([eb('status', '=', 'failed'), eb('finished_at', '>=', since.toISOString())]),
      ]),
    )
    .groupBy('kind')
    .execute();
  return rows.map((row) => ({
    kind: row.kind,
    waiting: Number(row.waiting ?? 0),
    running: Number(row.running ?? 0),
    failed: Number(row.failed ?? 0),
  }));
}
