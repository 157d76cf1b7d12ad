import type { Octokit } from '@octokit/core';
import { GraphqlResponseError } from '@octokit/graphql';
import { RequestError } from '@octokit/request-error';
import { addMs, type Clock, dateAtMs } from '../lib/clock.ts';
import { TransportFailure } from './bounded-fetch.ts';
import { GitHubError, MESSAGES, rateLimitMessage } from './github-error.ts';
import { GRAPHQL_BATCH_START, type GraphqlBatchSizes } from './graphql-batch-size.ts';
import { PaceWait } from './pacer.ts';
import { QuotaBook } from './quota-book.ts';
import { mapGraphqlRepository } from './repository-mapper.ts';
import { RELEASES_READ, type RepositorySnapshot } from './repository-snapshot.ts';
import type { PaceOption } from './transport.ts';

/**
 * What a batch needs of the GitHub client: the token's paced Octokit, the clock, and the batch
 * sizes learnt per token.
 */
export interface GraphqlSource {
  graphqlClient(token: string): { octokit: Octokit; url: string };
  readonly clock: Clock;
  readonly graphqlBatchSizes: GraphqlBatchSizes;
}

/**
 * Repositories in a token's first query: GitHub's 10-second query limit, not a documented cap,
 * sets it; later queries grow or halve (`graphql-batch-size.ts`,
 * docs/architecture.md#graphql-batching).
 */
export const GRAPHQL_BATCH_SIZE = GRAPHQL_BATCH_START;

/**
 * `full`: everything a sync stores (ten recent commits, releases or tags). `row`: what an
 * import needs to show and store its list row (docs/product.md#batch-and-import): no
 * releases (the first sync reads them) and only the newest commit (the last-commit date): four
 * connections per repository instead of five, so 60 repositories cost 2 points instead of 3.
 */
export type BatchShape = 'full' | 'row';

const repoFields = (name: string, commits: number) => `fragment ${name} on Repository {
  databaseId nameWithOwner name description url isPrivate isArchived primaryLanguage { name }
  licenseInfo { spdxId name }
  repositoryTopics(first: 20) { nodes { topic { name } } }
  stargazerCount forkCount
  issues(states: OPEN) { totalCount }
  pullRequests(states: OPEN) { totalCount }
  defaultBranchRef { name target { ... on Commit {
    history(first: ${commits}) { totalCount nodes { oid message committedDate author { name user { login } } } }
  } } }
}`;
const FRAGMENT = repoFields('RepoFields', 10);
const ROW_FRAGMENT = repoFields('RepoRow', 1);

/**
 * Releases ride along in the same query (docs/architecture.md#releases): one more connection
 * per repository, so 25 repositories still cost one point. A project known to have no release
 * asks for its tags instead (and `latestRelease`, no connection, to notice its first release),
 * never both: a sixth connection would make the query cost two.
 */
const RELEASE_FIELDS = `fragment ReleaseFields on Release {
  tagName name description publishedAt isPrerelease isDraft url
}`;
const RELEASES_FRAGMENT = `fragment RepoReleases on Repository {
  releases(first: ${RELEASES_READ}, orderBy: { field: CREATED_AT, direction: DESC }) { nodes { ...ReleaseFields } }
}`;
const TAGS_FRAGMENT = `fragment RepoTags on Repository {
  latestRelease { ...ReleaseFields }
  refs(refPrefix: "refs/tags/", first: ${RELEASES_READ}, orderBy: { field: TAG_COMMIT_DATE, direction: DESC }) {
    nodes { name target { ... on Commit { committedDate } ... on Tag { tagger { date } } } }
  }
}`;

interface GraphqlError {
  type?: string;
  code?: string;
  path?: (string | number)[];
  message: string;
}

/**
 * The aliased query for a batch of repositories; names are JSON-escaped into it (OSS Insight
 * does). `followTags`: lower-case names of projects without releases, whose tags are read.
 */
