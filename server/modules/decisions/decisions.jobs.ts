import type { FastifyBaseLogger } from 'fastify';
import { defineJob, type JobDefinition } from '../../jobs/job-definition.ts';
import { RetryJobAt } from '../../jobs/job-queue.ts';
import type { Clock } from '../../lib/clock.ts';
import { type DecisionsService, reviewDueJob } from './decisions.service.ts';

/**
 * Decision reviews on the durable job queue (docs/product.md#team-decisions): on SYNC_SCHEDULE
 * (off with it), a tick queues a run only when some current decision's review day came and its
 * `review_due` event was not recorded; each decision's event is recorded once, across re-runs
 * and instances (the decision is marked in the event's transaction).
 */
export function decisionJobs(deps: {
  decisions: DecisionsService;
  clock: Clock;
  schedule: string | null;
  log: FastifyBaseLogger;
}): JobDefinition[] {
  const { decisions, clock, log } = deps;
  return [
    defineJob({
      kind: reviewDueJob,
      run: async () => {
        const outcome = await decisions.announceDueReviews();
        if (outcome.announced > 0) log.info({ job: reviewDueJob.name, ...outcome }, 'decision reviews due');
        if (outcome.more) throw new RetryJobAt(clock.now(), 'decision reviews go on');
      },
      retry: { maxAttempts: 3, timeoutMs: 60_000 },
      schedule: {
        cron: deps.schedule,
        payload: async () => ((await decisions.hasUnannouncedReviews()) ? {} : null),
      },
    }),
  ];
}
