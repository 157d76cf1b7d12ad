/**
 * What the double answered, for assertions such as "the sync made 4 requests, 3 of them paid".
 * Keys are route templates ('GET /repos/{owner}/{repo}/commits'), so tests don't depend on
 * which repository or page was asked for.
 */

export interface RecordedRequest {
  method: string;
  /** Path and query as received. */
  path: string;
  /** Route template, or `${method} (unmatched)` for paths the double doesn't serve. */
  key: string;
  status: number;
  /** Whether the request carried a token. */
  authenticated: boolean;
  token: string | null;
  /** Whether it cost quota (a 304 with a token, /rate_limit and rejected requests don't). */
  counted: boolean;
  /** When it was answered (epoch ms). */
  at: number;
  /** When it arrived (epoch ms), for requests that reached a route: [receivedAt, at] is in flight. */
  receivedAt?: number;
  /**
   * GraphQL only, once the query parsed: how many top-level `repository` fields (the app's
   * r0…rN aliases) it asked for, so tests can check batch sizes.
   */
  aliases?: number;
  /** Refused by a secondary rate limit (403/429 with retry-after). */
  secondary?: true;
}

export interface RequestCounts {
  /** Requests answered for one route template. */
  get(key: string): number;
  /** Every answered request. */
  total(): number;
  /** Requests that cost quota. */
  counted(): number;
  /** Requests that cost nothing. */
  free(): number;
  /** Counts per route template. */
  byKey(): Record<string, number>;
}

export class RequestLog implements RequestCounts {
  #records: RecordedRequest[] = [];
  #perKey = new Map<string, number>();
  #counted = 0;

  get records(): readonly RecordedRequest[] {
    return this.#records;
  }

  record(entry: RecordedRequest): void {
    this.#records.push(entry);
    this.#perKey.set(entry.key, (this.#perKey.get(entry.key) ?? 0) + 1);
    if (entry.counted) {
      this.#counted += 1;
    }
  }

  get(key: string): number {
    return this.#perKey.get(key) ?? 0;
  }

  total(): number {
    return this.#records.length;
  }

  counted(): number {
    return this.#counted;
  }

  free(): number {
    return this.#records.length - this.#counted;
  }

  byKey(): Record<string, number> {
    return Object.fromEntries(this.#perKey);
  }

  reset(): void {
    this.#records = [];
    this.#perKey.clear();
    this.#counted = 0;
  }
}
