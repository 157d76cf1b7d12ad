import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { claimScheduledRun, type ScheduledTick, scheduleRuns } from './job-lease.ts';

export const SYNC_JOB_NAME = 'repositories:sync';
/** Repositories synced more recently than this are left alone: one refresh a day is the goal. */
export const SYNC_STALE_AFTER_HOURS = 20;
/** Background work spends at most this share of an hour's quota; the rest is for members. */
export const SYNC_QUOTA_BUDGET = 0.5;

/**
 * One scheduled refresh (docs/product.md#background-work): the instance that claims this tick refreshes every
 * repository not synced for 20 hours, oldest first, within half the quota, so the history
 * chart gets a point a day without anyone pressing "Update". Returns the outcome, or null when
 * another instance had the tick.
 */
export async function runScheduledSync(
  app: Pick<FastifyInstance, 'db' | 'services' | 'clock'>,
  tick: ScheduledTick,
) {
  if (!(await claimScheduledRun(app.db, { name: SYNC_JOB_NAME, ...tick }))) return null;
  const cutoff = new Date(app.clock.now().getTime() - SYNC_STALE_AFTER_HOURS * 3600 * 1000);
  return app.services.sync.syncStale(cutoff, SYNC_QUOTA_BUDGET);
}

/** Runs `runScheduledSync` on SYNC_SCHEDULE (default hourly at :17; `off` disables). */
async function repositorySync(app: FastifyInstance) {
  const pattern = app.config.syncSchedule.trim();
  if (pattern.toLowerCase() === 'off') return;
  scheduleRuns(app, {
    name: SYNC_JOB_NAME,
    pattern,
    fallbackMs: 3600_000,
    run: (tick) => runScheduledSync(app, tick),
    done: (outcome) => {
      if (outcome) app.log.info({ job: SYNC_JOB_NAME, ...outcome }, 'scheduled repository sync done');
    },
    failed: 'scheduled repository sync failed',
  });
}

export default fp(repositorySync, { name: 'repository-sync', dependencies: ['database'] });
