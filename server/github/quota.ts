import { dateAtMs } from '../lib/clock.ts';

/**
 * The shared GitHub quota (server token, or anonymous) as last seen in GitHub's
 * `x-ratelimit-*` headers. Null until GitHub has been called (docs/architecture.md#quota-bookkeeping).
 */
export class SharedQuota {
  remaining: number | null = null;
  limit: number | null = null;
  resetAt: Date | null = null;

  record(headers: { get(name: string): string | null }): void {
    const remaining = headers.get('x-ratelimit-remaining');
    if (remaining === null || !/^\d+$/.test(remaining)) return;
    this.remaining = Number(remaining);
    const limit = headers.get('x-ratelimit-limit');
    if (limit && /^\d+$/.test(limit)) this.limit = Number(limit);
    const reset = headers.get('x-ratelimit-reset');
    if (reset && /^\d+$/.test(reset)) this.resetAt = dateAtMs(Number(reset) * 1000);
  }
}
