import type { Cron } from 'croner';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * Claims one scheduled run of a job for this instance (ARCHITECTURE: croner with a database
 * lease). Every instance computes the same `runAt` from the same cron pattern, so the lease
 * row says "the run at or before `until` is taken": a claim succeeds only when the row is
 * missing or its `expires_at` is at or before this run's scheduled time. One statement, so of
 * several instances ticking at once exactly one wins, on SQLite and on PostgreSQL.
 */
export async function claimScheduledRun(
  db: Kysely<Database>,
  job: { name: string; holder: string; runAt: Date; until: Date },
): Promise<boolean> {
  const runAt = job.runAt.toISOString();
  const until = job.until.toISOString();
  const result = await db
    .insertInto('job_leases')
    .values({ name: job.name, holder: job.holder, expires_at: until })
    .onConflict((conflict) =>
      conflict
        .column('name')
        .doUpdateSet({ holder: job.holder, expires_at: until })
        .where('job_leases.expires_at', '<=', runAt),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/**
 * A time-limited lease for work that is not tied to a cron tick: taken when free, expired, or
 * already ours (renewal). Returns whether this holder has it now.
 */
export async function acquireLease(
  db: Kysely<Database>,
  lease: { name: string; holder: string; now: Date; ttlSeconds: number },
): Promise<boolean> {
  const now = lease.now.toISOString();
  const until = new Date(lease.now.getTime() + lease.ttlSeconds * 1000).toISOString();
  const result = await db
    .insertInto('job_leases')
    .values({ name: lease.name, holder: lease.holder, expires_at: until })
    .onConflict((conflict) =>
      conflict
        .column('name')
        .doUpdateSet({ holder: lease.holder, expires_at: until })
        .where((eb) =>
          eb.or([eb('job_leases.expires_at', '<=', now), eb('job_leases.holder', '=', lease.holder)]),
        ),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

export async function releaseLease(db: Kysely<Database>, name: string, holder: string): Promise<void> {
  await db.deleteFrom('job_leases').where('name', '=', name).where('holder', '=', holder).execute();
}

/** The scheduled time of the tick that fired at `firedAt` (croner fires a few ms late). */
export function scheduledTimeOf(cron: Cron, firedAt: Date): Date {
  return cron.previousRuns(1, new Date(firedAt.getTime() + 1))[0] ?? firedAt;
}
