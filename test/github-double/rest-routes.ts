import type { IncomingHttpHeaders } from 'node:http';
import { ADVISORY_ROUTES } from './advisory-routes.ts';
import type { DoubleRepository } from './catalogue.ts';
import type { FaultState } from './faults.ts';
import { contributorTotal, listCommits, listContributors, resolveCommitRef } from './history.ts';
import { LISTING_ROUTES } from './listing-routes.ts';
import { linkHeader, parsePageRequest } from './pagination.ts';
import type { Caller, RateResource } from './quota.ts';
import { RELEASE_ROUTES } from './release-routes.ts';
import type { RepositoryDirectory, Resolution } from './repository-directory.ts';
import {
  DOCS,
  type JsonValue,
  type RateLimitValues,
  restCommit,
  restContributor,
  restError,
  restRateLimit,
  restRepository,
} from './shapes.ts';
import { STAR_HISTORY_ROUTES } from './star-history.ts';

/**
 * The routes the app uses, as a table the server walks in order: the REST endpoints and
 * GitHub's GraphQL endpoint (graphql-endpoint.ts), which is imported on its first request so
 * that doubles serving only REST never load graphql or GitHub's schema.
 */

export interface RouteContext {
  url: URL;
  params: Readonly<Record<string, string>>;
  caller: Caller;
  baseUrl: string;
  directory: RepositoryDirectory;
  /**
   * A resource's quota as it stands before this request is charged (for /rate_limit and
   * GraphQL's `rateLimit`); remaining 0 while an injected primary limit is on.
   */
  quota: (resource: RateResource) => RateLimitValues;
  /** Injected faults, read-only here (GraphQL's too-large queries). */
  faults: Readonly<FaultState>;
  nowMs: number;
  /** This answer's x-github-request-id (GitHub quotes it in some error messages). */
  requestId: string;
  readBody: () => Promise<string>;
  /** The request's headers (the star history reads X-GitHub-Api-Version). */
  headers: Readonly<IncomingHttpHeaders>;
}

export interface RouteResult {
  status: number;
  /** undefined: no body (204, 304). */
  body?: JsonValue;
  headers?: Record<string, string>;
  /** 200 answers that get an ETag and honour If-None-Match. */
  conditional?: boolean;
  /** ISO date sent as Last-Modified. */
  lastModified?: string;
  /** Quota points the answer costs when counted: 1 by default (REST), a GraphQL query's cost, 0 free. */
  points?: number;
  /**
   * x-ratelimit-* values to send instead of the ledger's (GraphQL without a token has no
   * budget); null: send none (GitHub's GraphQL time-out answer).
   */
  rateLimit?: RateLimitValues | null;
  /** GraphQL: repository fields in the query, recorded in the request log. */
  aliases?: number;
  /** GraphQL: how long the query ran (graphqlTime); the answer leaves after it. */
  delayMs?: number;
}

export interface DoubleRoute {
  method: 'GET' | 'POST';
  /** Route template used as the counting key: `${method} ${template}`. */
  template: string;
  pattern: RegExp;
  /** Quota the route spends; null: free and never rate limited (GET /rate_limit). */
  resource: RateResource | null;
  /**
   * The route refuses over-limit requests itself (GraphQL: 200 RATE_LIMITED once the query's
   * cost is known); the server still applies secondary limits before it.
   */
  ownPrimaryLimit?: boolean;
  handle(context: RouteContext): RouteResult | Promise<RouteResult>;
}

type RepositoryEndpoint = 'repository' | 'commits' | 'contributors';

const NAME = '(?<owner>[^/]+)/(?<repo>[^/]+)';

export const REST_ROUTES: readonly DoubleRoute[] = [
  {
    method: 'GET',
    template: '/rate_limit',
    pattern: /^\/rate_limit\/?$/,
    resource: null,
    handle: (context) => ({
      status: 200,
      body: restRateLimit(
        context.quota('core'),
        context.caller.kind === 'token' ? context.quota('graphql') : null,
        Math.floor(context.nowMs / 1000),
      ),
    }),
  },
  {
    method: 'POST',
    // GitHub Enterprise Server serves it under /api/graphql; both count as 'POST /graphql'.
    template: '/graphql',
    pattern: /^(?:\/api)?\/graphql\/?$/,
    resource: 'graphql',
    ownPrimaryLimit: true,
    handle: async (context) => {
      const body = await context.readBody();
      const { answerGraphql } = await import('./graphql-endpoint.ts');
      return answerGraphql(context, body);
    },
  },
  byName('repository', '/repos/{owner}/{repo}', new RegExp(`^/repos/${NAME}/?$`)),
  byName('commits', '/repos/{owner}/{repo}/commits', new RegExp(`^/repos/${NAME}/commits/?$`)),
  byName('contributors', '/repos/{owner}/{repo}/contributors', new RegExp(`^/repos/${NAME}/contributors/?$`)),
  byId('repository', '/repositories/{id}', /^\/repositories\/(?<id>\d+)\/?$/),
  byId('commits', '/repositories/{id}/commits', /^\/repositories\/(?<id>\d+)\/commits\/?$/),
  byId('contributors', '/repositories/{id}/contributors', /^\/repositories\/(?<id>\d+)\/contributors\/?$/),
  ...LISTING_ROUTES,
  ...RELEASE_ROUTES,
  ...STAR_HISTORY_ROUTES,
  ...ADVISORY_ROUTES,
];

