import { Octokit } from '@octokit/core';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { RequestError } from '@octokit/request-error';
import Bottleneck from 'bottleneck';
import type { Redis } from 'ioredis';
import type { Commit } from '../../shared/schemas/repositories.ts';
import type { AppConfig } from '../config.ts';
import { GitHubError, MESSAGES, rateLimitMessage } from './github-error.ts';
import { countFromLink } from './link-header.ts';
import { GitHubPacer, type PaceKind, PaceWait } from './pacer.ts';
import { SharedQuota } from './quota.ts';
import { QuotaBook } from './quota-book.ts';
import {
  CAPPED_CONTRIBUTORS,
  licenseLabel,
  RELEASES_READ,
  type ReleaseInfo,
  type ReleaseRead,
  type RepositorySnapshot,
  tagInfo,
  webUrl,
} from './repository-snapshot.ts';

/** Stored per repository: GitHub's ETag of each list the sync reads, for conditional requests. */
export interface Etags {
  repo?: string;
  commits?: string;
  commitCount?: string;
  contributors?: string;
  /** The newest releases (`/releases?per_page=5`). */
  releases?: string;
  /** The newest tags, kept only while the project has no published release. */
  tags?: string;
}

export interface GitHubClientOptions {
  apiUrl: string;
  graphqlUrl: string;
  /** GITHUB_TOKEN: used for public repositories when the member has no token of their own. */
  serverToken?: string;
  /** The server token's (or the anonymous) quota as members see it; a new one by default. */
  sharedQuota?: SharedQuota;
  /** Deadline of one request, its answer's body included (GITHUB_TIMEOUT_MS). */
  timeoutMs?: number;
  /** The largest answer read (MAX_ANSWER_BYTES by default). */
  maxAnswerBytes?: number;
  userAgent?: string;
  /** Per-token pace (GITHUB_REST_PER_MINUTE, …); GitHub's limits with a margin by default. */
  pace?: Partial<PaceSettings>;
  /** Shares the pace across instances (REDIS_URL). */
  redis?: Redis;
}

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

/** Secondary-limit answers met by one request before it gives up (each pauses the token longer). */
const MAX_SECONDARY_RETRIES = 4;

