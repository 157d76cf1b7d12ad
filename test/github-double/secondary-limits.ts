/**
 * GitHub's secondary rate limits, enforced per caller (a token, or an anonymous address):
 * at most 900 REST points and 2,000 GraphQL points in any rolling minute, and at most 100
 * requests in flight at once. A request over a limit is refused with 403, GitHub's
 * secondary-limit message and `retry-after`, and the caller stays refused until that time has
 * passed (GitHub's own advice: wait the `retry-after` out). Refused requests cost no points.
 *
 * Points, as GitHub documents them: a REST GET, HEAD or OPTIONS is 1 point, any other method
 * 5; a GraphQL request is 1 point (the app sends queries only; a mutation would be 5).
 *
 * `windowMs` shortens GitHub's minute for tests: every duration scales with it, so a
 * `retry-after: 60` means one window, and a client that waits `retryAfter × windowMs / 60` ms
 * per second of it (the app's GITHUB_RETRY_AFTER_UNIT_MS) waits exactly as long as it must.
 */

export interface SecondaryLimitOptions {
  /** REST points per window (GitHub: 900 a minute). */
  restPointsPerMinute?: number;
  /** GraphQL points per window (GitHub: 2,000 a minute). */
  graphqlPointsPerMinute?: number;
  /** Requests in flight at once per caller (GitHub: 100). */
  concurrency?: number;
  /** The `retry-after` sent with a refusal, in (scaled) seconds; GitHub sends 60. */
  retryAfterSeconds?: number;
  /** GitHub's minute; shorter in tests. */
  windowMs?: number;
}

export type SecondaryKind = 'rest' | 'graphql';

export const GITHUB_SECONDARY_LIMITS: Required<SecondaryLimitOptions> = {
  restPointsPerMinute: 900,
  graphqlPointsPerMinute: 2000,
  concurrency: 100,
  retryAfterSeconds: 60,
  windowMs: 60_000,
};

/** Points of one request: GitHub's weights. */
export function secondaryPoints(method: string, kind: SecondaryKind): number {
  if (kind === 'graphql') return 1;
  return ['GET', 'HEAD', 'OPTIONS'].includes(method.toUpperCase()) ? 1 : 5;
}

interface CallerState {
  spent: Record<SecondaryKind, { at: number; points: number }[]>;
  inFlight: number;
  peakInFlight: number;
  blockedUntil: number;
  rejections: number;
}

/** What `admit` decided: let it through (call `release` when answered), or refuse it. */
export type Admission = { admitted: true; release: () => void } | { admitted: false; retryAfterS: number };

export class SecondaryLimits {
  readonly limits: Required<SecondaryLimitOptions>;
  readonly enabled: boolean;
  #callers = new Map<string, CallerState>();

  constructor(options: SecondaryLimitOptions | false | undefined) {
    this.enabled = options !== false;
    this.limits = { ...GITHUB_SECONDARY_LIMITS, ...(options || {}) };
  }

  /** One (scaled) second of `retry-after`, in ms. */
  get secondMs(): number {
    return this.limits.windowMs / 60;
  }

  /** Decides on a request as it arrives (before any latency), and counts it in flight. */
  admit(caller: string, kind: SecondaryKind, points: number, nowMs: number): Admission {
    const state = this.#state(caller);
    const refuse = (untilMs: number): Admission => {
      state.rejections += 1;
      state.blockedUntil = Math.max(state.blockedUntil, untilMs);
      return {
        admitted: false,
        retryAfterS: Math.max(1, Math.ceil((state.blockedUntil - nowMs) / this.secondMs)),
      };
    };
    if (this.enabled) {
      if (state.blockedUntil > nowMs) return refuse(state.blockedUntil);
      const penalty = nowMs + this.limits.retryAfterSeconds * this.secondMs;
      if (state.inFlight >= this.limits.concurrency) return refuse(penalty);
      const limit = kind === 'rest' ? this.limits.restPointsPerMinute : this.limits.graphqlPointsPerMinute;
      if (this.#spentInWindow(state, kind, nowMs) + points > limit) return refuse(penalty);
    }
    state.spent[kind].push({ at: nowMs, points });
    state.inFlight += 1;
    state.peakInFlight = Math.max(state.peakInFlight, state.inFlight);
    let released = false;
    return {
      admitted: true,
      release: () => {
        if (released) return;
        released = true;
        state.inFlight -= 1;
      },
    };
  }

  /** Refusals sent, to one caller or to all. */
  rejections(caller?: string): number {
    return this.#sum(caller, (state) => state.rejections);
  }

  /** The most requests one caller (or any caller) had in flight at once. */
  peakConcurrency(caller?: string): number {
    if (caller !== undefined) return this.#callers.get(caller)?.peakInFlight ?? 0;
    return Math.max(0, ...[...this.#callers.values()].map((state) => state.peakInFlight));
  }

  /** Points a caller (or every caller) spent in the current rolling window. */
  pointsInWindow(kind: SecondaryKind, caller?: string, nowMs = Date.now()): number {
    return this.#sum(caller, (state) => this.#spentInWindow(state, kind, nowMs));
  }

  /** The most points one caller spent in any rolling window so far (the pace a client kept). */
  peakPointsInWindow(kind: SecondaryKind, caller?: string): number {
    const states = caller !== undefined ? [this.#callers.get(caller)] : [...this.#callers.values()];
    let peak = 0;
    for (const state of states) {
      if (!state) continue;
      const spent = state.spent[kind];
      let start = 0;
      let sum = 0;
      for (const entry of spent) {
        sum += entry.points;
        while ((spent[start]?.at ?? 0) <= entry.at - this.limits.windowMs) {
          sum -= spent[start]?.points ?? 0;
          start += 1;
        }
        peak = Math.max(peak, sum);
      }
    }
    return peak;
  }

  reset(): void {
    this.#callers.clear();
  }

  #spentInWindow(state: CallerState, kind: SecondaryKind, nowMs: number): number {
    const since = nowMs - this.limits.windowMs;
    let sum = 0;
    for (const entry of state.spent[kind]) if (entry.at > since) sum += entry.points;
    return sum;
  }

  #sum(caller: string | undefined, pick: (state: CallerState) => number): number {
    if (caller !== undefined) {
      const state = this.#callers.get(caller);
      return state ? pick(state) : 0;
    }
    let sum = 0;
    for (const state of this.#callers.values()) sum += pick(state);
    return sum;
  }

  #state(caller: string): CallerState {
    let state = this.#callers.get(caller);
    if (!state) {
      state = {
        spent: { rest: [], graphql: [] },
        inFlight: 0,
        peakInFlight: 0,
        blockedUntil: 0,
        rejections: 0,
      };
      this.#callers.set(caller, state);
    }
    return state;
  }
}
