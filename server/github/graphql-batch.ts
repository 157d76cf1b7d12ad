import type { Octokit } from '@octokit/core';
import { GraphqlResponseError } from '@octokit/graphql';
import { RequestError } from '@octokit/request-error';
import { addMs, type Clock, dateAtMs } from '../lib/clock.ts';
import { GitHubError, MESSAGES, rateLimitMessage } from './github-error.ts';
import { PaceWait } from './pacer.ts';
import { type GraphqlRepository, mapGraphqlRepository } from './repository-mapper.ts';
import { RELEASES_READ, type RepositorySnapshot } from './repository-snapshot.ts';
import type { PaceOption } from './transport.ts';

/** What a batch needs of the GitHub client: the token's paced Octokit, and the clock. */
export interface GraphqlSource {
  graphqlClient(token: string): { octokit: Octokit; url: string };
  readonly clock: Clock;
}

/**
 * Repositories per query: GitHub's 10-second query limit, not a documented cap, sets it
 * (docs/architecture.md#graphql-batching).
 */
export const GRAPHQL_BATCH_SIZE = 25;

const FRAGMENT = `fragment RepoFields on Repository {
  databaseId nameWithOwner name description url isPrivate isArchived primaryLanguage { name }
  licenseInfo { spdxId name }
  repositoryTopics(first: 20) { nodes { topic { name } } }
  stargazerCount forkCount
  issues(states: OPEN) { totalCount }
  pullRequests(states: OPEN) { totalCount }
  defaultBranchRef { name target { ... on Commit {
    history(first: 10) { totalCount nodes { oid message committedDate author { name user { login } } } }
  } } }
}`;

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
 * The aliased query for up to 25 repositories; names are JSON-escaped into it (OSS Insight
 * does). `followTags`: lower-case names of projects without releases, whose tags are read.
 */
export function buildBatchQuery(fullNames: string[], followTags: ReadonlySet<string> = new Set()): string {
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

/**
 * Reads many repositories with a token: one GraphQL query per 25 (halved and retried on
 * 502/504), one query at a time per token. Contributor counts (REST only) are not read here:
 * snapshots carry `contributors: null` and the sync engine counts them within the pace. Each
 * name maps to its snapshot or the error that explains it; PaceWait when the token's turn
 * comes after `pace.deadline`.
 */
export async function fetchRepositoriesWithGraphql(
  client: GraphqlSource,
  token: string,
  fullNames: string[],
  pace: PaceOption = {},
  followTags: ReadonlySet<string> = new Set(),
): Promise<Map<string, RepositorySnapshot | GitHubError>> {
  const results = new Map<string, RepositorySnapshot | GitHubError>();
  const pending = [...fullNames];
  let size = GRAPHQL_BATCH_SIZE;
  while (pending.length > 0) {
    const chunk = pending.slice(0, size);
    try {
      const answers = await queryChunk(client, token, chunk, pace, followTags);
      for (const [fullName, answer] of answers) results.set(fullName, answer);
      pending.splice(0, chunk.length);
      // A smaller query got through: grow back towards the full size.
      size = Math.min(GRAPHQL_BATCH_SIZE, size * 2);
    } catch (error) {
      if (error instanceof PaceWait) throw error;
      const timedOut = error instanceof RequestError && (error.status === 502 || error.status === 504);
      if (timedOut && size > 1) {
        size = Math.max(1, Math.floor(size / 2));
        continue;
      }
      if (timedOut) {
        // Even alone this repository times out: it fails, the others go on.
        results.set(chunk[0] ?? '', new GitHubError('unreachable', MESSAGES.unreachable));
        pending.splice(0, 1);
        continue;
      }
      const failure = toBatchError(error, token);
      for (const fullName of pending.splice(0)) results.set(fullName, failure);
    }
  }
  return results;
}

async function queryChunk(
  client: GraphqlSource,
  token: string,
  chunk: string[],
  pace: PaceOption,
  followTags: ReadonlySet<string>,
): Promise<Map<string, RepositorySnapshot | GitHubError>> {
  const { octokit, url } = client.graphqlClient(token);
  let data: Record<string, GraphqlRepository | null>;
  let errors: GraphqlError[] = [];
  try {
    // `url` and `request` are options only in the object form; in the (query, variables) form
    // @octokit/graphql refuses them as variable names.
    // One query at a time per token, its pace and its deadline: the client's Octokit plugins.
    data = await octokit.graphql<Record<string, GraphqlRepository | null>>({
      query: buildBatchQuery(chunk, followTags),
      url,
      request: { paceDeadline: pace.deadline },
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
    data = (error.data ?? {}) as Record<string, GraphqlRepository | null>;
    errors = error.errors as GraphqlError[];
    if (errors.some(isRateLimitError)) {
      throw quotaSpent((error.headers as Record<string, string | undefined>)['x-ratelimit-reset']);
    }
  }
  const answers = new Map<string, RepositorySnapshot | GitHubError>();
  chunk.forEach((fullName, index) => {
    const repository = data[`r${index}`];
    if (repository) {
      answers.set(fullName, mapGraphqlRepository(repository));
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

function toBatchError(error: unknown, token: string): GitHubError {
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
