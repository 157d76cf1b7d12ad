import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { NOTIFY_DIGEST_JOB, NOTIFY_DISPATCH_JOB } from '../modules/notifications/notifications.service.ts';
import { claimScheduledRun, type ScheduledTick, scheduleRuns } from './job-lease.ts';
import { countWaitingJobs } from './job-queue.queries.ts';

/** The ticks' lease names: one instance per tick enqueues the work. */
export const DISPATCH_TICK_NAME = 'notifications:dispatch';
export const DIGEST_TICK_NAME = 'notifications:digest';

type App = Pick<FastifyInstance, 'db' | 'services' | 'clock'>;

/**
 * One dispatcher tick (docs/architecture.md#notifications): the instance that claims it
 * enqueues a run unless one is still waiting. Returns the job id, 0 when one was waiting, or
 * null when another instance had the tick.
 */
export async function runScheduledDispatch(app: App, tick: ScheduledTick): Promise<number | null> {
  if (!(await claimScheduledRun(app.db, { name: DISPATCH_TICK_NAME, ...tick }))) return null;
  if ((await countWaitingJobs(app.db, NOTIFY_DISPATCH_JOB, app.clock.now())) > 0) return 0;
  return app.services.jobs.enqueue(NOTIFY_DISPATCH_JOB, {});
}

/** The digests a tick at `runAt` sends: daily every day, weekly too on Mondays (server local time). */
export function digestCadences(runAt: Date): ('daily' | 'weekly')[] {
  return runAt.getDay() === 1 ? ['daily', 'weekly'] : ['daily'];
}

/**
 * One digest tick at DIGEST_HOUR: exactly one instance claims it and enqueues the digest run.
 * Returns the job id, or null when another instance had the tick.
 */
export async function runScheduledDigest(app: App, tick: ScheduledTick): Promise<number | null> {
  if (!(await claimScheduledRun(app.db, { name: DIGEST_TICK_NAME, ...tick }))) return null;
  return app.services.jobs.enqueue(NOTIFY_DIGEST_JOB, { cadences: digestCadences(tick.runAt) });
}

/** The dispatcher on NOTIFICATION_SCHEDULE and the digests at DIGEST_HOUR; `off` disables both. */
async function notificationSchedule(app: FastifyInstance) {
  const pattern = app.config.notificationSchedule.trim();
  if (pattern.toLowerCase() === 'off') return;
  scheduleRuns(app, {
    name: DISPATCH_TICK_NAME,
    pattern,
    fallbackMs: 60_000,
    run: (tick) => runScheduledDispatch(app, tick),
    done: () => {},
    failed: 'the notification dispatcher could not be woken',
  });
  scheduleRuns(app, {
    name: DIGEST_TICK_NAME,
    pattern: `0 ${app.config.digestHour} * * *`,
    fallbackMs: 86_400_000,
    run: (tick) => runScheduledDigest(app, tick),
    done: () => {},
    failed: 'the notification digests could not be queued',
  });
}

export default fp(notificationSchedule, { name: 'notification-schedule', dependencies: ['database'] });