/** One REST call: with `etag` it is conditional (a 304 keeps what is stored). */
interface RestCall {
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

/** The REST version that has the star history (docs/decisions.md, "Star history from GitHub"). */
export const STAR_HISTORY_API_VERSION = '2026-03-10';
/** Weeks per page of the star history: GitHub's usual maximum. */
const STAR_HISTORY_PER_PAGE = 100;
/** Pages read at most (10,000 weeks): a guard against a Link header that never ends. */
const STAR_HISTORY_MAX_PAGES = 100;

/** One week of GitHub's star history: stars added on each of its seven days, its first day first. */
export interface StarHistoryWeek {
  /** The week's first day, `YYYY-MM-DD`. */
  week: string;
  days: number[];
}

/** The star history, or the status GitHub answered when it has none to give (404, 403, 410). */
export type StarHistoryRead =
  | { available: true; weeks: StarHistoryWeek[] }
  | { available: false; status: number };

/** GitHub answered a status the call declared as "not available" (`RestCall.notAvailable`). */
export class NotAvailable extends Error {
  override name = 'NotAvailable';
  readonly status: number;
  constructor(status: number) {
    super(`GitHub answered ${status}`);
    this.status = status;
  }
}

/** A contributor count, or "unchanged" for a conditional read GitHub answered 304. */
export type ContributorCount =
  | { notModified?: undefined; contributors: number; contributorsCapped: boolean; etag?: string }
  | { notModified: true };

/** How long a call may wait for its token's turn: `interactive` (the default) or until `deadline`. */
export interface PaceOption {
  deadline?: number;
}

interface RestAnswer<T> {
  status: number;
  data: T;
  headers: Record<string, string | number | undefined>;
}

/** The fields of GitHub's repos/get the catalogue reads. */
interface RestRepository {
  id: number;
  name: string;
  full_name: string;
  private: boolean;
  html_url: string;
  description: string | null;
  stargazers_count: number;
  forks_count: number;
  open_issues_count: number;
  language: string | null;
  archived: boolean;
  default_branch: string;
  topics?: string[];
  license: { spdx_id?: string | null; name?: string | null } | null;
}

/** The fields of GitHub's release object (repos/list-releases) the catalogue reads. */
interface RestRelease {
  tag_name: string;
  name: string | null;
  body?: string | null;
  draft: boolean;
  prerelease: boolean;
  published_at: string | null;
  html_url: string;
}

/** GitHub's tag object (repos/list-tags): a name and its commit, no date. */
interface RestTag {
  name: string;
  commit: { sha: string };
}

interface RestCommit {
  sha: string;
  commit: {
    author: { name?: string; date?: string } | null;
    committer: { date?: string } | null;
    message: string;
  };
  author: { login?: string } | null;
}

/**
 * The largest GitHub answer read: a page of 100 commits is about 0.4 MB and a 25-repository
 * GraphQL answer about 0.2 MB. A bigger one is refused instead of filling memory.
 */
export const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/**
 * The connection failed, the answer missed the deadline (headers or body), or it was too large.
 * Not retried: a GitHub that didn't answer within the deadline would double the wait.
 */
class TransportFailure extends Error {
  override name = 'TransportFailure';
}

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * Octokit's fetch, reading the whole answer under the request's deadline signal before Octokit
 * sees it, at most `maxBytes`. Octokit reads bodies itself and swallows a failure mid-body (a
 * connection reset or a deadline during a slow drip became an empty 200 answer), and reads
 * any size: here both fail the request, as a TransportFailure.
 */
export function boundedFetch(maxBytes: number): typeof fetch {
  return async (input, init) => {
    let response: Response;
    try {
      response = await fetch(input, init);
    } catch (error) {
      throw new TransportFailure(describeFailure(error), { cause: error });
    }
    if (!response.body) return response;
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > maxBytes) throw new TransportFailure(`GitHub's answer is larger than ${maxBytes} bytes`);
        chunks.push(value);
      }
    } catch (error) {
      reader.cancel().catch(() => {});
      throw error instanceof TransportFailure
        ? error
        : new TransportFailure(describeFailure(error), { cause: error });
    }
    return new Response(NULL_BODY_STATUSES.has(response.status) ? null : Buffer.concat(chunks), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

function describeFailure(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return 'GitHub did not answer in time';
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : '';
  return `GitHub could not be reached${cause ? `: ${cause}` : ''}`;
}

/** A request needs at most this many calls: repos/get, commits, commit count, contributors. */
export const FULL_FETCH_COST = 4;

/**
 * Octokit with GitHub's kept plugins, innermost first: `pacing` (each attempt waits for its
 * token's turn, then gets its own deadline), `retry` (5xx once; 409 and 4xx never) and
 * `throttling` (concurrency per token, one GraphQL query at a time, `retry-after` answered).
 */
const PacedOctokit = Octokit.plugin(pacing, retry, throttling);

interface PacingOptions {
  pacer: GitHubPacer;
  key: string;
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
  #inFlight = 0;
  #lastAt = 0;

  begin(): void {
    this.#inFlight += 1;
    this.#lastAt = Date.now();
  }

  end(): void {
    this.#inFlight = Math.max(0, this.#inFlight - 1);
    this.#lastAt = Date.now();
  }

  /** Milliseconds since the last such call ended; 0 while one is in flight. */
  idleMs(): number {
    return this.#inFlight > 0 ? 0 : Date.now() - this.#lastAt;
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
    const extra = requestOptions.request as { paceDeadline?: number; callerSignal?: AbortSignal };
    const deadline = extra.paceDeadline ?? Date.now() + settings.interactiveWaitMs;
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
    try {
      return await request(requestOptions);
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

/**
 * GitHub through Octokit, kind to its quota and its secondary limits
 * (docs/architecture.md#github-usage, #github-pacing): a per-token pace shared across instances,
 * conditional requests with stored ETags (a 304 with a token costs nothing), counts from `Link`
 * with `per_page=1`, `x-ratelimit-*` and `retry-after` honoured, 409 never retried, deadlines
 * (10 s by default) covering the answer body, answers capped at 8 MiB, and failures turned into
 * GitHubError with a message a user can act on.
 */
export class GitHubClient {
  readonly #options: Required<Omit<GitHubClientOptions, 'serverToken' | 'pace' | 'redis'>> & {
    serverToken?: string;
  };
  readonly pace: PaceSettings;
  readonly pacer: GitHubPacer;
  readonly #clients = new Map<string, Octokit>();
  /** Throttling groups per client: `global` bounds concurrency, `write` is GraphQL's one-at-a-time. */
  readonly #groups: { global: Bottleneck.Group; write: Bottleneck.Group };
  readonly quotaBook = new QuotaBook();
  /** Members' calls on this instance, for the work that yields to them (the star-history backfill). */
  readonly interactive = new InteractiveActivity();
  /** Requests sent per token key (a hash, or `anonymous`) and kind, since the process started. */
  readonly #sent = new Map<string, Record<PaceKind, number>>();
  /** Fed by every answer to the server token (or to anonymous calls without one). */
  readonly sharedQuota: SharedQuota;

  constructor(options: GitHubClientOptions) {
    this.sharedQuota = options.sharedQuota ?? new SharedQuota();
    this.#options = {
      apiUrl: options.apiUrl,
      graphqlUrl: options.graphqlUrl,
      serverToken: options.serverToken,
      sharedQuota: this.sharedQuota,
      timeoutMs: options.timeoutMs ?? 10_000,
      maxAnswerBytes: options.maxAnswerBytes ?? MAX_ANSWER_BYTES,
      userAgent: options.userAgent ?? 'repo-tracker',
    };
    this.pace = { ...DEFAULT_PACE, ...options.pace };
    this.pacer = new GitHubPacer({ ...this.pace, redis: options.redis });
    this.#groups = {
      global: new Bottleneck.Group({ maxConcurrent: this.pace.concurrency }),
      // GraphQL goes through the plugin's "write" group: one query at a time per token, but
      // without its default one second between queries (40 queries would take 40 s).
      write: new Bottleneck.Group({ maxConcurrent: 1, minTime: 0 }),
    };
  }

  /** Per token seen (anonymous included): quota as last answered and this instance's REST pace. */
  tokenStates(): {
    key: string;
    remaining: number | null;
    limit: number | null;
    resetAt: Date | null;
    restPerMinute: number;
    pausedUntil: Date | null;
  }[] {
    const keys = new Set([...this.quotaBook.keys(), ...this.pacer.keys()]);
    return [...keys].map((key) => {
      const quota = this.quotaBook.stateOf(key);
      return {
        key,
        remaining: quota?.remaining ?? null,
        limit: quota?.limit ?? null,
        resetAt: quota?.resetAt ?? null,
        restPerMinute: this.pacer.restLastMinute(key),
        pausedUntil: this.pacer.pausedUntil(key),
      };
    });
  }

  /** Requests this instance sent to GitHub, per token key and kind (GET /metrics). */
  sentRequests(): { key: string; kind: PaceKind; count: number }[] {
    return [...this.#sent].flatMap(([key, counts]) =>
      (Object.keys(counts) as PaceKind[]).map((kind) => ({ key, kind, count: counts[kind] })),
    );
  }

  /** When the token's hourly quota resets, as GitHub last said (an hour from now when unknown). */
  quotaResetOf(token: string | null): Date {
    const resetAt = this.quotaBook.stateOf(QuotaBook.keyOf(token))?.resetAt;
    return resetAt && resetAt.getTime() > Date.now() ? resetAt : new Date(Date.now() + 3600_000);
  }

  /**
   * The token to act with: the member's own, else the server's, else none (docs/architecture.md#which-token).
   */
  tokenFor(personalToken: string | null | undefined): string | null {
    return personalToken || this.#options.serverToken || null;
  }

  /**
   * Whether `cost` more requests leave at least `1 - budget` of the token's hourly quota for
   * people: background work never spends what members need. Unknown quota: yes.
   */
  canSpend(token: string | null, cost: number, budget: number): boolean {
    return this.quotaBook.leaves(token, cost, budget);
  }

  /**
   * Reads a repository over REST. With `previous` (the stored snapshot and ETags), unchanged
   * lists answer 304 and their stored values are kept; an unchanged newest-commits list means
   * the commit and contributor counts can't have moved, so they are not asked again.
   */
  async fetchRepository(
    fullName: string,
    token: string | null,
    previous?: { snapshot: RepositorySnapshot; etags: Etags },
    options: { allowPrivate?: boolean; readReleases?: boolean } & PaceOption = {},
  ): Promise<{ snapshot: RepositorySnapshot; etags: Etags }> {
    const { deadline } = options;
    const resetAt = this.quotaBook.shortfall(token, FULL_FETCH_COST);
    if (resetAt) throw new GitHubError('rate_limited', rateLimitMessage(resetAt, token !== null), resetAt);
    const [owner, repo] = splitFullName(fullName);
    const etags: Etags = { ...previous?.etags };

    const repoAnswer = await this.#rest<RestRepository>({
      token,
      route: 'GET /repos/{owner}/{repo}',
      params: { owner, repo },
      etag: previous ? etags.repo : undefined,
      subject: fullName,
      deadline,
    });
    let base: RepositorySnapshot;
    if (repoAnswer.status === 304 && previous) {
      base = previous.snapshot;
    } else {
      base = mapRestRepository(repoAnswer.data, previous?.snapshot);
      etags.repo = headerString(repoAnswer.headers.etag);
    }
    // A private repository read with a token that may not add it: stop before spending more.
    if (base.private && options.allowPrivate === false)
      throw new GitHubError('not_found', MESSAGES.notFound(fullName));
    // Follow a rename: the answer names the repository as GitHub spells it now.
    const [currentOwner, currentRepo] = splitFullName(base.fullName);
    const names = { owner: currentOwner, repo: currentRepo };
    const renamed =
      previous !== undefined && base.fullName.toLowerCase() !== previous.snapshot.fullName.toLowerCase();

    const recent = await this.#recentCommits(
      token,
      names,
      renamed ? undefined : previous ? etags.commits : undefined,
      fullName,
      10,
      deadline,
    );
    // Releases are read the first time, and then only when the repository or its newest commits
    // changed (publishing a release pushes its tag, which moves the repository's `pushed_at`):
    // an unchanged repository costs exactly what it did. An anonymous add reads none (the
    // import budget); its first sync does.
    const firstRead = etags.releases === undefined && etags.tags === undefined;
    const readReleases =
      options.readReleases ??
      (token === null && previous === undefined
        ? false
        : firstRead || repoAnswer.status !== 304 || recent.status !== 304);
    const releases = async () =>
      readReleases ? this.#readReleases(token, names, etags, base.url, fullName, deadline) : undefined;
    if (recent.status === 304 && previous) {
      const snapshot: RepositorySnapshot = { ...base, ...pickHistory(previous.snapshot) };
      const read = await releases();
      return { snapshot: read ? { ...snapshot, releases: read } : snapshot, etags };
    }
    etags.commits = recent.etag;
    const history = {
      recentCommits: recent.commits,
      lastCommit: recent.commits[0]?.date ?? null,
      commits: recent.commits.length,
    };
    if (recent.hasMore) {
      const count = await this.#rest<unknown[]>({
        token,
        route: 'GET /repos/{owner}/{repo}/commits',
        params: { ...names, per_page: 1 },
        subject: fullName,
        deadline,
      });
      history.commits = countFromLink(headerString(count.headers.link), count.data.length);
    }
    const counted = await this.#contributorCount(token, names, fullName, deadline);
    if (counted.notModified) throw new Error('unconditional contributor count answered 304');
    const { contributors, contributorsCapped } = counted;
    if (counted.etag) etags.contributors = counted.etag;
    const snapshot: RepositorySnapshot = { ...base, ...history, contributors, contributorsCapped };
    const read = await releases();
    return { snapshot: read ? { ...snapshot, releases: read } : snapshot, etags };
  }

  /**
   * The newest releases, conditional on the stored ETag; the newest tags only for a project
   * with no published release (`etags.tags` is kept exactly while that is so). Both unchanged:
   * undefined, nothing to look at.
   */
  async #readReleases(
    token: string | null,
    names: { owner: string; repo: string },
    etags: Etags,
    repositoryUrl: string,
    fullName: string,
    deadline?: number,
  ): Promise<ReleaseRead | undefined> {
    let listed: RestAnswer<RestRelease[]>;
    try {
      listed = await this.#rest<RestRelease[]>({
        token,
        route: 'GET /repos/{owner}/{repo}/releases',
        params: { ...names, per_page: RELEASES_READ },
        etag: etags.releases,
        subject: fullName,
        deadline,
      });
    } catch (error) {
      // The repository was read: a refusal of its releases alone waits for the next sync.
      if (error instanceof GitHubError && (error.kind === 'forbidden' || error.kind === 'unreachable'))
        return undefined;
      throw error;
    }
    let releases: ReleaseInfo[] | null = null;
    if (listed.status !== 304) {
      etags.releases = headerString(listed.headers.etag);
      releases = (Array.isArray(listed.data) ? listed.data : []).map(mapRestRelease);
      if (releases.some((release) => !release.draft)) {
        delete etags.tags;
        return { releases, tags: null };
      }
    } else if (etags.tags === undefined) {
      return undefined;
    }
    // No published release: the project's tags stand in for them.
    const tagged = await this.#rest<RestTag[]>({
      token,
      route: 'GET /repos/{owner}/{repo}/tags',
      params: { ...names, per_page: RELEASES_READ },
      etag: etags.tags,
      subject: fullName,
      deadline,
    });
    if (tagged.status === 304) return releases ? { releases, tags: null } : undefined;
    // An empty list has no ETag worth keeping, but the mark says "follow tags" all the same.
    etags.tags = headerString(tagged.headers.etag) ?? '';
    const tags = (Array.isArray(tagged.data) ? tagged.data : []).map((tag) =>
      tagInfo(tag.name, null, repositoryUrl),
    );
    return { releases: releases ?? [], tags };
  }

  /**
   * The full names of a user's stars, or of a user's or organisation's repositories, GitHub's
   * order, at most `max` (100 a page). An organisation name is tried first, then a user's.
   */
  async listRepositoryNames(
    source: 'starred' | 'owner',
    login: string,
    token: string | null,
    max: number,
  ): Promise<string[]> {
    const routes =
      source === 'starred'
        ? ['GET /users/{login}/starred']
        : ['GET /orgs/{login}/repos', 'GET /users/{login}/repos'];
    for (const [index, route] of routes.entries()) {
      try {
        return await this.#collectNames(route, login, token, max);
      } catch (error) {
        const lastTry = index === routes.length - 1;
        if (!(error instanceof GitHubError) || error.kind !== 'not_found' || lastTry) {
          if (error instanceof GitHubError && error.kind === 'not_found') {
            throw new GitHubError('not_found', `GitHub has no user or organisation named ${login}.`);
          }
          throw error;
        }
      }
    }
    return [];
  }

  async #collectNames(route: string, login: string, token: string | null, max: number): Promise<string[]> {
    const names: string[] = [];
    for (let page = 1; names.length < max; page++) {
      const answer = await this.#rest<{ full_name: string }[]>({
        token,
        route,
        params: { login, per_page: 100, page },
        subject: login,
      });
      names.push(...answer.data.map((repository) => repository.full_name));
      const last = countFromLink(headerString(answer.headers.link), page);
      if (page >= last || answer.data.length === 0) break;
    }
    return names.slice(0, max);
  }

  /** The newest commits of the default branch, for the detail screen (`?limit=10`). */
  async listCommits(fullName: string, token: string | null, limit: number): Promise<Commit[]> {
    const [owner, repo] = splitFullName(fullName);
    const recent = await this.#recentCommits(token, { owner, repo }, undefined, fullName, limit);
    return recent.commits;
  }

  async #recentCommits(
    token: string | null,
    names: { owner: string; repo: string },
    etag: string | undefined,
    fullName: string,
    limit = 10,
    deadline?: number,
  ): Promise<{ status: number; commits: Commit[]; hasMore: boolean; etag?: string }> {
    try {
      const answer = await this.#rest<RestCommit[]>({
        token,
        route: 'GET /repos/{owner}/{repo}/commits',
        params: { ...names, per_page: limit },
        etag,
        subject: fullName,
        deadline,
      });
      if (answer.status === 304) return { status: 304, commits: [], hasMore: false };
      return {
        status: answer.status,
        commits: answer.data.map(mapRestCommit),
        hasMore: Boolean(headerString(answer.headers.link)?.includes('rel="last"')),
        etag: headerString(answer.headers.etag),
      };
    } catch (error) {
      // An empty repository has no history: 409 "Git Repository is empty."
      if (error instanceof EmptyRepository) return { status: 200, commits: [], hasMore: false };
      throw error;
    }
  }

  async #contributorCount(
    token: string | null,
    names: { owner: string; repo: string },
    fullName: string,
    deadline?: number,
    etag?: string,
  ): Promise<ContributorCount> {
    try {
      const answer = await this.#rest<unknown[] | undefined>({
        token,
        route: 'GET /repos/{owner}/{repo}/contributors',
        params: { ...names, per_page: 1, anon: '1' },
        etag,
        subject: fullName,
        deadline,
      });
      if (answer.status === 304) return { notModified: true };
      const answeredEtag = headerString(answer.headers.etag);
      // 204 No Content: an empty repository has no contributors.
      if (answer.status === 204 || !Array.isArray(answer.data))
        return { contributors: 0, contributorsCapped: false, etag: answeredEtag };
      return {
        contributors: countFromLink(headerString(answer.headers.link), answer.data.length),
        contributorsCapped: false,
        etag: answeredEtag,
      };
    } catch (error) {
      if (error instanceof TooLargeToCount)
        return { contributors: CAPPED_CONTRIBUTORS, contributorsCapped: true };
      if (error instanceof EmptyRepository) return { contributors: 0, contributorsCapped: false };
      throw error;
    }
  }

  /**
   * GitHub's star history (`GET /repos/{owner}/{repo}/stargazers/history`, REST version
   * 2026-03-10): every week's daily additions, all pages of 100, in GitHub's order. Always with
   * a token (never anonymous). 404, 403 (unless it is a rate limit) and 410 mean GitHub has no
   * history to give: `{ available: false, status }`. Extra fields are ignored; an item without
   * a `week` date and seven counts fails the read. `beforePage` runs before every page, so
   * the lowest-priority caller can stop between them.
   */
  async starHistory(
    fullName: string,
    token: string,
    options: PaceOption & { beforePage?: (page: number) => Promise<void> } = {},
  ): Promise<StarHistoryRead> {
    if (!token) throw new Error('the star history is read with a token only');
    const [owner, repo] = splitFullName(fullName);
    const weeks: StarHistoryWeek[] = [];
    for (let page = 1; page <= STAR_HISTORY_MAX_PAGES; page++) {
      await options.beforePage?.(page);
      let answer: RestAnswer<unknown>;
      try {
        answer = await this.#rest<unknown>({
          token,
          route: 'GET /repos/{owner}/{repo}/stargazers/history',
          params: { owner, repo, per_page: STAR_HISTORY_PER_PAGE, page },
          headers: { 'x-github-api-version': STAR_HISTORY_API_VERSION },
          notAvailable: [403, 404, 410],
          subject: fullName,
          deadline: options.deadline,
        });
      } catch (error) {
        if (error instanceof NotAvailable) return { available: false, status: error.status };
        throw error;
      }
      const items = Array.isArray(answer.data) ? answer.data : null;
      if (!items)
        throw new GitHubError(
          'unreachable',
          'GitHub answered the star history with something else than a list.',
        );
      for (const item of items) weeks.push(parseStarHistoryWeek(item));
      const last = countFromLink(headerString(answer.headers.link), page);
      if (page >= last || items.length === 0) break;
    }
    return { available: true, weeks };
  }

  /** One REST call through the token's pace, with quota bookkeeping. */
  async #rest<T>(call: RestCall): Promise<RestAnswer<T>> {
    const { token, route, params, etag, subject: fullName } = call;
    // `.` and `..` are no GitHub owner or name, and in a URL they are path steps: the id
    // `../rate_limit` (which the owner/name pattern accepts) became GET /rate_limit with the
    // caller's token, and a 500 (found by server/fuzz.property.test.ts). Every REST call
    // passes here, so none can leave /repos/{owner}/{repo} (or /users/{login}/…).
    if (Object.values(params).some((value) => value === '.' || value === '..')) {
      throw new GitHubError('not_found', MESSAGES.notFound(fullName));
    }
    try {
      const answer = await this.#client(token).request(route, {
        ...params,
        headers: { ...call.headers, ...(etag ? { 'if-none-match': etag } : {}) },
        request: { paceDeadline: call.deadline },
      });
      this.#recordQuota(token, answer.headers as Record<string, string | number | undefined>);
      return answer as unknown as RestAnswer<T>;
    } catch (error) {
      if (error instanceof PaceWait) throw error;
      if (!(error instanceof RequestError)) throw this.#toGitHubError(error, token, fullName);
      const headers = (error.response?.headers ?? {}) as Record<string, string | number | undefined>;
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
    const headers = (error.response?.headers ?? {}) as Record<string, string | number | undefined>;
    const retryAfter = Number(headers['retry-after']);
    const seconds = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : 60;
    return new PaceWait(new Date(Date.now() + seconds * this.pace.retryAfterUnitMs));
  }

  #toGitHubError(error: unknown, token: string | null, fullName: string): GitHubError {
    if (error instanceof GitHubError) return error;
    if (!(error instanceof RequestError)) return new GitHubError('unreachable', MESSAGES.unreachable);
    const headers = (error.response?.headers ?? {}) as Record<string, string | number | undefined>;
    if (error.status === 404) return new GitHubError('not_found', MESSAGES.notFound(fullName));
    if (error.status === 401) return new GitHubError('bad_credentials', MESSAGES.badCredentials);
    if (error.status === 403 || error.status === 429) {
      const retryAfter = Number(headers['retry-after']);
      const reset = Number(headers['x-ratelimit-reset']);
      const limited = headers['x-ratelimit-remaining'] === '0' || headers['x-ratelimit-remaining'] === 0;
      if (Number.isFinite(retryAfter) || limited || /rate limit/i.test(error.message)) {
        const resetAt = Number.isFinite(retryAfter)
          ? new Date(Date.now() + retryAfter * 1000)
          : Number.isFinite(reset)
            ? new Date(reset * 1000)
            : undefined;
        if (resetAt && limited) this.quotaBook.markExhausted(token, resetAt);
        return new GitHubError('rate_limited', rateLimitMessage(resetAt, token !== null), resetAt);
      }
      return new GitHubError('forbidden', MESSAGES.forbidden);
    }
    return new GitHubError('unreachable', MESSAGES.unreachable);
  }

  #recordQuota(token: string | null, headers: Record<string, string | number | undefined>) {
    this.quotaBook.record(token, headers);
    // The shared quota shown to members is the server token's, or the anonymous one without it.
    if (token === (this.#options.serverToken ?? null)) {
      this.#options.sharedQuota.record({
        get: (name) => (headers[name] === undefined ? null : String(headers[name])),
      });
    }
  }

  #client(token: string | null): Octokit {
    const key = QuotaBook.keyOf(token);
    let client = this.#clients.get(key);
    if (!client) {
      const { pacer, pace } = this;
      client = new PacedOctokit({
        auth: token ?? undefined,
        baseUrl: this.#options.apiUrl,
        userAgent: this.#options.userAgent,
        request: { fetch: boundedFetch(this.#options.maxAnswerBytes) },
        pacing: {
          pacer,
          key,
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
              Date.now() + pace.interactiveWaitMs;
            return retryCount < MAX_SECONDARY_RETRIES && Date.now() + ms <= deadline;
          },
          // The hour's quota is spent: reported with its reset time, never waited out in a request.
          onRateLimit: () => false,
        },
      } as ConstructorParameters<typeof PacedOctokit>[0]);
      this.#clients.set(key, client);
    }
    return client;
  }

  /** For the GraphQL batch path, which shares clients, pace and quota bookkeeping. */
  graphqlClient(token: string): { octokit: Octokit; url: string } {
    return { octokit: this.#client(token), url: this.#options.graphqlUrl };
  }

  /** The contributor count alone, for rows read over GraphQL (GraphQL has no such count). */
  /**
   * The contributor count alone (the engine fills it after a GraphQL read); with the stored
   * `etag` it is conditional, and an unchanged list answers `{ notModified: true }`.
   */
  contributorCount(
    fullName: string,
    token: string | null,
    options: PaceOption & { etag?: string } = {},
  ): Promise<ContributorCount> {
    const [owner, repo] = splitFullName(fullName);
    return this.#contributorCount(token, { owner, repo }, fullName, options.deadline, options.etag);
  }
}

