import type { FastifyBaseLogger } from 'fastify';
import { defineJob, type JobDefinition } from '../../jobs/job-definition.ts';
import { type AtRiskService, atRiskJob } from './at-risk.service.ts';

/**
 * The adopted-but-at-risk check on the durable job queue (docs/product.md#the-radar): on
 * SYNC_SCHEDULE (off with it), a tick queues a run only when some in-use repository has a cause
 * not yet announced or a mark whose cause went away. Health rescores and the advisories' daily
 * read change grades and advisories without a sync; this run is what notices those.
 */
export function radarJobs(deps: {
  atRisk: AtRiskService;
  schedule: string | null;
  log: FastifyBaseLogger;
}): JobDefinition[] {
  const { atRisk, log } = deps;
  return [
    defineJob({
      kind: atRiskJob,
      run: async () => {
        const outcome = await atRisk.checkAll();
        if (outcome.recorded + outcome.cleared > 0)
          log.info({ job: atRiskJob.name, ...outcome }, 'at-risk check');
      },
      retry: { maxAttempts: 3, timeoutMs: 60_000 },
      schedule: {
        cron: deps.schedule,
        payload: async () => ((await atRisk.pending()) ? {} : null),
      },
    }),
  ];
}