export function buildBatchQuery(
  fullNames: string[],
  followTags: ReadonlySet<string> = new Set(),
  shape: BatchShape = 'full',
): string {
  if (shape === 'row') {
    const rows = fullNames.map((fullName, index) => {
      const [owner = '', name = ''] = fullName.split('/');
      return `  r${index}: repository(owner: ${JSON.stringify(owner)}, name: ${JSON.stringify(name)}) { ...RepoRow }`;
    });
    return `query RepoRows {\n${rows.join('\n')}\n  rateLimit { cost remaining resetAt }\n}\n${fullNames.length > 0 ? ROW_FRAGMENT : ''}`;
  }
  let releases = false;
  let tags = false;
  const fields = fullNames.map((fullName, index) => {
    const [owner = '', name = ''] = fullName.split('/');
    const onTags = followTags.has(fullName.toLowerCase());
    if (onTags) tags = true;
    else releases = true;
    return `  r${index}: repository(owner: ${JSON.stringify(owner)}, name: ${JSON.stringify(name)}) { ...RepoFields ${onTags ? '...RepoTags' : '...RepoReleases'} }`;
  });
  // GraphQL refuses a query that defines a fragment it doesn't use.
  const fragments = [
    FRAGMENT,
    ...(releases ? [RELEASES_FRAGMENT] : []),
    ...(tags ? [TAGS_FRAGMENT] : []),
    ...(fullNames.length > 0 ? [RELEASE_FIELDS] : []),
  ];
  return `query RepoBatch {\n${fields.join('\n')}\n  rateLimit { cost remaining resetAt }\n}\n${fragments.join('\n')}`;
}

/** How a batch is read: the query's shape, and who hears each query's answers as they come. */
export interface BatchOptions {
  shape?: BatchShape;
  /** Each query's answers as soon as it returns, before the rest of the batch is read. */
  onAnswers?: (answers: Map<string, RepositorySnapshot | GitHubError>) => void;
}

/**
 * Reads many repositories with a token, one GraphQL query at a time per token, each of the
 * size the client learnt for it (`GraphqlBatchSizes`: 25 first, growing after fast answers,
 * halved on 502/504 and time-outs, the failed names retried in the smaller size). Contributor
 * counts (REST only) are not read here: snapshots carry `contributors: null` and the sync engine
 * counts them within the pace. Each name maps to its snapshot or the error that explains it;
 * PaceWait when the token's turn comes after `pace.deadline`.
 */
export async function fetchRepositoriesWithGraphql(
  client: GraphqlSource,
  token: string,
  fullNames: string[],
  pace: PaceOption = {},
  followTags: ReadonlySet<string> = new Set(),
  options: BatchOptions = {},
): Promise<Map<string, RepositorySnapshot | GitHubError>> {
  const results = new Map<string, RepositorySnapshot | GitHubError>();
  const sizes = client.graphqlBatchSizes;
  const key = QuotaBook.keyOf(token);
  const pending = [...fullNames];
  let retriedOutage = false;
  while (pending.length > 0) {
    const chunk = pending.slice(0, sizes.sizeFor(key));
    try {
      const answers = await sizes.oneAtATime(key, () =>
        queryAliased(
          client,
          token,
          chunk,
          pace,
          { query: buildBatchQuery(chunk, followTags, options.shape ?? 'full'), map: mapGraphqlRepository },
          (ms) => sizes.answered(key, chunk.length, ms),
        ),
      );
      for (const [fullName, answer] of answers) results.set(fullName, answer);
      pending.splice(0, chunk.length);
      options.onAnswers?.(answers);
    } catch (error) {
      if (error instanceof PaceWait) throw error;
      const gatewayTimeout = error instanceof RequestError && (error.status === 502 || error.status === 504);
      // No answer in time: a query larger than the size that always worked may be too heavy;
      // at that size GitHub is slow or away, and asking again would double the wait.
      const noAnswer = isTimeout(error);
      if (gatewayTimeout || noAnswer) sizes.failed(key, chunk.length);
      else if (error instanceof RequestError && error.status >= 500 && !retriedOutage) {
        // Another outage answer (500, 503) is asked once more as it was, as Octokit's retry
        // plugin does for REST (it is off for these queries, whose time-outs halve instead).
        retriedOutage = true;
        continue;
      }
      if ((gatewayTimeout && chunk.length > 1) || (noAnswer && chunk.length > GRAPHQL_BATCH_START)) continue;
      if (gatewayTimeout) {
        // Even alone this repository times out: it fails, the others go on.
        const failure = new GitHubError('unreachable', MESSAGES.unreachable);
        results.set(chunk[0] ?? '', failure);
        pending.splice(0, 1);
        options.onAnswers?.(new Map([[chunk[0] ?? '', failure]]));
        continue;
      }
      const failure = toBatchError(error, token);
      const failed = new Map(pending.splice(0).map((fullName) => [fullName, failure] as const));
      for (const [fullName, answer] of failed) results.set(fullName, answer);
      options.onAnswers?.(failed);
    }
  }
  return results;
}

/** The request's deadline passed before GitHub's answer (headers or body) was in. */
export function isTimeout(error: unknown): boolean {
  return (
    error instanceof TransportFailure && error.cause instanceof Error && error.cause.name === 'TimeoutError'
  );
}

