import { type Clock, nowMs } from '../lib/clock.ts';

/**
 * Repositories per GraphQL query at first, and again after a ceiling is forgotten: the size
 * that has long worked (GitHub-API.md: 24–25 in practice; 500s around 60–70).
 */
export const GRAPHQL_BATCH_START = 25;

/**
 * An answer faster than this lets the next query grow. GitHub cuts a query off at 10 s (and,
 * since July 2025, charges the time-out against the hour's points): a query that took 4 s grows
 * by GRAPHQL_BATCH_GROWTH to one that should take about 6 s, still 40% under the cut-off for
 * a slower moment at GitHub. A slower answer keeps the size.
 */
export const GRAPHQL_GROW_BELOW_MS = 4000;

/**
 * Growth after a fast answer: ×1.5 (25 → 37 → 55 → 60) reaches GITHUB_GRAPHQL_BATCH_MAX in
 * three queries, while each step adds at most half of a query that was 40% under the limit.
 */
export const GRAPHQL_BATCH_GROWTH = 1.5;

/**
 * How long a size that failed (502/504 or a time-out) stays the token's ceiling. Without one,
 * the size would grow straight back into the failure after every halving (each failure costs
 * up to 10 s and points); after this long GitHub may be faster again, so growth probes anew.
 */
export const GRAPHQL_CEILING_MS = 15 * 60_000;

interface TokenSize {
  size: number;
  /** The largest size that answered since the last failure. */
  lastGood: number;
  /** Sizes above this failed recently; null: none. */
  ceiling: number | null;
  ceilingUntil: number;
}

/**
 * What the process has learnt about how many repositories one GraphQL query may carry, per
 * token (the GitHub client holds one, so imports and syncs share it): start at
 * GRAPHQL_BATCH_START, grow after fast answers up to `max`, halve on 502/504 and time-outs and
 * remember the size that failed for a while (docs/architecture.md#graphql-batching). It also
 * keeps each token's turn: one query in flight per token in this process (Octokit's throttling
 * "write" group only spaces out the starts of queries, it doesn't wait for their answers).
 */
export class GraphqlBatchSizes {
  readonly max: number;
  readonly start: number;
  readonly #clock: Clock;
  readonly #tokens = new Map<string, TokenSize>();
  /** Per token, the end of the last query that asked for a turn. */
  readonly #turns = new Map<string, Promise<unknown>>();

  constructor(clock: Clock, max: number) {
    this.#clock = clock;
    this.max = Math.max(1, Math.floor(max));
    this.start = Math.min(GRAPHQL_BATCH_START, this.max);
  }

  /** Repositories the next query of this token (its key) carries. */
  sizeFor(key: string): number {
    return this.#state(key).size;
  }

  /** A query of `sent` repositories answered in `ms`: the size may grow. */
  answered(key: string, sent: number, ms: number): void {
    const state = this.#state(key);
    state.lastGood = Math.max(state.lastGood, sent);
    // A smaller query (a window's remainder) says nothing about the current size.
    if (sent < state.size || ms >= GRAPHQL_GROW_BELOW_MS) return;
    const limit = Math.min(this.max, state.ceiling ?? this.max);
    const grown = Math.max(state.size + 1, Math.floor(state.size * GRAPHQL_BATCH_GROWTH));
    state.size = Math.max(state.size, Math.min(limit, grown));
  }

  /**
   * A query of `sent` repositories timed out (502/504, or no answer in time): half of it next.
   * Above the start size the size is to blame: no growth past what last answered (at least
   * the start size) for GRAPHQL_CEILING_MS. At or below it, one heavy repository or a slow
   * moment is: the halving isolates it, and growth resumes after the next fast answer.
   */
  failed(key: string, sent: number): void {
    const state = this.#state(key);
    const halved = Math.max(1, Math.floor(sent / 2));
    state.size = Math.min(state.size, halved);
    if (sent > this.start) {
      const known = state.lastGood < sent ? state.lastGood : 0;
      state.ceiling = Math.max(this.start, halved, known);
      state.ceilingUntil = nowMs(this.#clock) + GRAPHQL_CEILING_MS;
    }
    state.lastGood = 0;
  }

  /** Runs `query` once the token's previous query has been answered (or has failed). */
  async oneAtATime<T>(key: string, query: () => Promise<T>): Promise<T> {
    const previous = this.#turns.get(key) ?? Promise.resolve();
    const turn = previous.then(query, query);
    const settled = turn.then(
      () => {},
      () => {},
    );
    this.#turns.set(key, settled);
    try {
      return await turn;
    } finally {
      if (this.#turns.get(key) === settled) this.#turns.delete(key);
    }
  }

  #state(key: string): TokenSize {
    let state = this.#tokens.get(key);
    if (!state) {
      state = { size: this.start, lastGood: 0, ceiling: null, ceilingUntil: 0 };
      this.#tokens.set(key, state);
    }
    if (state.ceiling !== null && nowMs(this.#clock) >= state.ceilingUntil) state.ceiling = null;
    return state;
  }
}
