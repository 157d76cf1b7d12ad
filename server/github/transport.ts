import { Octokit } from '@octokit/core';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { RequestError } from '@octokit/request-error';
import Bottleneck from 'bottleneck';
import type { Redis } from 'ioredis';
import { type Clock, nowMs } from '../lib/clock.ts';
import { boundedFetch, TransportFailure } from './bounded-fetch.ts';
import { GitHubPacer, type PaceKind } from './pacer.ts';
import { QuotaBook } from './quota-book.ts';

export interface PaceSettings {
  restPerMinute: number;
  graphqlPointsPerMinute: number;
  /** Requests in flight per token and instance. */
  concurrency: number;
  /** Milliseconds per second of GitHub's `retry-after`: 1000; tests shorten GitHub's minute. */
  retryAfterUnitMs: number;
  /** How long an interactive call waits for its token's turn before the work is queued. */
  interactiveWaitMs: number;
}

export const DEFAULT_PACE: PaceSettings = {
  restPerMinute: 800,
  graphqlPointsPerMinute: 1800,
  concurrency: 10,
  retryAfterUnitMs: 1000,
  interactiveWaitMs: 20_000,
};

/** How long a call may wait for its token's turn: `interactive` (the default) or until `deadline`. */
export interface PaceOption {
  deadline?: number;
}

/** Secondary-limit answers met by one request before it gives up (each pauses the token longer). */
const MAX_SECONDARY_RETRIES = 4;

/**
 * Octokit with GitHub's kept plugins, innermost first: `pacing` (each attempt waits for its
 * token's turn, then gets its own deadline), `retry` (5xx once; 409 and 4xx never) and
 * `throttling` (concurrency per token, one GraphQL query at a time, `retry-after` answered).
 */
const PacedOctokit = Octokit.plugin(pacing, retry, throttling);

interface PacingOptions {
  pacer: GitHubPacer;
  key: string;
  clock: Clock;
  timeoutMs: number;
  interactiveWaitMs: number;
  /** Counts each attempt that leaves for GitHub (GET /metrics). */
  sent: (kind: PaceKind) => void;
  /** Told when a call without a pace deadline (a member waiting for it) starts and ends. */
  activity?: InteractiveActivity;
}

/**
 * When members' calls (adds, imports, "Update": those without a pace deadline) last used
 * GitHub on this instance. The star-history backfill, the lowest-priority work, yields to them.
 */
export class InteractiveActivity {
  readonly #clock: Clock;
  #inFlight = 0;
  #lastAt = 0;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  begin(): void {
    this.#inFlight += 1;
    this.#lastAt = nowMs(this.#clock);
  }

  end(): void {
    this.#inFlight = Math.max(0, this.#inFlight - 1);
    this.#lastAt = nowMs(this.#clock);
  }

  /** Milliseconds since the last such call ended; 0 while one is in flight. */
  idleMs(): number {
    return this.#inFlight > 0 ? 0 : nowMs(this.#clock) - this.#lastAt;
  }
}

/** The per-attempt part of the pace (docs/architecture.md#github-pacing). */
function pacing(octokit: Octokit, options: { pacing?: PacingOptions; [option: string]: unknown }) {
  const settings = options.pacing;
  if (!settings) return {};
  octokit.hook.wrap('request', async (request, requestOptions) => {
    const kind: PaceKind = /\/graphql$/.test(new URL(requestOptions.url, 'http://github.test').pathname)
      ? 'graphql'
      : 'rest';
    const extra = requestOptions.request as {
      paceDeadline?: number;
      callerSignal?: AbortSignal;
      /** Told how long GitHub took to answer once the request left (the GraphQL batch sizes). */
      onAnswered?: (ms: number) => void;
    };
    const deadline = extra.paceDeadline ?? nowMs(settings.clock) + settings.interactiveWaitMs;
    const interactive = extra.paceDeadline === undefined ? settings.activity : undefined;
    interactive?.begin();
    try {
      await settings.pacer.take(settings.key, kind, 1, deadline);
    } catch (error) {
      interactive?.end();
      throw error;
    }
    settings.sent(kind);
    // The deadline of the attempt starts once it may leave: waiting for the turn is not GitHub's time.
    const timeout = AbortSignal.timeout(settings.timeoutMs);
    requestOptions.request.signal = extra.callerSignal
      ? AbortSignal.any([extra.callerSignal, timeout])
      : timeout;
    const leftAt = nowMs(settings.clock);
    try {
      const response = await request(requestOptions);
      extra.onAnswered?.(nowMs(settings.clock) - leftAt);
      return response;
    } catch (error) {
      // No answer within the deadline, or too large: not retried (a GitHub that didn't answer
      // in time would double the wait), so it leaves as itself rather than as a 500.
      if (error instanceof RequestError && error.cause instanceof TransportFailure) throw error.cause;
      throw error;
    } finally {
      interactive?.end();
    }
  });
  return {};
}

