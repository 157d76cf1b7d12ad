import type { Redis } from 'ioredis';
import type { AppConfig } from '../config.ts';
import { addMs, type Clock } from '../lib/clock.ts';
import { AdvisoryClient } from './advisory-client.ts';
import { MAX_ANSWER_BYTES } from './bounded-fetch.ts';
import type { GitHubError } from './github-error.ts';
import { GraphqlBatchSizes } from './graphql-batch-size.ts';
import { fetchHealthWithGraphql, type GitHubHealth } from './health-query.ts';
import type { GitHubPacer, PaceKind } from './pacer.ts';
import { SharedQuota } from './quota.ts';
import { QuotaBook } from './quota-book.ts';
import { RestCaller } from './rest-call.ts';
import { RestClient } from './rest-client.ts';
import { readStarHistory, type StarHistoryOptions, type StarHistoryRead } from './star-history-client.ts';
import {
  DEFAULT_PACE,
  GitHubTransport,
  type InteractiveActivity,
  type PaceOption,
  type PaceSettings,
} from './transport.ts';

export type { ContributorCount, Etags } from './rest-client.ts';
export { FULL_FETCH_COST } from './rest-client.ts';
export type { StarHistoryWeek } from './star-history-client.ts';
export type { PaceSettings } from './transport.ts';

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
  /** The app's time source: deadlines, pauses, quota resets. */
  clock: Clock;
  /** The most repositories one GraphQL query carries (GITHUB_GRAPHQL_BATCH_MAX, 60 by default). */
  graphqlBatchMax?: number;
}

/**
 * GitHub through Octokit, kind to its quota and its secondary limits
 * (docs/architecture.md#github-usage, #github-pacing): the paced transport (`transport.ts`),
 * one REST call with quota bookkeeping and errors a user can act on (`rest-call.ts`), the
 * REST reads (`rest-client.ts`) and the star history (`star-history-client.ts`). The GraphQL
 * batch (`graphql-batch.ts`) takes this client for its Octokit and clock.
 */
export class GitHubClient {
  readonly pace: PaceSettings;
  readonly pacer: GitHubPacer;
  readonly clock: Clock;
  readonly quotaBook: QuotaBook;
  /** Members' calls on this instance, for the work that yields to them (the star-history backfill). */
  readonly interactive: InteractiveActivity;
  /** Fed by every answer to the server token (or to anonymous calls without one). */
  readonly sharedQuota: SharedQuota;
  /** Repositories per GraphQL query, learnt per token from GitHub's answers (`graphql-batch.ts`). */
  readonly graphqlBatchSizes: GraphqlBatchSizes;
  readonly #serverToken?: string;
  readonly #transport: GitHubTransport;
  readonly #rest: RestCaller;
  readonly #reads: RestClient;
  /** Security advisories: a repository's own, and GitHub's database for its packages. */
  readonly advisories: AdvisoryClient;

