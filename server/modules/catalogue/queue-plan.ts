import { FULL_FETCH_COST, type GitHubClient } from '../../github/github-client.ts';
import { QuotaBook } from '../../github/quota-book.ts';
import { addMs } from '../../lib/clock.ts';

/**
 * The ETAs of lines queued from `start` on (docs/product.md#batch-statuses): as many per window
 * as the token's budget allows (its hourly quota over FULL_FETCH_COST for an exhausted quota,
 * its per-minute pace otherwise), so the ETA of line 100 of an anonymous import says hours,
 * not minutes.
 */
export class QueuePlan {
  readonly #start: Date;
  readonly #perWindow: number;
  readonly #windowMs: number;
  #count = 0;

  constructor(start: Date, github: GitHubClient, token: string | null, quotaSpent: boolean) {
    this.#start = start;
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
    return addMs(this.#start, window * this.#windowMs);
  }
}
