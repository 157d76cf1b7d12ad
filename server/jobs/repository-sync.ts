import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Cron } from 'croner';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { claimScheduledRun, scheduledTimeOf } from './job-lease.ts';

export const SYNC_JOB_NAME = 'repositories:sync';
/** Repositories synced more recently than this are left alone: one refresh a day is the goal. */
export const SYNC_STALE_AFTER_HOURS = 20;
/** Background work spends at most this share of an hour's quota; the rest is for members. */
export const SYNC_QUOTA_BUDGET = 0.5;

/**
 * One scheduled refresh (DESIGN §7.2): the instance that claims this tick refreshes every
 * repository not synced for 20 hours, oldest first, within half the quota, so the history
 * chart gets a point a day without anyone pressing "Update". Returns the outcome, or null when
 * another instance had the tick.
 */
export async function runScheduledSync(
  app: Pick<FastifyInstance, 'db' | 'log' | 'repos' | 'clock'>,
  tick: { holder: string; runAt: Date; until: Date },
) {
  if (!(await claimScheduledRun(app.db, { name: SYNC_JOB_NAME, ...tick }))) return null;
  const cutoff = new Date(app.clock.now().getTime() - SYNC_STALE_AFTER_HOURS * 3600 * 1000);
  return app.repos.syncStale(cutoff, SYNC_QUOTA_BUDGET);
}

/** Runs `runScheduledSync` on SYNC_SCHEDULE (default hourly at :17; `off` disables). */
async function repositorySync(app: FastifyInstance) {
  const pattern = app.config.syncSchedule.trim();
  if (pattern.toLowerCase() === 'off') return;
  const holder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  let job: Cron | undefined;
  let running: Promise<void> = Promise.resolve();

  app.addHook('onReady', async () => {
    job = new Cron(pattern, { protect: true, unref: true }, (self: Cron) => {
      const firedAt = new Date();
      const runAt = scheduledTimeOf(self, firedAt);
      const until = self.nextRun(firedAt) ?? new Date(runAt.getTime() + 3600_000);
      running = runScheduledSync(app, { holder, runAt, until }).then(
        (outcome) => {
          if (outcome) app.log.info({ job: SYNC_JOB_NAME, ...outcome }, 'scheduled repository sync done');
        },
        (error: unknown) =>
          app.log.error({ err: error, job: SYNC_JOB_NAME }, 'scheduled repository sync failed'),
      );
      return running;
    });
  });

  app.addHook('onClose', async () => {
    job?.stop();
    await running;
  });
}

export default fp(repositorySync, { name: 'repository-sync', dependencies: ['github'] });