/**
 * The process's client, from GITHUB_API_URL, GITHUB_GRAPHQL_URL, GITHUB_TOKEN and
 * GITHUB_TIMEOUT_MS (tests of hangs pass a shorter `timeoutMs`).
 */
export function createGitHubClient(
  config: AppConfig,
  options: { timeoutMs?: number; redis?: Redis; pace?: Partial<PaceSettings> } = {},
): GitHubClient {
  return new GitHubClient({
    apiUrl: config.githubApiUrl,
    graphqlUrl: config.githubGraphqlUrl,
    serverToken: config.githubToken,
    timeoutMs: options.timeoutMs ?? config.githubTimeoutMs,
    userAgent: `${config.appName.replace(/[^\w.-]+/g, '-')}/repo-tracker`,
    pace: { ...config.githubPace, ...options.pace },
    redis: options.redis,
  });
}

/** One item of the star history: `week` (a date) and `days` (seven counts); anything else ignored. */
function parseStarHistoryWeek(item: unknown): StarHistoryWeek {
  const candidate = item as { week?: unknown; days?: unknown } | null;
  const week = typeof candidate?.week === 'string' ? candidate.week.slice(0, 10) : '';
  const days = candidate?.days;
  if (
    !/^\d{4}-\d{2}-\d{2}$/.test(week) ||
    Number.isNaN(Date.parse(`${week}T00:00:00Z`)) ||
    !Array.isArray(days) ||
    days.length !== 7 ||
    !days.every((count) => Number.isInteger(count) && count >= 0)
  )
    throw new GitHubError(
      'unreachable',
      'GitHub answered the star history in a shape this app does not know.',
    );
  return { week, days: days as number[] };
}

