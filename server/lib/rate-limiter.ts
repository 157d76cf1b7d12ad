import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { tooManyRequests } from './app-error.ts';
import type { Clock } from './clock.ts';

/**
 * Whether counters are shared through Redis (`GET /health` reports it): `ok`, `degraded` (Redis
 * configured but unreachable: counting per instance) or `disabled` (no `REDIS_URL`).
 */
export type SharedCounterState = 'ok' | 'degraded' | 'disabled';

/** A fixed-window counter store: memory for one instance, Redis to share across instances. */
export interface CounterStore {
  /** Counts one hit; answers the count in the current window and the milliseconds it has left. */
  hit(key: string, windowMs: number): Promise<{ count: number; resetMs: number }>;
  readonly state: SharedCounterState;
}

export class MemoryCounterStore implements CounterStore {
  readonly state = 'disabled';
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
  readonly state = 'ok';
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

/**
 * Redis while it answers, in-process counters while it doesn't. Rate limits failed open when
 * Redis was down (every limited call waited ~8 s for a connection, then went through): now
 * they keep holding, per instance, and stay fast. The Redis client must fail commands at once
 * while disconnected (`enableOfflineQueue: false`) and time out hung ones (`commandTimeout`);
 * it reconnects in the background, and its `ready` event switches back to shared counters.
 * Counts made during the outage stay in this instance's memory (a window restarts in Redis).
 */
export class FallbackCounterStore implements CounterStore {
  readonly #redis: Redis;
  readonly #shared: RedisCounterStore;
  readonly #local: MemoryCounterStore;
  readonly #log: Pick<FastifyBaseLogger, 'warn' | 'info'>;
  #degraded = false;
  #closed = false;

  constructor(redis: Redis, clock: Clock, log: Pick<FastifyBaseLogger, 'warn' | 'info'>) {
    this.#redis = redis;
    this.#shared = new RedisCounterStore(redis);
    this.#local = new MemoryCounterStore(clock);
    this.#log = log;
    redis.on('ready', () => this.#recover());
    redis.on('error', (error: Error) => this.#degrade(error));
    redis.on('close', () => this.#degrade(new Error('connection closed')));
  }

  get state(): SharedCounterState {
    return this.#degraded || this.#redis.status !== 'ready' ? 'degraded' : 'ok';
  }

  async hit(key: string, windowMs: number) {
    if (this.state === 'ok') {
      try {
        return await this.#shared.hit(key, windowMs);
      } catch (error) {
        this.#degrade(error);
        // A command that timed out on a live connection: drop it and reconnect, so `ready`
        // tells when Redis answers again.
        if (this.#redis.status === 'ready') this.#redis.disconnect(true);
      }
    } else {
      this.#degrade(new Error(`Redis connection is ${this.#redis.status}`));
    }
    return this.#local.hit(key, windowMs);
  }

  /** At shutdown: the connection ends without an outage being logged. */
  close() {
    this.#closed = true;
    this.#redis.disconnect();
  }

  /** Logged once per outage, not at every reconnection attempt. */
  #degrade(error: unknown) {
    if (this.#degraded || this.#closed) return;
    this.#degraded = true;
    this.#log.warn({ err: error }, 'Redis unreachable: rate limits count per instance until it returns');
  }

  #recover() {
    if (!this.#degraded) return;
    this.#degraded = false;
    this.#log.info('Redis reachable again: rate limits are shared again');
  }
}

export interface LimitRule {
  /** Names the counter, so rules never share keys. */
  name: string;
  max: number;
  windowMs: number;
  /** The client address or the account the attempts are counted against. */
  key: (request: FastifyRequest) => string | Promise<string>;
}

/**
 * Per-route attempt limits with as many counters as a route needs (docs/product.md#rate-limits:
 * per client and per account). Every 429 carries `retry_after`, and `Retry-After` through the
 * error handler. The Redis store falls back to in-process counters (`FallbackCounterStore`); a
 * store that still fails lets the request through, logged, rather than locking everyone out.
 */
export class RateLimiter {
  readonly #store: CounterStore;

  constructor(store: CounterStore) {
    this.#store = store;
  }

  /** Whether counters are shared through Redis, for `GET /health`. */
  get redis(): SharedCounterState {
    return this.#store.state;
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
          result = await this.#store.hit(`${rule.name}:${await rule.key(request)}`, rule.windowMs);
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
