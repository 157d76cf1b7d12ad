import { createHash } from 'node:crypto';

export interface QuotaState {
  remaining: number;
  resetAt: Date;
}

/**
 * The last `x-ratelimit-*` GitHub sent for each token (anonymous included), so a sync that
 * cannot be paid for is refused up front with the reset time instead of failing half-way.
 * Tokens are kept only as a hash.
 */
export class QuotaBook {
  readonly #states = new Map<string, QuotaState>();

  static keyOf(token: string | null): string {
    return token ? createHash('sha256').update(token).digest('hex').slice(0, 16) : 'anonymous';
  }

  record(token: string | null, headers: Record<string, string | number | undefined>): void {
    const remaining = Number(headers['x-ratelimit-remaining']);
    const reset = Number(headers['x-ratelimit-reset']);
    // GitHub Enterprise may run without rate limits: no headers, nothing to record.
    if (
      !Number.isFinite(remaining) ||
      !Number.isFinite(reset) ||
      headers['x-ratelimit-resource'] === 'graphql'
    )
      return;
    this.#states.set(QuotaBook.keyOf(token), { remaining, resetAt: new Date(reset * 1000) });
  }

  markExhausted(token: string | null, resetAt: Date): void {
    this.#states.set(QuotaBook.keyOf(token), { remaining: 0, resetAt });
  }

  /** The reset time when fewer than `needed` requests are left before it, else null. */
  shortfall(token: string | null, needed: number, now = new Date()): Date | null {
    const state = this.#states.get(QuotaBook.keyOf(token));
    if (!state || state.resetAt <= now) return null;
    return state.remaining < needed ? state.resetAt : null;
  }
}
