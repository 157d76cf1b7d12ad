import { FULL_FETCH_COST, type GitHubClient } from '../../github/github-client.ts';
import { GitHubError } from '../../github/github-error.ts';
import { PaceWait } from '../../github/pacer.ts';
import { QuotaBook } from '../../github/quota-book.ts';
import { type JobQueue, RetryJobAt } from '../../jobs/job-queue.ts';
import type { CatalogueService } from './catalogue.service.ts';

/**
 * The import's background half (docs/product.md#batch-statuses): contributor counts of rows
 * read over GraphQL, and lines queued because GitHub's pace or quota was spent. Both wait for
 * their token's turn; when it is further away than an attempt may wait, the job is put back
 * for then without using an attempt, so pacing never fails a line.
 */
export const COUNT_CONTRIBUTORS_JOB = 'repositories:count-contributors';
export const QUEUED_ADD_JOB = 'repositories:add-queued';

export interface CountContributorsPayload {
  repository_id: number;
  /** Whose token counts: the member who added it (the server token otherwise). */
  user_id: number | null;
  /** Count again though a count is stored (the scheduled sync saw new commits). */
  recount?: boolean;
}

export interface QueuedAddPayload {
  user_id: number;
  full_name: string;
  tags: string | null;
}

/** How long one background attempt waits for its token's turn (the job's deadline is 60 s). */
const BACKGROUND_WAIT_MS = 30_000;

export function registerImportJobs(jobs: JobQueue, catalogue: CatalogueService): void {
  jobs.register<CountContributorsPayload>(
    COUNT_CONTRIBUTORS_JOB,
    (payload) =>
      putBackWhenPaced(() =>
        catalogue.countContributors(
          payload.repository_id,
          payload.user_id,
          Date.now() + BACKGROUND_WAIT_MS,
          payload.recount === true,
        ),
      ),
    { maxAttempts: 8 },
  );
  jobs.register<QueuedAddPayload>(
    QUEUED_ADD_JOB,
    async (payload) => {
      await putBackWhenPaced(() => catalogue.addQueuedLine(payload, Date.now() + BACKGROUND_WAIT_MS));
    },
    { maxAttempts: 8 },
  );
}

async function putBackWhenPaced<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const eta = paceEta(error);
    if (eta) throw new RetryJobAt(eta, 'waiting for GitHub’s pace');
    throw error;
  }
}

/** When GitHub will take more, if the error says it won't now (pace, secondary limit or quota). */
export function paceEta(error: unknown): Date | null {
  if (error instanceof PaceWait) return error.eta;
  if (error instanceof GitHubError && error.kind === 'rate_limited')
    return error.resetAt ?? new Date(Date.now() + 3600_000);
  return null;
}

/**
 * The ETAs of lines queued from `start` on: as many per window as the token's budget allows
 * (its hourly quota over FULL_FETCH_COST for an exhausted quota, its per-minute pace
 * otherwise), so the ETA of line 100 of an anonymous import says hours, not minutes.
 */
export class QueuePlan {
  readonly #start: number;
  readonly #perWindow: number;
  readonly #windowMs: number;
  #count = 0;

  constructor(start: Date, github: GitHubClient, token: string | null, quotaSpent: boolean) {
    this.#start = start.getTime();
    if (quotaSpent) {
      const limit = github.quotaBook.stateOf(QuotaBook.keyOf(token))?.limit ?? (token ? 5000 : 60);
      this.#perWindow = Math.max(1, Math.floor(limit / FULL_FETCH_COST));
      this.#windowMs = 3600_000;
    } else {
      this.#perWindow = Math.max(1, Math.floor(github.pace.restPerMinute / FULL_FETCH_COST));
      this.#windowMs = 60_000;
    }
  }

  next(): Date {
    const window = Math.floor(this.#count / this.#perWindow);
    this.#count += 1;
    return new Date(this.#start + window * this.#windowMs);
  }
}
