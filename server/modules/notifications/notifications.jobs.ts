import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { defineJob, type JobDefinition, jobKind } from '../../jobs/job-definition.ts';
import { type Clock, nowMs } from '../../lib/clock.ts';

/**
 * The notification engine's scheduled work (docs/architecture.md#notifications): the dispatcher
 * run NOTIFICATION_SCHEDULE enqueues, and the digest run at DIGEST_HOUR. Each delivery then
 * leaves through the messages pipeline (`notifications:deliver`, modules/messages). This file
 * imports no service.
 */
export const NOTIFY_DISPATCH_JOB = jobKind('notifications:dispatch', z.object({}));

const CADENCES = ['daily', 'weekly'] as const;
export const NOTIFY_DIGEST_JOB = jobKind(
  'notifications:digest',
  z.object({ cadences: z.array(z.enum(CADENCES)).min(1) }),
);
export type DigestCadence = (typeof CADENCES)[number];

/** How long one dispatcher run reads events before the next tick takes over (within its deadline). */
export const DISPATCH_RUN_MS = 45_000;
const DAY_MS = 86_400_000;

/** The digests a tick at `runAt` sends: daily every day, weekly too on Mondays (server local time). */
export function digestCadences(runAt: Date): DigestCadence[] {
  return runAt.getDay() === 1 ? ['daily', 'weekly'] : ['daily'];
}

/** What the runs call (the delivery service), as the jobs see it. */
export interface NotificationRuns {
  dispatch(options: { deadline?: number; signal?: AbortSignal }): Promise<{ events: number }>;
  sendDigests(cadences: DigestCadence[]): Promise<number>;
}

export interface NotificationJobDeps {
  delivery: NotificationRuns;
  clock: Clock;
  /** NOTIFICATION_SCHEDULE, or null when it is off: then neither dispatching nor digests run by themselves. */
  schedule: string | null;
  /** DIGEST_HOUR (server local time). */
  digestHour: number;
  log: Pick<FastifyBaseLogger, 'info'>;
}

export function notificationJobs(deps: NotificationJobDeps): JobDefinition[] {
  const { delivery, clock, log } = deps;
  return [
    defineJob({
      kind: NOTIFY_DISPATCH_JOB,
      run: async (_payload, { stopping }) => {
        const outcome = await delivery.dispatch({
          deadline: nowMs(clock) + DISPATCH_RUN_MS,
          signal: stopping,
        });
        if (outcome.events > 0)
          log.info({ job: NOTIFY_DISPATCH_JOB.name, ...outcome }, 'notifications dispatched');
      },
      // Not retried: the next tick reads on from the cursor.
      retry: { maxAttempts: 1, timeoutMs: DISPATCH_RUN_MS + 15_000 },
      // A tick enqueues nothing while a run still waits for a worker.
      schedule: { cron: deps.schedule, fallbackMs: 60_000, payload: () => ({}) },
    }),
    defineJob({
      kind: NOTIFY_DIGEST_JOB,
      run: async ({ cadences }) => {
        const sent = await delivery.sendDigests(cadences);
        log.info({ job: NOTIFY_DIGEST_JOB.name, cadences, digests: sent }, 'digests queued');
      },
      // Each rule's digest is taken in its own transaction, so a retry sends only what is left.
      retry: { maxAttempts: 5, timeoutMs: 120_000 },
      schedule: {
        cron: deps.schedule === null ? null : `0 ${deps.digestHour} * * *`,
        fallbackMs: DAY_MS,
        payload: (tick) => ({ cadences: digestCadences(tick.runAt) }),
        // Every tick queues its digest, even while another waits: Monday's carries the weekly ones.
        skipWhileWaiting: false,
      },
    }),
  ];
}