export function notFound(): RouteResult {
  return { status: 404, body: restError('Not Found', DOCS.root, 404) };
}

function byName(endpoint: RepositoryEndpoint, template: string, pattern: RegExp): DoubleRoute {
  return {
    method: 'GET',
    template,
    pattern,
    resource: 'core',
    handle: (context) => {
      const owner = safeDecode(context.params.owner ?? '');
      const repo = safeDecode(context.params.repo ?? '');
      if (owner === undefined || repo === undefined) {
        return notFound();
      }
      return answer(endpoint, context.directory.resolveName(`${owner}/${repo}`, context.caller), context);
    },
  };
}

function safeDecode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function byId(endpoint: RepositoryEndpoint, template: string, pattern: RegExp): DoubleRoute {
  return {
    method: 'GET',
    template,
    pattern,
    resource: 'core',
    handle: (context) =>
      answer(endpoint, context.directory.resolveId(Number(context.params.id), context.caller), context),
  };
}

function answer(endpoint: RepositoryEndpoint, resolution: Resolution, context: RouteContext): RouteResult {
  if (resolution.kind === 'missing') {
    return { status: 404, body: restError('Not Found', documentationFor(endpoint), 404) };
  }
  if (resolution.kind === 'moved') {
    return movedPermanently(endpoint, resolution.repo, context);
  }
  switch (endpoint) {
    case 'repository':
      return repositoryAnswer(resolution.repo, context);
    case 'commits':
      return commitsAnswer(resolution.repo, context);
    case 'contributors':
      return contributorsAnswer(resolution.repo, context);
  }
}

function documentationFor(endpoint: RepositoryEndpoint): string {
  return endpoint === 'repository'
    ? DOCS.getRepository
    : endpoint === 'commits'
      ? DOCS.listCommits
      : DOCS.listContributors;
}

/** Body and Location exactly as in @octokit/fixtures rename-repository, sub-path and query kept. */
function movedPermanently(
  endpoint: RepositoryEndpoint,
  repo: DoubleRepository,
  context: RouteContext,
): RouteResult {
  const subPath = endpoint === 'repository' ? '' : `/${endpoint}`;
  const location = `${context.baseUrl}/repositories/${repo.id}${subPath}${context.url.search}`;
  return {
    status: 301,
    body: { message: 'Moved Permanently', url: location, documentation_url: DOCS.redirects },
    headers: { location },
  };
}

function repositoryAnswer(repo: DoubleRepository, context: RouteContext): RouteResult {
  return {
    status: 200,
    body: restRepository(repo, { baseUrl: context.baseUrl, authenticated: context.caller.kind === 'token' }),
    conditional: true,
    lastModified: repo.updatedAt,
  };
}

function commitsAnswer(repo: DoubleRepository, context: RouteContext): RouteResult {
  if (repo.isEmpty) {
    return { status: 409, body: restError('Git Repository is empty.', DOCS.listCommits, 409) };
  }
  const ref = context.url.searchParams.get('sha');
  const fromNumber = ref ? resolveCommitRef(repo, ref) : repo.commitCount;
  if (fromNumber === undefined) {
    return { status: 404, body: restError(`No commit found for SHA: ${ref}`, DOCS.listCommits, 404) };
  }
  const page = parsePageRequest(context.url.searchParams);
  const commits = listCommits(repo, {
    fromNumber,
    offset: (page.page - 1) * page.perPage,
    limit: page.perPage,
  });
  const link = linkHeader(
    `${context.baseUrl}/repositories/${repo.id}/commits`,
    context.url.searchParams,
    page,
    fromNumber,
  );
  return {
    status: 200,
    body: commits.map((commit) => restCommit(repo, commit, context.baseUrl)),
    headers: link ? { link } : {},
    conditional: true,
    lastModified: commits[0]?.committer.date ?? repo.pushedAt,
  };
}

function contributorsAnswer(repo: DoubleRepository, context: RouteContext): RouteResult {
  if (repo.isEmpty) {
    return { status: 204 };
  }
  if (repo.contributorsTooLarge) {
    return {
      status: 403,
      body: restError(
        'The history or contributor list is too large to list contributors for this repository via the API.',
        DOCS.listContributors,
        403,
      ),
    };
  }
  const anonParam = context.url.searchParams.get('anon');
  const anon = anonParam === '1' || anonParam === 'true';
  const page = parsePageRequest(context.url.searchParams);
  const total = contributorTotal(repo, anon);
  const contributors = listContributors(repo, {
    anon,
    offset: (page.page - 1) * page.perPage,
    limit: page.perPage,
  });
  const link = linkHeader(
    `${context.baseUrl}/repositories/${repo.id}/contributors`,
    context.url.searchParams,
    page,
    total,
  );
  return {
    status: 200,
    body: contributors.map((contributor) => restContributor(contributor, context.baseUrl)),
    headers: link ? { link } : {},
    conditional: true,
  };
}
