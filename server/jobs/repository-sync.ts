import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { SYNC_DUE_JOB } from '../modules/sync/sync.jobs.ts';
import { claimScheduledRun, type ScheduledTick, scheduleRuns } from './job-lease.ts';
import { countWaitingJobs } from './job-queue.queries.ts';

/** The tick's lease name: one instance per tick wakes the engine. */
export const SYNC_TICK_NAME = 'repositories:sync';

/**
 * One tick of the sync engine (docs/architecture.md#sync-engine): the instance that claims it
 * enqueues a run unless one is still waiting for a worker, so ticks never pile up. A run in
 * progress doesn't stop a new one (row leases keep them apart), so neither does a run whose
 * instance crashed. Returns the job id, 0 when a run was already waiting, or null when another
 * instance had the tick.
 */
export async function runScheduledSync(
  app: Pick<FastifyInstance, 'db' | 'services' | 'clock'>,
  tick: ScheduledTick,
): Promise<number | null> {
  if (!(await claimScheduledRun(app.db, { name: SYNC_TICK_NAME, ...tick }))) return null;
  if ((await countWaitingJobs(app.db, SYNC_DUE_JOB, app.clock.now())) > 0) return 0;
  return app.services.jobs.enqueue(SYNC_DUE_JOB, {});
}

/** Ticks on SYNC_SCHEDULE (default every minute; `off` disables the engine's schedule). */
async function repositorySync(app: FastifyInstance) {
  const pattern = app.config.syncSchedule.trim();
  if (pattern.toLowerCase() === 'off') return;
  scheduleRuns(app, {
    name: SYNC_TICK_NAME,
    pattern,
    fallbackMs: 60_000,
    run: (tick) => runScheduledSync(app, tick),
    done: () => {},
    failed: 'the sync engine could not be woken',
  });
}

export default fp(repositorySync, { name: 'repository-sync', dependencies: ['database'] });
