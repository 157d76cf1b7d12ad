import type { FastifyBaseLogger } from 'fastify';
import { defineJob, type JobDefinition } from '../../jobs/job-definition.ts';
import { RetryJobAt } from '../../jobs/job-queue.ts';
import { type Clock, nowMs } from '../../lib/clock.ts';
import { BACKFILL_RUN_MS, backfillJob, type HistoryService } from './history.service.ts';

/**
 * The star-history backfill on the durable job queue (docs/architecture.md#star-history-backfill):
 * one run reads due histories until something more urgent comes or GitHub's pace or quota says
 * "later"; it is then put back for that time without using an attempt, so the chain of runs
 * goes on until nothing is left. Adds and the "Backfill history" action start a run; the
 * schedule (SYNC_SCHEDULE's, off with it) is the safety net: a tick queues one only when
 * histories are due — never backfilled (HISTORY_BACKFILL on), failures due again, a run whose
 * chain broke — and none waits.
 */
export function historyJobs(deps: {
  history: HistoryService;
  owner: string;
  clock: Clock;
  schedule: string | null;
  log: FastifyBaseLogger;
}): JobDefinition[] {
  const { history, clock, log } = deps;
  return [
    defineJob({
      kind: backfillJob,
      run: async (_payload, { stopping }) => {
        const outcome = await history.backfillDue({
          owner: `${deps.owner}:history`,
          deadline: nowMs(clock) + BACKFILL_RUN_MS,
          signal: stopping,
        });
        if (outcome.done + outcome.unavailable + outcome.failed > 0)
          log.info({ job: backfillJob.name, ...outcome }, 'star history backfill run done');
        if (outcome.retryAt)
          throw new RetryJobAt(
            outcome.retryAt,
            `star history backfill yields (${outcome.yielded ?? 'time'})`,
          );
      },
      retry: { maxAttempts: 1, timeoutMs: BACKFILL_RUN_MS + 15_000 },
      schedule: {
        cron: deps.schedule,
        payload: async () => ((await history.hasDueWork()) ? {} : null),
      },
    }),
  ];
}