class EmptyRepository extends Error {}
class TooLargeToCount extends Error {}

function splitFullName(fullName: string): [string, string] {
  const [owner = '', repo = ''] = fullName.split('/');
  return [owner, repo];
}

function headerString(value: string | number | undefined): string | undefined {
  return value === undefined ? undefined : String(value);
}

function pickHistory(snapshot: RepositorySnapshot) {
  const { commits, contributors, contributorsCapped, lastCommit, recentCommits } = snapshot;
  return { commits, contributors, contributorsCapped, lastCommit, recentCommits };
}

export function mapRestRepository(data: RestRepository, previous?: RepositorySnapshot): RepositorySnapshot {
  return {
    fullName: data.full_name,
    githubId: data.id,
    name: data.name,
    description: data.description,
    url: data.html_url,
    license: licenseLabel(data.license),
    topics: data.topics ?? [],
    stars: data.stargazers_count,
    forks: data.forks_count,
    issues: data.open_issues_count,
    language: data.language,
    archived: data.archived,
    private: data.private,
    defaultBranch: data.default_branch ?? null,
    commits: previous?.commits ?? 0,
    contributors: previous?.contributors ?? 0,
    contributorsCapped: previous?.contributorsCapped ?? false,
    lastCommit: previous?.lastCommit ?? null,
    recentCommits: previous?.recentCommits ?? [],
  };
}

function mapRestRelease(release: RestRelease): ReleaseInfo {
  return {
    tag: release.tag_name,
    name: release.name || null,
    notes: release.body ?? null,
    publishedAt: release.draft ? null : release.published_at,
    prerelease: release.prerelease,
    draft: release.draft,
    url: webUrl(release.html_url),
  };
}

function mapRestCommit(commit: RestCommit): Commit {
  return {
    sha: commit.sha,
    date: commit.commit.committer?.date ?? commit.commit.author?.date ?? '',
    author: commit.commit.author?.name || commit.author?.login || 'Unknown',
    message: commit.commit.message,
  };
}
