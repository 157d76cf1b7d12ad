import type { RateLimitValues } from './shapes.ts';

/**
 * Hourly request budgets per caller and resource, as GitHub keeps them: anonymous callers share
 * one budget per double (GitHub: per IP), each token has its own. A window starts at the first
 * request and refills an hour later. Resources are separate so a GraphQL endpoint can use
 * 'graphql' without touching 'core'.
 */

export type RateResource = 'core' | 'graphql' | 'search';

/** Who pays: 'anonymous' or the token itself. */
export type Caller = { kind: 'anonymous' } | { kind: 'token'; token: string };

export interface QuotaLimits {
  anonymous: number;
  token: number;
}

export const DEFAULT_QUOTA_LIMITS: QuotaLimits = { anonymous: 60, token: 5000 };

interface Bucket {
  limit: number;
  used: number;
  resetS: number;
}

export function callerId(caller: Caller): string {
  return caller.kind === 'anonymous' ? 'anonymous' : `token:${caller.token}`;
}

export class QuotaLedger {
  readonly limits: QuotaLimits;
  #buckets = new Map<string, Bucket>();
  #now: () => number;

  constructor(limits: QuotaLimits, now: () => number = Date.now) {
    this.limits = limits;
    this.#now = now;
  }

  /** Current values without spending anything. */
  peek(caller: Caller, resource: RateResource = 'core'): RateLimitValues {
    const bucket = this.#bucket(caller, resource);
    return {
      limit: bucket.limit,
      used: bucket.used,
      remaining: Math.max(0, bucket.limit - bucket.used),
      reset: bucket.resetS,
    };
  }

  /** Spends one request; returns the values after spending. */
  charge(caller: Caller, resource: RateResource = 'core'): RateLimitValues {
    const bucket = this.#bucket(caller, resource);
    bucket.used = Math.min(bucket.limit, bucket.used + 1);
    return this.peek(caller, resource);
  }

  reset(): void {
    this.#buckets.clear();
  }

  #bucket(caller: Caller, resource: RateResource): Bucket {
    const key = `${resource}|${callerId(caller)}`;
    const nowS = Math.floor(this.#now() / 1000);
    let bucket = this.#buckets.get(key);
    if (!bucket || nowS >= bucket.resetS) {
      const limit = caller.kind === 'anonymous' ? this.limits.anonymous : this.limits.token;
      bucket = { limit, used: 0, resetS: nowS + 3600 };
      this.#buckets.set(key, bucket);
    }
    return bucket;
  }
}
