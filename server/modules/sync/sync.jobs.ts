import type { FastifyBaseLogger } from 'fastify';
import { putBackWhenPaced } from '../../github/paced-work.ts';
import { defineJob, type JobDefinition } from '../../jobs/job-definition.ts';
import { type Clock, nowMs } from '../../lib/clock.ts';
import { countContributorsJob, type GitHubDataWriter } from './github-data-writer.service.ts';
import { type RepositorySyncService, syncDueJob } from './sync.service.ts';

/** How long one run works before it hands over to the next tick (within the job's deadline). */
export const SYNC_RUN_MS = 45_000;
/** How long one background attempt waits for its token's turn (the job's deadline is 60 s). */
const BACKGROUND_WAIT_MS = 30_000;

/**
 * The sync module's background work (docs/architecture.md#sync-engine): the engine's run,
 * queued by SYNC_SCHEDULE's tick unless one still waits (a run in progress doesn't stop a new
 * one: row leases keep them apart), and contributor counts within the token's pace.
 */
export function syncJobs(deps: {
  sync: RepositorySyncService;
  writer: GitHubDataWriter;
  owner: string;
  clock: Clock;
  schedule: string | null;
  log: FastifyBaseLogger;
}): JobDefinition[] {
  const { sync, writer, clock, log } = deps;
  return [
    defineJob({
      kind: syncDueJob,
      run: async (_payload, { stopping }) => {
        const outcome = await sync.syncDue({
          owner: deps.owner,
          deadline: nowMs(clock) + SYNC_RUN_MS,
          signal: stopping,
        });
        if (outcome.synced + outcome.gone + outcome.failed + outcome.deferred > 0)
          log.info({ job: syncDueJob.name, ...outcome }, 'sync engine run done');
      },
      // A failed run is not retried: the next tick starts a new one with whatever is due.
      retry: { maxAttempts: 1, timeoutMs: SYNC_RUN_MS + 15_000 },
      schedule: { cron: deps.schedule, payload: () => ({}) },
    }),
    defineJob({
      kind: countContributorsJob,
      run: (payload) =>
        putBackWhenPaced(
          () =>
            writer.countContributors(
              payload.repository_id,
              payload.user_id,
              nowMs(clock) + BACKGROUND_WAIT_MS,
              payload.recount === true,
            ),
          clock,
        ),
      retry: { maxAttempts: 8 },
    }),
  ];
}
