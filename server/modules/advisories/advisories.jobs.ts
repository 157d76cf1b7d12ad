import type { FastifyBaseLogger } from 'fastify';
import { defineJob, type JobDefinition } from '../../jobs/job-definition.ts';
import { RetryJobAt } from '../../jobs/job-queue.ts';
import { type Clock, nowMs } from '../../lib/clock.ts';
import { type AdvisoriesService, advisoriesRefreshJob } from './advisories.service.ts';

/** How long one run reads before it hands over (the next run goes on at once). */
export const ADVISORIES_RUN_MS = 60_000;

/**
 * The daily advisory read on the durable job queue (docs/architecture.md#advisories): on
 * SYNC_SCHEDULE (off with it), when some package is listed; a run that stops for pace, quota
 * or time is put back for then without using an attempt.
 */
export function advisoryJobs(deps: {
  advisories: AdvisoriesService;
  clock: Clock;
  schedule: string | null;
  log: FastifyBaseLogger;
}): JobDefinition[] {
  const { advisories, clock, log } = deps;
  return [
    defineJob({
      kind: advisoriesRefreshJob,
      run: async (_payload, { stopping }) => {
        const retryAt = await advisories.refreshListed({
          deadline: nowMs(clock) + ADVISORIES_RUN_MS,
          signal: stopping,
        });
        if (retryAt) throw new RetryJobAt(retryAt, 'advisory read yields');
        log.info({ job: advisoriesRefreshJob.name }, 'advisories read');
      },
      retry: { maxAttempts: 1, timeoutMs: ADVISORIES_RUN_MS + 15_000 },
      schedule: {
        cron: deps.schedule,
        payload: async () => ((await advisories.hasWork()) ? {} : null),
      },
    }),
  ];
}
