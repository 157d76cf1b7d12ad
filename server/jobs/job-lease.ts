import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Cron } from 'croner';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * Claims one scheduled run of a job for this instance (croner with a database lease,
 * docs/architecture.md#server). Every instance computes the same `runAt` from the same cron pattern, so the
 * lease row says "the run at or before `until` is taken": a claim succeeds only when the row is missing or
 * its `expires_at` is at or before this run's scheduled time. One statement, so of several instances ticking
 * at once exactly one wins, on SQLite and on PostgreSQL.
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

/** The scheduled time of the tick that fired at `firedAt` (croner fires a few ms late). */
export function scheduledTimeOf(cron: Cron, firedAt: Date): Date {
  return cron.previousRuns(1, new Date(firedAt.getTime() + 1))[0] ?? firedAt;
}

export interface ScheduledTick {
  /** This instance, as the lease row names it. */
  holder: string;
  runAt: Date;
  until: Date;
}

/**
 * Runs `job.run` on a cron pattern while the app is up (the scheduled backup and repository
 * sync): starts when the app is ready, stops (waiting for a run in progress) when it closes.
 * Every instance ticks; `run` claims the tick (`claimScheduledRun`), so one of them does the work.
 */
export function scheduleRuns<T>(
  app: FastifyInstance,
  job: {
    name: string;
    pattern: string;
    /** The lease's length when the pattern names no next run. */
    fallbackMs: number;
    run: (tick: ScheduledTick) => Promise<T>;
    /** Logs the outcome of a run. */
    done: (outcome: T) => void;
    failed: string;
  },
): void {
  const holder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  let cron: Cron | undefined;
  let running: Promise<void> = Promise.resolve();

  app.addHook('onReady', async () => {
    cron = new Cron(job.pattern, { protect: true, unref: true }, (self: Cron) => {
      const firedAt = app.clock.now();
      const runAt = scheduledTimeOf(self, firedAt);
      const until = self.nextRun(firedAt) ?? new Date(runAt.getTime() + job.fallbackMs);
      running = job
        .run({ holder, runAt, until })
        .then(job.done, (error: unknown) => app.log.error({ err: error, job: job.name }, job.failed));
      return running;
    });
  });

  app.addHook('onClose', async () => {
    cron?.stop();
    await running;
  });
}
