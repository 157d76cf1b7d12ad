import type { FastifyBaseLogger } from 'fastify';
import { type JobQueue, RetryJobAt } from '../../jobs/job-queue.ts';
import { BACKFILL_JOB, BACKFILL_RUN_MS, type HistoryService } from './history.service.ts';

/**
 * The star-history backfill on the durable job queue (docs/architecture.md#star-history-backfill):
 * one run reads due histories until something more urgent comes or GitHub's pace or quota says
 * "later"; it is then put back for that time without using an attempt, so the chain of runs
 * goes on until nothing is left. Adds, the "Backfill history" action and the scheduled tick
 * (server/jobs/history-backfill.ts) start a run when none is waiting.
 */
export function registerHistoryJobs(jobs: JobQueue, history: HistoryService, log: FastifyBaseLogger): void {
  jobs.register(
    BACKFILL_JOB,
    async () => {
      const outcome = await history.backfillDue({
        owner: `${jobs.owner}:history`,
        deadline: Date.now() + BACKFILL_RUN_MS,
      });
      if (outcome.done + outcome.unavailable + outcome.failed > 0)
        log.info({ job: BACKFILL_JOB, ...outcome }, 'star history backfill run done');
      if (outcome.retryAt)
        throw new RetryJobAt(outcome.retryAt, `star history backfill yields (${outcome.yielded ?? 'time'})`);
    },
    { maxAttempts: 1, timeoutMs: BACKFILL_RUN_MS + 15_000 },
  );
}