/** An aliased query (`r0`…`rN`, one per name in order) and how one alias's answer is read. */
export interface AliasedQuery<N, T> {
  query: string;
  variables?: Record<string, unknown>;
  map: (node: N) => T;
}

/**
 * One aliased query for `chunk`: each name's answer mapped, or the error that explains it
 * (not found, unreachable); throws for what concerns the whole query (quota, pace, transport).
 */
export async function queryAliased<N, T>(
  client: GraphqlSource,
  token: string,
  chunk: string[],
  pace: PaceOption,
  aliased: AliasedQuery<N, T>,
  onAnswered: (ms: number) => void,
): Promise<Map<string, T | GitHubError>> {
  const { octokit, url } = client.graphqlClient(token);
  let data: Record<string, N | null>;
  let errors: GraphqlError[] = [];
  try {
    // `url` and `request` are options only in the object form; in the (query, variables) form
    // @octokit/graphql refuses them as variable names.
    // One query at a time per token, its pace and its deadline: the client's Octokit plugins.
    data = await octokit.graphql<Record<string, N | null>>({
      ...aliased.variables,
      query: aliased.query,
      url,
      // No same-size retry of a 502/504: the loop above halves and retries instead.
      request: { paceDeadline: pace.deadline, onAnswered, retries: 0 },
    });
  } catch (error) {
    // The throttling plugin turns a RATE_LIMITED answer (the hour's points spent) into an error
    // of its own that carries GitHub's answer.
    const limited = error as {
      data?: { errors?: GraphqlError[] };
      response?: { headers?: Record<string, string> };
    };
    if (!(error instanceof GraphqlResponseError) && limited.data?.errors?.some(isRateLimitError)) {
      throw quotaSpent(limited.response?.headers?.['x-ratelimit-reset']);
    }
    // Partial answers: the aliases that resolved are in `data`, the others in `errors`.
    if (!(error instanceof GraphqlResponseError)) throw unwrapPaceWait(error, client.clock);
    data = (error.data ?? {}) as Record<string, N | null>;
    errors = error.errors as GraphqlError[];
    if (errors.some(isRateLimitError)) {
      throw quotaSpent((error.headers as Record<string, string | undefined>)['x-ratelimit-reset']);
    }
  }
  const answers = new Map<string, T | GitHubError>();
  chunk.forEach((fullName, index) => {
    const repository = data[`r${index}`];
    if (repository) {
      answers.set(fullName, aliased.map(repository));
      return;
    }
    const error = errors.find((entry) => entry.path?.[0] === `r${index}`);
    answers.set(
      fullName,
      !error || error.type === 'NOT_FOUND'
        ? new GitHubError('not_found', MESSAGES.notFound(fullName))
        : new GitHubError('unreachable', MESSAGES.unreachable),
    );
  });
  return answers;
}

/** The hour's GraphQL points are spent: a rate-limit error with GitHub's reset time when it gave one. */
function quotaSpent(resetHeader: string | undefined): GitHubError {
  const reset = Number(resetHeader);
  const resetAt = Number.isFinite(reset) ? dateAtMs(reset * 1000) : undefined;
  return new GitHubError('rate_limited', rateLimitMessage(resetAt, true), resetAt);
}

/** GitHub has spelled it RATE_LIMITED, RATE_LIMIT and code graphql_rate_limit over time. */
function isRateLimitError(error: GraphqlError): boolean {
  return error.type === 'RATE_LIMITED' || error.type === 'RATE_LIMIT' || error.code === 'graphql_rate_limit';
}

export function toBatchError(error: unknown, token: string): GitHubError {
  if (error instanceof GitHubError) return error;
  if (error instanceof RequestError) {
    if (error.status === 401) return new GitHubError('bad_credentials', MESSAGES.badCredentials);
    if (error.status === 403 || error.status === 429)
      return new GitHubError('rate_limited', rateLimitMessage(undefined, token !== ''));
  }
  return new GitHubError('unreachable', MESSAGES.unreachable);
}

/** A secondary limit the throttling plugin gave up waiting for is a wait, not a failure. */
function unwrapPaceWait(error: unknown, clock: Clock): unknown {
  if (
    error instanceof RequestError &&
    (error.status === 403 || error.status === 429) &&
    /secondary rate/i.test(error.message)
  ) {
    const retryAfter = Number(
      (error.response?.headers as Record<string, string | undefined>)?.['retry-after'],
    );
    return new PaceWait(addMs(clock.now(), (Number.isFinite(retryAfter) ? retryAfter : 60) * 1000));
  }
  return error;
}
