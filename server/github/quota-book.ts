import { createHash } from 'node:crypto';
import { type Clock, dateAtMs } from '../lib/clock.ts';

export interface QuotaState {
  remaining: number;
  limit: number;
  resetAt: Date;
}

/**
 * The last `x-ratelimit-*` GitHub sent for each token (anonymous included), so a sync that
 * cannot be paid for is refused up front with the reset time instead of failing half-way.
 * Tokens are kept only as a hash.
 */
export class QuotaBook {
  readonly #states = new Map<string, QuotaState>();
  readonly #clock: Clock;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  static keyOf(token: string | null): string {
    return token ? createHash('sha256').update(token).digest('hex').slice(0, 16) : 'anonymous';
  }

  record(token: string | null, headers: Record<string, string | number | undefined>): void {
    const remaining = Number(headers['x-ratelimit-remaining']);
    const limit = Number(headers['x-ratelimit-limit']);
    const reset = Number(headers['x-ratelimit-reset']);
    // GitHub Enterprise may run without rate limits: no headers, nothing to record.
    if (
      !Number.isFinite(remaining) ||
      !Number.isFinite(reset) ||
      headers['x-ratelimit-resource'] === 'graphql'
    )
      return;
    this.#states.set(QuotaBook.keyOf(token), {
      remaining,
      limit: Number.isFinite(limit) ? limit : remaining,
      resetAt: dateAtMs(reset * 1000),
    });
  }

  keys(): string[] {
    return [...this.#states.keys()];
  }

  stateOf(key: string): QuotaState | undefined {
    return this.#states.get(key);
  }

  markExhausted(token: string | null, resetAt: Date): void {
    const known = this.#states.get(QuotaBook.keyOf(token));
    this.#states.set(QuotaBook.keyOf(token), { remaining: 0, limit: known?.limit ?? 0, resetAt });
  }

  /** Whether spending `cost` leaves at least `1 - budget` of the limit (true when unknown or reset). */
  leaves(token: string | null, cost: number, budget: number): boolean {
    const now = this.#clock.now();
    const state = this.#states.get(QuotaBook.keyOf(token));
    if (!state || state.resetAt <= now) return true;
    return state.remaining - cost >= state.limit * (1 - budget);
  }

  /** The reset time when fewer than `needed` requests are left before it, else null. */
  shortfall(token: string | null, needed: number): Date | null {
    const now = this.#clock.now();
    const state = this.#states.get(QuotaBook.keyOf(token));
    if (!state || state.resetAt <= now) return null;
    return state.remaining < needed ? state.resetAt : null;
  }
}
