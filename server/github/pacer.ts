import type { Redis } from 'ioredis';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import { type Clock, dateAtMs, nowMs } from '../lib/clock.ts';

/**
 * The pace kept per GitHub token (docs/architecture.md#github-pacing): REST points and GraphQL
 * points a minute, counted with rate-limiter-flexible — in Redis when REDIS_URL is set, so
 * every instance spends from one budget per token, in memory otherwise, and in memory while
 * Redis is unreachable (its insurance limiter). A secondary-limit answer pauses the token for
 * every instance (`pause`). Concurrency and answering `retry-after` are Octokit's throttling
 * plugin's part (transport.ts); this module only decides when a request may leave.
 */

export interface PaceLimits {
  /** REST points a minute per token (GitHub allows 900). */
  restPerMinute: number;
  /** GraphQL points a minute per token (GitHub allows 2,000). */
  graphqlPointsPerMinute: number;
}

export type PaceKind = 'rest' | 'graphql';

/**
 * Windows of a tenth of a minute: GitHub may count any 60-second span, and 60 s overlaps at
 * most 11 such windows, so a tenth of the per-minute pace per window never puts more than
 * 1.1 × the pace into any minute — 880 for the default 800, under GitHub's 900. A whole-minute
 * window could put twice the pace into one minute (a full window's end and the next one's start).
 */
export const PACE_WINDOW_S = 6;
const WINDOWS_PER_MINUTE = 60 / PACE_WINDOW_S;

/** The token's turn is further away than the caller may wait; `eta` is when it comes. */
export class PaceWait extends Error {
  override name = 'PaceWait';
  readonly eta: Date;
  /**
   * Octokit's throttling plugin inspects `response` of every failed GraphQL request; a pace
   * wait is not GitHub's answer, so it gets an empty one and is passed through untouched.
   */
  readonly response = { headers: {}, data: {} };

  constructor(eta: Date) {
    super(`GitHub's pace for this token is used up until ${eta.toISOString()}`);
    this.eta = eta;
  }
}

export interface PacerOptions extends PaceLimits {
  /** Shared counting across instances; memory when absent. */
  redis?: Redis;
  /** The time deadlines, pauses and the last minute's count are read against. */
  clock: Clock;
  sleep?: (ms: number) => Promise<void>;
}

export class GitHubPacer {
  readonly limits: PaceLimits;
  readonly #limiters: Record<PaceKind, RateLimiterAbstract>;
  readonly #now: () => number;
  readonly #sleep: (ms: number) => Promise<void>;
  /** REST requests this instance sent in the last minute, per token key, for the admin's view. */
  readonly #recent = new Map<string, number[]>();
  /** Until when a secondary limit holds each token, as this instance last heard. */
  readonly #pausedUntil = new Map<string, number>();

  constructor(options: PacerOptions) {
    this.limits = {
      restPerMinute: options.restPerMinute,
      graphqlPointsPerMinute: options.graphqlPointsPerMinute,
    };
    const { clock } = options;
    this.#now = () => nowMs(clock);
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    const make = (kind: PaceKind, perMinute: number) => {
      const settings = {
        keyPrefix: `github-pace:${kind}`,
        points: Math.max(1, Math.floor(perMinute / WINDOWS_PER_MINUTE)),
        duration: PACE_WINDOW_S,
      };
      const memory = new RateLimiterMemory(settings);
      return options.redis
        ? new RateLimiterRedis({
            ...settings,
            storeClient: options.redis,
            useRedisPackage: false,
            // Redis down: this instance keeps the pace alone until it is back.
            insuranceLimiter: memory,
          })
        : memory;
    };
    this.#limiters = {
      rest: make('rest', options.restPerMinute),
      graphql: make('graphql', options.graphqlPointsPerMinute),
    };
  }

  /**
   * Waits for the token's turn to spend `points`, or throws PaceWait when the turn comes after
   * `deadline` (epoch ms): interactive calls pass now + GITHUB_INTERACTIVE_WAIT_MS and queue
   * the work instead of holding the answer; background work passes its own horizon.
   */
  async take(key: string, kind: PaceKind, points: number, deadline: number): Promise<void> {
    const limiter = this.#limiters[kind];
    for (;;) {
      try {
        await limiter.consume(key, points);
        if (kind === 'rest') this.#remember(key);
        return;
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        const waitMs = Math.max(1, rejection.msBeforeNext);
        if (this.#now() + waitMs > deadline) throw new PaceWait(dateAtMs(this.#now() + waitMs));
        await this.#sleep(waitMs);
      }
    }
  }

  /** GitHub answered a secondary limit: nobody sends with this token for `ms`. */
  async pause(key: string, ms: number): Promise<void> {
    const seconds = Math.max(0.01, ms / 1000);
    this.#pausedUntil.set(key, this.#now() + ms);
    await Promise.all([this.#limiters.rest.block(key, seconds), this.#limiters.graphql.block(key, seconds)]);
  }

  /** When the token's next REST request may leave (now when it may leave at once). */
  async nextTurn(key: string): Promise<Date> {
    const state = await this.#limiters.rest.get(key);
    const now = this.#now();
    if (!state || state.remainingPoints > 0) return dateAtMs(now);
    return dateAtMs(now + state.msBeforeNext);
  }

  /** REST requests this instance sent with the token in the last 60 s. */
  restLastMinute(key: string): number {
    return this.#trim(key).length;
  }

  /** When a secondary limit on the token ends, or null when none holds it. */
  pausedUntil(key: string): Date | null {
    const until = this.#pausedUntil.get(key);
    return until !== undefined && until > this.#now() ? dateAtMs(until) : null;
  }

  keys(): string[] {
    return [...new Set([...this.#recent.keys(), ...this.#pausedUntil.keys()])];
  }

  #remember(key: string) {
    this.#trim(key).push(this.#now());
  }

  #trim(key: string): number[] {
    const since = this.#now() - 60_000;
    const times = (this.#recent.get(key) ?? []).filter((at) => at > since);
    this.#recent.set(key, times);
    return times;
  }
}
