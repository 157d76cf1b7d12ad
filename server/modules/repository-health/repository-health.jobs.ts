import type { FastifyBaseLogger } from 'fastify';
import { defineJob, type JobDefinition } from '../../jobs/job-definition.ts';
import { RetryJobAt } from '../../jobs/job-queue.ts';
import { type Clock, nowMs } from '../../lib/clock.ts';
import {
  healthRefreshJob,
  healthRescoreJob,
  type RepositoryHealthService,
} from './repository-health.service.ts';

/** How long one run reads before it hands over (the next run goes on at once). */
export const HEALTH_RUN_MS = 60_000;

/**
 * GitHub's health query on the durable job queue (docs/architecture.md#repository-health): the
 * schedule (SYNC_SCHEDULE's, off with it) queues a run only when some repository's health is
 * due; a run that stops for quota, pace or time is put back for then without using an attempt.
 */
export function healthJobs(deps: {
  health: RepositoryHealthService;
  clock: Clock;
  schedule: string | null;
  log: FastifyBaseLogger;
}): JobDefinition[] {
  const { health, clock, log } = deps;
  return [
    defineJob({
      kind: healthRefreshJob,
      run: async (_payload, { stopping }) => {
        const outcome = await health.refreshDue({ deadline: nowMs(clock) + HEALTH_RUN_MS, signal: stopping });
        if (outcome.read + outcome.storedOnly + outcome.failed > 0)
          log.info({ job: healthRefreshJob.name, ...outcome }, 'repository health run done');
        if (outcome.retryAt) throw new RetryJobAt(outcome.retryAt, 'repository health run yields');
      },
      retry: { maxAttempts: 1, timeoutMs: HEALTH_RUN_MS + 15_000 },
      schedule: {
        cron: deps.schedule,
        payload: async () => ((await health.hasDueWork()) ? {} : null),
      },
    }),
    // After an upgrade that changed the formula: every score again from its stored inputs.
    defineJob({
      kind: healthRescoreJob,
      run: async (_payload, { stopping }) => {
        const outcome = await health.rescoreOutdated({
          deadline: nowMs(clock) + HEALTH_RUN_MS,
          signal: stopping,
        });
        if (outcome.rescored > 0)
          log.info({ job: healthRescoreJob.name, ...outcome }, 'repository health rescored');
        if (!outcome.done) throw new RetryJobAt(clock.now(), 'repository health rescore goes on');
      },
      retry: { maxAttempts: 1, timeoutMs: HEALTH_RUN_MS + 15_000 },
      schedule: {
        cron: deps.schedule,
        payload: async () => ((await health.hasOutdated()) ? {} : null),
      },
    }),
  ];
}
