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
  /**
   * Counts `points` hits (one unless said); answers the count in the current window and the
   * milliseconds it has left.
   */
  hit(key: string, windowMs: number, points?: number): Promise<{ count: number; resetMs: number }>;
  /** Gives `points` back to a window still running, never below zero; nothing once it has ended. */
  refund(key: string, points: number): Promise<void>;
  readonly state: SharedCounterState;
}

export class MemoryCounterStore implements CounterStore {
  readonly state = 'disabled';
  readonly #windows = new Map<string, { count: number; resetAt: number }>();
  readonly #clock: Clock;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  async hit(key: string, windowMs: number, points = 1) {
    const now = this.#clock.now().getTime();
    if (this.#windows.size > 50_000) this.#sweep(now);
    let window = this.#windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs };
      this.#windows.set(key, window);
    }
    window.count += points;
    return { count: window.count, resetMs: window.resetAt - now };
  }

  async refund(key: string, points: number) {
    const window = this.#windows.get(key);
    if (!window || window.resetAt <= this.#clock.now().getTime()) return;
    window.count = Math.max(0, window.count - points);
  }

  #sweep(now: number) {
    for (const [key, window] of this.#windows) if (window.resetAt <= now) this.#windows.delete(key);
  }
}

/**
 * INCRBY and PEXPIRE in one script, so a window's expiry is set once, atomically: when the key
 * has none (just created).
 */
const HIT_SCRIPT = `
local count = redis.call('INCRBY', KEYS[1], ARGV[2])
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {count, redis.call('PTTL', KEYS[1])}`;

/** Points back to a running window (its expiry kept), never below zero; nothing once it ended. */
const REFUND_SCRIPT = `
if redis.call('PTTL', KEYS[1]) > 0 then
  local count = redis.call('DECRBY', KEYS[1], ARGV[1])
  if count < 0 then redis.call('INCRBY', KEYS[1], -count) end
end
return 0`;

export class RedisCounterStore implements CounterStore {
  readonly state = 'ok';
  readonly #redis: Redis;

  constructor(redis: Redis) {
    this.#redis = redis;
  }

  async hit(key: string, windowMs: number, points = 1) {
    const [count, ttl] = (await this.#redis.eval(HIT_SCRIPT, 1, `rt:limit:${key}`, windowMs, points)) as [
      number,
      number,
    ];
    return { count, resetMs: ttl > 0 ? ttl : windowMs };
  }

  async refund(key: string, points: number) {
    await this.#redis.eval(REFUND_SCRIPT, 1, `rt:limit:${key}`, points);
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

  async hit(key: string, windowMs: number, points = 1) {
    const shared = await this.#onShared((store) => store.hit(key, windowMs, points));
    return shared ? shared.value : this.#local.hit(key, windowMs, points);
  }

  async refund(key: string, points: number) {
    if (!(await this.#onShared((store) => store.refund(key, points)))) await this.#local.refund(key, points);
  }

  /** Runs `command` on Redis while it answers; undefined (degraded: count locally) when it can't. */
  async #onShared<T>(command: (store: RedisCounterStore) => Promise<T>): Promise<{ value: T } | undefined> {
    if (this.state === 'ok') {
      try {
        return { value: await command(this.#shared) };
      } catch (error) {
        this.#degrade(error);
        // A command that timed out on a live connection: drop it and reconnect, so `ready`
        // tells when Redis answers again.
        if (this.#redis.status === 'ready') this.#redis.disconnect(true);
      }
    } else {
      this.#degrade(new Error(`Redis connection is ${this.#redis.status}`));
    }
    return undefined;
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
  /** Names the counter, so rules never share keys (and two routes naming one counter share it). */
  name: string;
  max: number;
  windowMs: number;
  /** The client address or the account the attempts are counted against. */
  key: (request: FastifyRequest) => string | Promise<string>;
  /**
   * Makes the rule a budget spent in points (repositories updated, not calls): what this request
   * costs; 0 skips the rule. A request a budget refuses spends nothing, so what is left stays
   * exact. Without it, every request counts one, refused ones too.
   */
  points?: (request: FastifyRequest) => number | Promise<number>;
  /** The refusal's message when the default ('Too many requests. Please try again in …') says too little. */
  refusal?: (budget: { left: number; asked: number; retryAfter: number }) => string | undefined;
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
        const points = rule.points ? await rule.points(request) : 1;
        if (points <= 0) continue;
        const key = `${rule.name}:${await rule.key(request)}`;
        let result: { count: number; resetMs: number };
        try {
          result = await this.#store.hit(key, rule.windowMs, points);
        } catch (error) {
          request.log.error({ err: error, rule: rule.name }, 'rate-limit store unavailable; request allowed');
          continue;
        }
        if (result.count > rule.max) {
          const retryAfter = Math.max(1, Math.ceil(result.resetMs / 1000));
          request.log.warn({ rule: rule.name }, 'rate limit hit');
          if (rule.points) await this.#refund(request, rule, key, points);
          const left = Math.max(0, rule.max - (result.count - points));
          throw tooManyRequests(
            rule.refusal?.({ left, asked: points, retryAfter }) ??
              `Too many requests. Please try again in ${Math.ceil(retryAfter / 60)} minutes.`,
            retryAfter,
          );
        }
      }
    };
  }

  /**
   * Gives a budget's points back after the request turned out not to cost them (a restore that
   * undid a deletion: only the ones that find nothing count).
   */
  async giveBack(request: FastifyRequest, rule: LimitRule, points = 1): Promise<void> {
    await this.#refund(request, rule, `${rule.name}:${await rule.key(request)}`, points);
  }

  async #refund(request: FastifyRequest, rule: LimitRule, key: string, points: number) {
    try {
      await this.#store.refund(key, points);
    } catch (error) {
      request.log.error(
        { err: error, rule: rule.name },
        'rate-limit store unavailable; points not given back',
      );
    }
  }
}
