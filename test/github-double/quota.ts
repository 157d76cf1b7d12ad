import type { RateLimitValues } from './shapes.ts';

/**
 * Hourly request budgets per caller and resource, as GitHub keeps them: anonymous callers share
 * one budget per double (GitHub: per IP), each token has its own. A window starts at the first
 * request and refills an hour later. Resources are separate: GraphQL spends points of 'graphql'
 * and never touches 'core'.
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

  /**
   * Spends `points` (one REST request, or a GraphQL query's cost); returns the values after
   * spending. Callers check `remaining > 0` first. A GraphQL query admitted with fewer points
   * left than it costs still runs and may take `used` past the limit, as GitHub's /rate_limit
   * shows (`remaining` stays at 0).
   */
  charge(caller: Caller, resource: RateResource = 'core', points = 1): RateLimitValues {
    const bucket = this.#bucket(caller, resource);
    bucket.used += points;
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
