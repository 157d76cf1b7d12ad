import { RequestError } from '@octokit/request-error';
import { addMs, dateAtMs } from '../lib/clock.ts';
import { GitHubError, MESSAGES, rateLimitMessage } from './github-error.ts';
import { PaceWait } from './pacer.ts';
import type { SharedQuota } from './quota.ts';
import type { QuotaBook } from './quota-book.ts';
import type { GitHubTransport } from './transport.ts';

/** One REST call: with `etag` it is conditional (a 304 keeps what is stored). */
export interface RestCall {
  token: string | null;
  route: string;
  params: Record<string, string | number>;
  etag?: string;
  /** What the call is about (`owner/name`, or a login), for the error message. */
  subject: string;
  /** Epoch ms after which waiting for the token's turn gives up with PaceWait. */
  deadline?: number;
  /** Extra request headers (the star history's `X-GitHub-Api-Version`). */
  headers?: Record<string, string>;
  /**
   * Statuses that mean "GitHub doesn't give this" rather than a failure: thrown as
   * `NotAvailable` (a rate-limit 403 stays a rate-limit error).
   */
  notAvailable?: readonly number[];
}

export interface RestAnswer<T> {
  status: number;
  data: T;
  headers: Record<string, string | number | undefined>;
}

/** GitHub answered a status the call declared as "not available" (`RestCall.notAvailable`). */
export class NotAvailable extends Error {
  override name = 'NotAvailable';
  readonly status: number;
  constructor(status: number) {
    super(`GitHub answered ${status}`);
    this.status = status;
  }
}

/** 409 "Git Repository is empty.": no commits, no contributors. */
export class EmptyRepository extends Error {}
/** GitHub's 403 "too large to list contributors". */
export class TooLargeToCount extends Error {}

export function splitFullName(fullName: string): [string, string] {
  const [owner = '', repo = ''] = fullName.split('/');
  return [owner, repo];
}

export function headerString(value: string | number | undefined): string | undefined {
  return value === undefined ? undefined : String(value);
}

type Headers = Record<string, string | number | undefined>;

/**
 * One REST call through the token's pace (docs/architecture.md#github-usage): `x-ratelimit-*`
 * recorded, 304 answered as such, and failures turned into GitHubError with a message a user
 * can act on (or PaceWait when a secondary limit outlasts the caller's wait).
 */
export class RestCaller {
  readonly #transport: GitHubTransport;
  readonly #quotaBook: QuotaBook;
  readonly #sharedQuota: SharedQuota;
  readonly #serverToken: string | null;

  constructor(deps: {
    transport: GitHubTransport;
    quotaBook: QuotaBook;
    /** Fed by every answer to the server token (or to anonymous calls without one). */
    sharedQuota: SharedQuota;
    serverToken?: string;
  }) {
    this.#transport = deps.transport;
    this.#quotaBook = deps.quotaBook;
    this.#sharedQuota = deps.sharedQuota;
    this.#serverToken = deps.serverToken ?? null;
  }

  async call<T>(call: RestCall): Promise<RestAnswer<T>> {
    const { token, route, params, etag, subject: fullName } = call;
    // `.` and `..` are no GitHub owner or name, and in a URL they are path steps: the id
    // `../rate_limit` (which the owner/name pattern accepts) became GET /rate_limit with the
    // caller's token, and a 500 (found by server/fuzz.property.test.ts). Every REST call
    // passes here, so none can leave /repos/{owner}/{repo} (or /users/{login}/…).
    if (Object.values(params).some((value) => value === '.' || value === '..')) {
      throw new GitHubError('not_found', MESSAGES.notFound(fullName));
    }
    try {
      const answer = await this.#transport.client(token).request(route, {
        ...params,
        headers: { ...call.headers, ...(etag ? { 'if-none-match': etag } : {}) },
        request: { paceDeadline: call.deadline },
      });
      this.#recordQuota(token, answer.headers as Headers);
      return answer as unknown as RestAnswer<T>;
    } catch (error) {
      if (error instanceof PaceWait) throw error;
      if (!(error instanceof RequestError)) throw this.#toGitHubError(error, token, fullName);
      const headers = (error.response?.headers ?? {}) as Headers;
      this.#recordQuota(token, headers);
      if (error.status === 304) return { status: 304, data: undefined as T, headers: {} };
      if (error.status === 409) throw new EmptyRepository(fullName);
      if (error.status === 403 && /too large to list contributors/i.test(error.message))
        throw new TooLargeToCount(fullName);
      const paused = this.#secondaryLimitWait(error);
      if (paused) throw paused;
      const failure = this.#toGitHubError(error, token, fullName);
      if (call.notAvailable?.includes(error.status) && failure.kind !== 'rate_limited')
        throw new NotAvailable(error.status);
      throw failure;
    }
  }

  /**
   * A secondary limit the throttling plugin stopped retrying (the caller could not wait that
   * long): the work is queued, not failed — pacing never turns into a failed item.
   */
  #secondaryLimitWait(error: RequestError): PaceWait | null {
    if (!((error.status === 403 || error.status === 429) && /secondary rate/i.test(error.message)))
      return null;
    const headers = (error.response?.headers ?? {}) as Headers;
    const retryAfter = Number(headers['retry-after']);
    const seconds = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : 60;
    const { clock, pace } = this.#transport;
    return new PaceWait(addMs(clock.now(), seconds * pace.retryAfterUnitMs));
  }

  #toGitHubError(error: unknown, token: string | null, fullName: string): GitHubError {
    if (error instanceof GitHubError) return error;
    if (!(error instanceof RequestError)) return new GitHubError('unreachable', MESSAGES.unreachable);
    const headers = (error.response?.headers ?? {}) as Headers;
    if (error.status === 404) return new GitHubError('not_found', MESSAGES.notFound(fullName));
    if (error.status === 401) return new GitHubError('bad_credentials', MESSAGES.badCredentials);
    if (error.status === 403 || error.status === 429) {
      const retryAfter = Number(headers['retry-after']);
      const reset = Number(headers['x-ratelimit-reset']);
      const limited = headers['x-ratelimit-remaining'] === '0' || headers['x-ratelimit-remaining'] === 0;
      if (Number.isFinite(retryAfter) || limited || /rate limit/i.test(error.message)) {
        const resetAt = Number.isFinite(retryAfter)
          ? addMs(this.#transport.clock.now(), retryAfter * 1000)
          : Number.isFinite(reset)
            ? dateAtMs(reset * 1000)
            : undefined;
        if (resetAt && limited) this.#quotaBook.markExhausted(token, resetAt);
        return new GitHubError('rate_limited', rateLimitMessage(resetAt, token !== null), resetAt);
      }
      return new GitHubError('forbidden', MESSAGES.forbidden);
    }
    return new GitHubError('unreachable', MESSAGES.unreachable);
  }

  #recordQuota(token: string | null, headers: Headers) {
    this.#quotaBook.record(token, headers);
    // The shared quota shown to members is the server token's, or the anonymous one without it.
    if (token === this.#serverToken) {
      this.#sharedQuota.record({
        get: (name) => (headers[name] === undefined ? null : String(headers[name])),
      });
    }
  }
}
