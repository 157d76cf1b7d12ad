import type { FastifyBaseLogger } from 'fastify';
import type { JobQueue } from '../../jobs/job-queue.ts';
import type { RepositorySyncService } from './sync.service.ts';

/**
 * The sync engine's work item (docs/architecture.md#sync-engine): one run that leases due
 * repositories and refreshes them for up to SYNC_RUN_MS. The scheduled tick enqueues it
 * (server/jobs/repository-sync.ts); it runs on the durable job queue, so a run cut short by a
 * crash leaves its rows due and their leases run out.
 */
export const SYNC_DUE_JOB = 'repositories:sync-due';

/** How long one run works before it hands over to the next tick (within the job's deadline). */
export const SYNC_RUN_MS = 45_000;

export function registerSyncJobs(jobs: JobQueue, sync: RepositorySyncService, log: FastifyBaseLogger): void {
  jobs.register(
    SYNC_DUE_JOB,
    async () => {
      const outcome = await sync.syncDue({ owner: jobs.owner, deadline: Date.now() + SYNC_RUN_MS });
      if (outcome.synced + outcome.gone + outcome.failed + outcome.deferred > 0)
        log.info({ job: SYNC_DUE_JOB, ...outcome }, 'sync engine run done');
    },
    // A failed run is not retried: the next tick starts a new one with whatever is due.
    { maxAttempts: 1, timeoutMs: SYNC_RUN_MS + 15_000 },
  );
}