  constructor(options: GitHubClientOptions) {
    this.clock = options.clock;
    this.sharedQuota = options.sharedQuota ?? new SharedQuota();
    this.quotaBook = new QuotaBook(options.clock);
    this.graphqlBatchSizes = new GraphqlBatchSizes(options.clock, options.graphqlBatchMax ?? 60);
    this.#serverToken = options.serverToken;
    this.#transport = new GitHubTransport({
      apiUrl: options.apiUrl,
      graphqlUrl: options.graphqlUrl,
      timeoutMs: options.timeoutMs ?? 10_000,
      maxAnswerBytes: options.maxAnswerBytes ?? MAX_ANSWER_BYTES,
      userAgent: options.userAgent ?? 'repo-tracker',
      pace: { ...DEFAULT_PACE, ...options.pace },
      redis: options.redis,
      clock: options.clock,
    });
    this.pace = this.#transport.pace;
    this.pacer = this.#transport.pacer;
    this.interactive = this.#transport.interactive;
    this.#rest = new RestCaller({
      transport: this.#transport,
      quotaBook: this.quotaBook,
      sharedQuota: this.sharedQuota,
      serverToken: options.serverToken,
    });
    this.#reads = new RestClient(this.#rest, this.quotaBook);
    this.advisories = new AdvisoryClient(this.#rest);
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
    return this.#transport.sentRequests();
  }

  /** When the token's hourly quota resets, as GitHub last said (an hour from now when unknown). */
  quotaResetOf(token: string | null): Date {
    const resetAt = this.quotaBook.stateOf(QuotaBook.keyOf(token))?.resetAt;
    const now = this.clock.now();
    return resetAt && resetAt.getTime() > now.getTime() ? resetAt : addMs(now, 3600_000);
  }

  /**
   * The token to act with: the member's own, else the server's, else none (docs/architecture.md#which-token).
   */
  tokenFor(personalToken: string | null | undefined): string | null {
    return personalToken || this.#serverToken || null;
  }

  /**
   * Whether `cost` more requests leave at least `1 - budget` of the token's hourly quota for
   * people: background work never spends what members need. Unknown quota: yes.
   */
  canSpend(token: string | null, cost: number, budget: number): boolean {
    return this.quotaBook.leaves(token, cost, budget);
  }

  /** A repository over REST, conditional on the stored snapshot's ETags (`RestClient`). */
  fetchRepository(
    ...args: Parameters<RestClient['fetchRepository']>
  ): ReturnType<RestClient['fetchRepository']> {
    return this.#reads.fetchRepository(...args);
  }

  /** The full names of a user's stars or an owner's repositories (`RestClient`). */
  listRepositoryNames(
    ...args: Parameters<RestClient['listRepositoryNames']>
  ): ReturnType<RestClient['listRepositoryNames']> {
    return this.#reads.listRepositoryNames(...args);
  }

  /** The newest commits of the default branch (`RestClient`). */
  listCommits(...args: Parameters<RestClient['listCommits']>): ReturnType<RestClient['listCommits']> {
    return this.#reads.listCommits(...args);
  }

  /** The contributor count alone, conditional on its stored ETag (`RestClient`). */
  contributorCount(
    ...args: Parameters<RestClient['contributorCount']>
  ): ReturnType<RestClient['contributorCount']> {
    return this.#reads.contributorCount(...args);
  }

  /** GitHub's star history, page by page, with a token only (`star-history-client.ts`). */
  starHistory(fullName: string, token: string, options?: StarHistoryOptions): Promise<StarHistoryRead> {
    return readStarHistory(this.#rest, fullName, token, options);
  }

  /** The top contributor's share of contributions, conditional on its ETag (`RestClient`). */
  topContributorShare(
    ...args: Parameters<RestClient['topContributorShare']>
  ): ReturnType<RestClient['topContributorShare']> {
    return this.#reads.topContributorShare(...args);
  }

  /** What the health signals need, by GraphQL, ≤ 25 repositories a query (`health-query.ts`). */
  fetchHealth(
    token: string,
    fullNames: string[],
    since: Date,
    pace?: PaceOption,
  ): Promise<Map<string, GitHubHealth | GitHubError>> {
    return fetchHealthWithGraphql(this, token, fullNames, since, pace);
  }

  /** Repositories the token's next GraphQL query carries (the batch sizes learnt so far). */
  graphqlBatchSize(token: string): number {
    return this.graphqlBatchSizes.sizeFor(QuotaBook.keyOf(token));
  }

  /** For the GraphQL batch path, which shares clients, pace and quota bookkeeping. */
  graphqlClient(token: string): ReturnType<GitHubTransport['graphqlClient']> {
    return this.#transport.graphqlClient(token);
  }
}

/**
 * The process's client, from GITHUB_API_URL, GITHUB_GRAPHQL_URL, GITHUB_TOKEN,
 * GITHUB_TIMEOUT_MS and GITHUB_GRAPHQL_BATCH_MAX (tests of hangs pass a shorter `timeoutMs`).
 */
export function createGitHubClient(
  config: AppConfig,
  options: { clock: Clock; timeoutMs?: number; redis?: Redis; pace?: Partial<PaceSettings> },
): GitHubClient {
  return new GitHubClient({
    apiUrl: config.githubApiUrl,
    graphqlUrl: config.githubGraphqlUrl,
    serverToken: config.githubToken,
    timeoutMs: options.timeoutMs ?? config.githubTimeoutMs,
    graphqlBatchMax: config.githubGraphqlBatchMax,
    userAgent: `${config.appName.replace(/[^\w.-]+/g, '-')}/repo-tracker`,
    pace: { ...config.githubPace, ...options.pace },
    redis: options.redis,
    clock: options.clock,
  });
}
