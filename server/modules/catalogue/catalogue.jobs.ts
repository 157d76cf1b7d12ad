import { putBackWhenPaced } from '../../github/paced-work.ts';
import { defineJob, type JobDefinition } from '../../jobs/job-definition.ts';
import { type Clock, nowMs } from '../../lib/clock.ts';
import { queuedAddJob } from './add-repository.service.ts';
import type { CatalogueService } from './catalogue.service.ts';

/** How long one background attempt waits for its token's turn (the job's deadline is 60 s). */
const BACKGROUND_WAIT_MS = 30_000;

/**
 * The catalogue's background work (docs/product.md#batch-statuses): lines queued because
 * GitHub's pace or quota was spent, added like a batch line when their turn comes. Already
 * catalogued or refused by GitHub: nothing to do.
 */
export function catalogueJobs(deps: { catalogue: CatalogueService; clock: Clock }): JobDefinition[] {
  const { catalogue, clock } = deps;
  return [
    defineJob({
      kind: queuedAddJob,
      run: async (payload) => {
        await putBackWhenPaced(
          () => catalogue.addQueuedLine(payload, nowMs(clock) + BACKGROUND_WAIT_MS),
          clock,
        );
      },
      retry: { maxAttempts: 8 },
    }),
  ];
}
