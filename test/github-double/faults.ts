import type { RateResource } from './quota.ts';

/**
 * Faults a test can switch on to see how a client copes with GitHub misbehaving. State only:
 * the server reads it for each request.
 */

export interface FaultInjector {
  /** Delay every answer by `ms` (replaces the start-up `latencyMs`). */
  latency(ms: number): void;
  /** The next `count` requests fail with `status` (502 by default) before reaching a route. */
  serverErrors(count: number, status?: number): void;
  /**
   * Primary rate limit: every request on `resource` (default 'core') answers 403 (or the given
   * status) with x-ratelimit-remaining 0 and reset `untilEpochS`, until that time or clear().
   */
  rateLimit(options: { resource?: RateResource; untilEpochS: number; status?: 403 | 429 }): void;
  /**
   * Secondary rate limit: for the next `retryAfterS` seconds every request answers 403 (or
   * the given status) with `retry-after` and GitHub's secondary-limit message.
   */
  secondaryLimit(retryAfterS: number, options?: { status?: 403 | 429 }): void;
  /**
   * Secondary rate limit for the next `requests` requests only, each answered 403 with
   * `retry-after: retryAfterS` (scaled seconds, see `secondary.windowMs`), whatever their timing.
   */
  secondaryLimitFor(requests: number, retryAfterS: number): void;
  /** Accept requests and never answer them until clear() or close(). */
  hang(): void;
  /**
   * GraphQL queries with more than `maxAliases` repository fields answer 502 (GitHub's
   * time-out answer for queries too heavy to finish in 10 s), not charged, until clear().
   * Smaller queries are answered normally, so a client that halves its batch recovers.
   */
  graphqlTooLarge(maxAliases: number): void;
  /**
   * GraphQL execution time (README.md, "Query time"): each connection request of a query
   * (its cost before dividing by 100: one per connection per repository) takes `msPerConnection`;
   * a query that would take longer than `limitMs` (GitHub's 10 s by default) is answered 502
   * after `limitMs`, and charged (GitHub counts time-outs since July 2025). Until clear(),
   * which restores the start-up values.
   */
  graphqlTime(msPerConnection: number, limitMs?: number): void;
  /**
   * Answer every request 200 with a JSON body of `bytes` (default 64 MiB), sent as fast as the
   * socket takes it and without `content-length`, until clear(): a client must stop reading.
   */
  hugeBody(bytes?: number): void;
  /**
   * Send the headers at once, then the real answer one byte every `intervalMs` (default 200),
   * until clear(): a client's deadline must cover reading the body too.
   */
  slowDrip(intervalMs?: number): void;
  /** Reset the connection (TCP RST) of every request before answering, until clear(). */
  resetConnection(): void;
  /** Remove every injected fault; hung requests are answered now. */
  clear(): void;
}

/** How a request's answer travels, when a transport fault is on. */
export type TransportFault =
  | { kind: 'huge-body'; bytes: number }
  | { kind: 'slow-drip'; intervalMs: number }
  | { kind: 'reset' };

/** How long GraphQL queries take at the double (README.md, "Query time"). */
export interface GraphqlTime {
  /** Milliseconds per connection request (per connection per repository); 0: no time charged. */
  msPerConnection: number;
  /** A query that would take longer is answered 502 after this long: GitHub's 10 s. */
  limitMs: number;
}

export const DEFAULT_GRAPHQL_TIME: GraphqlTime = { msPerConnection: 0, limitMs: 10_000 };

export interface PrimaryLimitFault {
  resource: RateResource;
  untilEpochS: number;
  status: 403 | 429;
}

export interface SecondaryLimitFault {
  untilMs: number;
  status: 403 | 429;
}

export class FaultState {
  latencyMs: number;
  serverErrorsLeft = 0;
  serverErrorStatus = 502;
  primaryLimit: PrimaryLimitFault | undefined;
  secondaryLimit: SecondaryLimitFault | undefined;
  /** Requests still to refuse with a secondary limit (`secondaryLimitFor`), and their retry-after. */
  secondaryRefusalsLeft = 0;
  secondaryRefusalRetryAfterS = 60;
  hanging = false;
  /** GraphQL queries with more repository fields than this answer 502; undefined: no limit. */
  graphqlMaxAliases: number | undefined;
  /** GraphQL execution time per connection request, and the time after which a query fails. */
  graphqlTime: GraphqlTime;
  transport: TransportFault | undefined;
  readonly #defaultLatencyMs: number;
  readonly #defaultGraphqlTime: GraphqlTime;

  constructor(defaultLatencyMs: number, defaultGraphqlTime: Partial<GraphqlTime> = {}) {
    this.#defaultLatencyMs = defaultLatencyMs;
    this.latencyMs = defaultLatencyMs;
    this.#defaultGraphqlTime = { ...DEFAULT_GRAPHQL_TIME, ...defaultGraphqlTime };
    this.graphqlTime = this.#defaultGraphqlTime;
  }

  /** Takes one injected server error, if any are left. */
  takeServerError(): number | undefined {
    if (this.serverErrorsLeft <= 0) {
      return undefined;
    }
    this.serverErrorsLeft -= 1;
    return this.serverErrorStatus;
  }

  activePrimaryLimit(resource: RateResource, nowMs: number): PrimaryLimitFault | undefined {
    const fault = this.primaryLimit;
    if (!fault || fault.resource !== resource) {
      return undefined;
    }
    if (nowMs >= fault.untilEpochS * 1000) {
      this.primaryLimit = undefined;
      return undefined;
    }
    return fault;
  }

  /** Takes one forced secondary-limit refusal, if any are left: its retry-after. */
  takeSecondaryRefusal(): number | undefined {
    if (this.secondaryRefusalsLeft <= 0) return undefined;
    this.secondaryRefusalsLeft -= 1;
    return this.secondaryRefusalRetryAfterS;
  }

  activeSecondaryLimit(nowMs: number): SecondaryLimitFault | undefined {
    const fault = this.secondaryLimit;
    if (fault && nowMs >= fault.untilMs) {
      this.secondaryLimit = undefined;
      return undefined;
    }
    return fault;
  }

  reset(): void {
    this.latencyMs = this.#defaultLatencyMs;
    this.serverErrorsLeft = 0;
    this.serverErrorStatus = 502;
    this.primaryLimit = undefined;
    this.secondaryLimit = undefined;
    this.secondaryRefusalsLeft = 0;
    this.hanging = false;
    this.graphqlMaxAliases = undefined;
    this.graphqlTime = this.#defaultGraphqlTime;
    this.transport = undefined;
  }
}
