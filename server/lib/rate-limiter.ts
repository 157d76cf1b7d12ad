import type { FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { tooManyRequests } from './app-error.ts';
import type { Clock } from './clock.ts';

/** A fixed-window counter store: memory for one instance, Redis to share across instances. */
export interface CounterStore {
  /** Counts one hit; answers the count in the current window and the milliseconds it has left. */
  hit(key: string, windowMs: number): Promise<{ count: number; resetMs: number }>;
}

export class MemoryCounterStore implements CounterStore {
  readonly #windows = new Map<string, { count: number; resetAt: number }>();
  readonly #clock: Clock;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  async hit(key: string, windowMs: number) {
    const now = this.#clock.now().getTime();
    if (this.#windows.size > 50_000) this.#sweep(now);
    let window = this.#windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs };
      this.#windows.set(key, window);
    }
    window.count += 1;
    return { count: window.count, resetMs: window.resetAt - now };
  }

  #sweep(now: number) {
    for (const [key, window] of this.#windows) if (window.resetAt <= now) this.#windows.delete(key);
  }
}

/** INCR and PEXPIRE in one script, so a window's expiry is set exactly once, atomically. */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {count, redis.call('PTTL', KEYS[1])}`;

export class RedisCounterStore implements CounterStore {
  readonly #redis: Redis;

  constructor(redis: Redis) {
    this.#redis = redis;
  }

  async hit(key: string, windowMs: number) {
    const [count, ttl] = (await this.#redis.eval(HIT_SCRIPT, 1, `rt:limit:${key}`, windowMs)) as [
      number,
      number,
    ];
    return { count, resetMs: ttl > 0 ? ttl : windowMs };
  }
}

export interface LimitRule {
  /** Names the counter, so rules never share keys. */
  name: string;
  max: number;
  windowMs: number;
  /** The client address or the account the attempts are counted against. */
  key: (request: FastifyRequest) => string;
}

/**
 * Per-route attempt limits with as many counters as a route needs (DESIGN §2 wants two: per
 * client and per account). Every 429 carries `retry_after`, and `Retry-After` through the
 * error handler. A store outage lets requests through, logged, rather than locking everyone out.
 */
export class RateLimiter {
  readonly #store: CounterStore;

  constructor(store: CounterStore) {
    this.#store = store;
  }

  /**
   * A hook checking every rule: use it as `onRequest` for per-client rules (counted before any
   * parsing) and as `preHandler` for rules keyed on the body.
   */
  hook(...rules: LimitRule[]) {
    return async (request: FastifyRequest) => {
      for (const rule of rules) {
        let result: { count: number; resetMs: number };
        try {
          result = await this.#store.hit(`${rule.name}:${rule.key(request)}`, rule.windowMs);
        } catch (error) {
          request.log.error({ err: error, rule: rule.name }, 'rate-limit store unavailable; request allowed');
          continue;
        }
        if (result.count > rule.max) {
          const retryAfter = Math.max(1, Math.ceil(result.resetMs / 1000));
          request.log.warn({ rule: rule.name }, 'rate limit hit');
          throw tooManyRequests(
            `Too many requests. Please try again in ${Math.ceil(retryAfter / 60)} minutes.`,
            retryAfter,
          );
        }
      }
    };
  }
}