export interface TransportOptions {
  apiUrl: string;
  graphqlUrl: string;
  /** Deadline of one request, its answer's body included. */
  timeoutMs: number;
  /** The largest answer read. */
  maxAnswerBytes: number;
  userAgent: string;
  pace: PaceSettings;
  /** Shares the pace across instances (REDIS_URL). */
  redis?: Redis;
  clock: Clock;
}

/**
 * One paced Octokit per token (docs/architecture.md#github-pacing): the per-token pace shared
 * across instances, concurrency per token, `retry-after` answered, 409 never retried, deadlines
 * covering the answer body and answers capped in size. REST and GraphQL both go through it.
 */
export class GitHubTransport {
  readonly pace: PaceSettings;
  readonly pacer: GitHubPacer;
  readonly clock: Clock;
  /** Members' calls on this instance, for the work that yields to them (the star-history backfill). */
  readonly interactive: InteractiveActivity;
  readonly #options: TransportOptions;
  readonly #clients = new Map<string, Octokit>();
  /** Throttling groups per client: `global` bounds concurrency, `write` is GraphQL's one-at-a-time. */
  readonly #groups: { global: Bottleneck.Group; write: Bottleneck.Group };
  /** Requests sent per token key (a hash, or `anonymous`) and kind, since the process started. */
  readonly #sent = new Map<string, Record<PaceKind, number>>();

  constructor(options: TransportOptions) {
    this.#options = options;
    this.clock = options.clock;
    this.pace = options.pace;
    this.pacer = new GitHubPacer({ ...this.pace, redis: options.redis, clock: options.clock });
    this.interactive = new InteractiveActivity(options.clock);
    this.#groups = {
      global: new Bottleneck.Group({ maxConcurrent: this.pace.concurrency }),
      // GraphQL goes through the plugin's "write" group: one query at a time per token, but
      // without its default one second between queries (40 queries would take 40 s).
      write: new Bottleneck.Group({ maxConcurrent: 1, minTime: 0 }),
    };
  }

  /** Requests this instance sent to GitHub, per token key and kind (GET /metrics). */
  sentRequests(): { key: string; kind: PaceKind; count: number }[] {
    return [...this.#sent].flatMap(([key, counts]) =>
      (Object.keys(counts) as PaceKind[]).map((kind) => ({ key, kind, count: counts[kind] })),
    );
  }

  /** For the GraphQL batch path, which shares clients, pace and quota bookkeeping. */
  graphqlClient(token: string): { octokit: Octokit; url: string } {
    return { octokit: this.client(token), url: this.#options.graphqlUrl };
  }

  /** The token's Octokit (anonymous for null), made on first use. */
  client(token: string | null): Octokit {
    const key = QuotaBook.keyOf(token);
    let client = this.#clients.get(key);
    if (!client) {
      client = this.#create(token, key);
      this.#clients.set(key, client);
    }
    return client;
  }

  #create(token: string | null, key: string): Octokit {
    const { pacer, pace, clock } = this;
    return new PacedOctokit({
      auth: token ?? undefined,
      baseUrl: this.#options.apiUrl,
      userAgent: this.#options.userAgent,
      request: { fetch: boundedFetch(this.#options.maxAnswerBytes) },
      pacing: {
        pacer,
        key,
        clock,
        timeoutMs: this.#options.timeoutMs,
        interactiveWaitMs: pace.interactiveWaitMs,
        activity: this.interactive,
        sent: (kind: PaceKind) => {
          const counts = this.#sent.get(key) ?? { rest: 0, graphql: 0 };
          counts[kind] += 1;
          this.#sent.set(key, counts);
        },
      },
      // 5xx once after half a second; 409 (an empty repository) and 429 (the throttling
      // plugin's) never.
      retry: {
        doNotRetry: [400, 401, 403, 404, 409, 410, 422, 429, 451],
        retries: 1,
        retryAfterBaseValue: 500,
      },
      throttle: {
        id: key,
        global: this.#groups.global,
        write: this.#groups.write,
        retryAfterBaseValue: pace.retryAfterUnitMs,
        // Every instance stops sending with this token for retry-after (60 s when GitHub
        // gives none), doubling with each further answer; the request tries again unless
        // its caller can't wait that long (then its work is queued).
        onSecondaryRateLimit: async (retryAfter, requestOptions, _octokit, retryCount) => {
          const ms = retryAfter * pace.retryAfterUnitMs * 2 ** retryCount;
          await pacer.pause(key, ms);
          const deadline =
            (requestOptions.request as { paceDeadline?: number } | undefined)?.paceDeadline ??
            nowMs(clock) + pace.interactiveWaitMs;
          return retryCount < MAX_SECONDARY_RETRIES && nowMs(clock) + ms <= deadline;
        },
        // The hour's quota is spent: reported with its reset time, never waited out in a request.
        onRateLimit: () => false,
      },
    } as ConstructorParameters<typeof PacedOctokit>[0]);
  }
}
