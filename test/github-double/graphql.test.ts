import { GraphqlResponseError, graphql as octokitGraphql } from '@octokit/graphql';
import { parse, validate } from 'graphql';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildBatchQuery, GRAPHQL_BATCH_SIZE } from '../../server/github/graphql-batch.ts';
import { type DoubleRepository, getCatalogue } from './catalogue.ts';
import { analyseOperation } from './graphql-analysis.ts';
import { githubGraphqlSchema, graphqlSchemaLoadMs } from './graphql-schema.ts';
import { listCommits } from './history.ts';
import { SNAPSHOT_DATES } from './ranking-snapshots.ts';
import { type GitHubDouble, startGitHubDouble } from './server.ts';
import {
  BARE_REPOSITORY,
  EMPTY_REPOSITORY,
  HUGE_REPOSITORY,
  PRIVATE_REPOSITORY,
  RENAMED_REPOSITORY_NEW_NAME,
  RENAMED_REPOSITORY_OLD_NAME,
  SINGLE_COMMIT_REPOSITORY,
} from './special-repositories.ts';

const [OLDER, NEWER] = SNAPSHOT_DATES;
const TOKEN = 'ghp_graphql_token';
const PRIVATE_TOKEN = 'ghp_private_reader';

let double: GitHubDouble;

beforeAll(async () => {
  double = await startGitHubDouble({ privateAccessTokens: [PRIVATE_TOKEN] });
});

afterAll(async () => {
  await double.close();
});

beforeEach(() => {
  double.reset();
});

// --- What the app's RepoFields fragment asks, as JSON ------------------------------------------

interface GraphqlCommit {
  oid: string;
  message: string;
  committedDate: string;
  author: { name: string | null; user: { login: string } | null } | null;
}
interface GraphqlRepo {
  databaseId: number;
  nameWithOwner: string;
  name: string;
  description: string | null;
  url: string;
  isPrivate: boolean;
  isArchived: boolean;
  primaryLanguage: { name: string } | null;
  licenseInfo: { spdxId: string | null; name: string } | null;
  repositoryTopics: { nodes: Array<{ topic: { name: string } }> };
  stargazerCount: number;
  forkCount: number;
  issues: { totalCount: number };
  pullRequests: { totalCount: number };
  defaultBranchRef: {
    name: string;
    target: { history: { totalCount: number; nodes: GraphqlCommit[] } };
  } | null;
}
interface GraphqlError {
  type?: string;
  code?: string;
  path?: Array<string | number>;
  locations?: Array<{ line: number; column: number }>;
  extensions?: Record<string, unknown>;
  message: string;
}
interface GraphqlBody<D = Record<string, unknown>> {
  data?: D | null;
  errors?: GraphqlError[];
  message?: string;
  documentation_url?: string;
}
interface RateLimitField {
  cost: number;
  remaining: number;
  resetAt: string;
  limit?: number;
  used?: number;
  nodeCount?: number;
}
type BatchData = Record<string, GraphqlRepo | null> & { rateLimit: RateLimitField };

interface Answer<T> {
  status: number;
  headers: Headers;
  body: T;
}

async function post<D = Record<string, unknown>>(
  query: string,
  options: {
    token?: string | null;
    variables?: Record<string, unknown>;
    path?: string;
    on?: GitHubDouble;
    rawBody?: string;
  } = {},
): Promise<Answer<GraphqlBody<D>>> {
  const token = options.token === undefined ? TOKEN : options.token;
  const response = await fetch(`${(options.on ?? double).url}${options.path ?? '/graphql'}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `bearer ${token}` } : {}),
    },
    body: options.rawBody ?? JSON.stringify({ query, variables: options.variables }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: JSON.parse(text) as GraphqlBody<D> };
}

async function rest<T>(path: string, token: string = TOKEN): Promise<Answer<T>> {
  const response = await fetch(`${double.url}${path}`, { headers: { authorization: `token ${token}` } });
  return { status: response.status, headers: response.headers, body: (await response.json()) as T };
}

function catalogueRepo(predicate: (repo: DoubleRepository) => boolean): DoubleRepository {
  const repo = getCatalogue(OLDER).repositories.find(
    (candidate) => !candidate.special && predicate(candidate),
  );
  if (!repo) {
    throw new Error('No repository matches');
  }
  return repo;
}

const realNames = (count: number, from = 0) =>
  getCatalogue(OLDER)
    .repositories.filter((repo) => !repo.special)
    .slice(from, from + count)
    .map((repo) => repo.fullName);

// --- The REST answers the GraphQL ones must agree with -----------------------------------------

interface RestRepo {
  id: number;
  full_name: string;
  name: string;
  description: string | null;
  html_url: string;
  private: boolean;
  archived: boolean;
  language: string | null;
  license: { spdx_id: string; name: string } | null;
  topics: string[];
  stargazers_count: number;
  forks_count: number;
  open_issues_count: number;
  default_branch: string;
}
interface RestCommit {
  sha: string;
  commit: { message: string; author: { name: string }; committer: { date: string } };
  author: { login: string; type: string } | null;
}

async function restView(fullName: string) {
  const repo = (await rest<RestRepo>(`/repos/${fullName}`)).body;
  const commits = await rest<RestCommit[]>(`/repos/${fullName}/commits?per_page=10`);
  const counted = await rest<RestCommit[]>(`/repos/${fullName}/commits?per_page=1`);
  const last = counted.headers.get('link')?.match(/[?&]page=(\d+)[^>]*>;\s*rel="last"/);
  return { repo, commits: commits.body, commitCount: last?.[1] ? Number(last[1]) : counted.body.length };
}

describe('GitHub’s GraphQL schema', () => {
  it('is built only when the first GraphQL query arrives, then kept', async () => {
    expect((await rest('/repos/facebook/react')).status).toBe(200);
    expect(graphqlSchemaLoadMs()).toBeUndefined();
    expect((await post('{ viewer { login } }')).status).toBe(200);
    const loadMs = graphqlSchemaLoadMs();
    expect(loadMs).toBeGreaterThan(0);
    const schema = githubGraphqlSchema();
    // Kept: later queries use the same schema and no build is timed again. (The build takes about
    // 0.2 s on a laptop and many times that on a busy machine; how long is not the point.)
    expect((await post('{ viewer { login } }')).status).toBe(200);
    expect((await post('{ viewer { login } }')).status).toBe(200);
    expect(githubGraphqlSchema()).toBe(schema);
    expect(graphqlSchemaLoadMs()).toBe(loadMs);
  });

  it('accepts the app’s batch query, quotes and all', () => {
    const schema = githubGraphqlSchema();
    const names = [...realNames(GRAPHQL_BATCH_SIZE - 1), 'we"ird/na\\me'];
    expect(validate(schema, parse(buildBatchQuery(names)))).toEqual([]);
  });
});

describe('POST /graphql with the app’s batch query', () => {
  it('answers what REST answers for the same repositories', async () => {
    const withBotCommit = catalogueRepo((repo) =>
      listCommits(repo, { offset: 0, limit: 10 }).some((commit) => commit.authorAccount?.type === 'Bot'),
    );
    const names = [
      'facebook/react',
      catalogueRepo((repo) => repo.owner.type === 'User').fullName,
      catalogueRepo((repo) => repo.license === null).fullName,
      catalogueRepo((repo) => repo.license?.spdxId === 'NOASSERTION').fullName,
      catalogueRepo((repo) => repo.archived).fullName,
      withBotCommit.fullName,
      BARE_REPOSITORY,
      SINGLE_COMMIT_REPOSITORY,
      HUGE_REPOSITORY,
    ];
    const answer = await post<BatchData>(buildBatchQuery(names.map((name) => name.toUpperCase())));
    expect(answer.status).toBe(200);
    expect(answer.body.errors).toBeUndefined();
    const data = answer.body.data;
    if (!data) {
      throw new Error('no data');
    }
    for (const [index, fullName] of names.entries()) {
      const graph = data[`r${index}`];
      const { repo, commits, commitCount } = await restView(fullName);
      expect(graph).toMatchObject({
        databaseId: repo.id,
        // GitHub's spelling, not the upper case the query used.
        nameWithOwner: repo.full_name,
        name: repo.name,
        description: repo.description,
        url: repo.html_url,
        isPrivate: repo.private,
        isArchived: repo.archived,
        primaryLanguage: repo.language === null ? null : { name: repo.language },
        licenseInfo: repo.license === null ? null : { spdxId: repo.license.spdx_id, name: repo.license.name },
        repositoryTopics: { nodes: repo.topics.map((name) => ({ topic: { name } })) },
        stargazerCount: repo.stargazers_count,
        forkCount: repo.forks_count,
      });
      if (!graph?.defaultBranchRef) {
        throw new Error(`${fullName}: no default branch`);
      }
      expect(graph.issues.totalCount + graph.pullRequests.totalCount).toBe(repo.open_issues_count);
      expect(graph.defaultBranchRef.name).toBe(repo.default_branch);
      const { history } = graph.defaultBranchRef.target;
      expect(history.totalCount).toBe(commitCount);
      expect(history.nodes).toEqual(
        commits.map((commit) => ({
          oid: commit.sha,
          message: commit.commit.message,
          committedDate: commit.commit.committer.date,
          // GitActor.user is a User: null for unlinked e-mails and for bots such as Dependabot.
          author: {
            name: commit.commit.author.name,
            user: commit.author?.type === 'User' ? { login: commit.author.login } : null,
          },
        })),
      );
    }
    expect(
      data.r5?.defaultBranchRef?.target.history.nodes.some((node) => node.author?.name === 'dependabot[bot]'),
    ).toBe(true);
    expect(data.r8?.defaultBranchRef?.target.history.totalCount).toBe(1_234_567);
  });

  it('follows a snapshot switch: more commits, new stars, still equal to REST', async () => {
    const grown = catalogueRepo(
      (repo) => (getCatalogue(NEWER).byName.get(repo.key)?.commitCount ?? 0) > repo.commitCount,
    );
    double.setSnapshot(NEWER);
    const answer = await post<BatchData>(buildBatchQuery([grown.fullName]));
    const { repo, commitCount, commits } = await restView(grown.fullName);
    const graph = answer.body.data?.r0;
    expect(graph?.stargazerCount).toBe(repo.stargazers_count);
    expect(graph?.defaultBranchRef?.target.history.totalCount).toBe(commitCount);
    expect(graph?.defaultBranchRef?.target.history.nodes[0]?.oid).toBe(commits[0]?.sha);
    expect(commitCount).toBeGreaterThan(grown.commitCount);
  });

  it('charges the graphql quota: 1 point per 25 repositories, never core', async () => {
    const batch = await post<BatchData>(buildBatchQuery(realNames(25)));
    expect(batch.body.data?.rateLimit).toMatchObject({ cost: 1, remaining: 4999 });
    expect(Date.parse(batch.body.data?.rateLimit.resetAt ?? '')).toBe(
      Number(batch.headers.get('x-ratelimit-reset')) * 1000,
    );
    expect(batch.headers.get('x-ratelimit-resource')).toBe('graphql');
    expect(batch.headers.get('x-ratelimit-used')).toBe('1');

    const hundred = await post<BatchData>(
      `${buildBatchQuery(realNames(100)).replace('rateLimit { cost remaining resetAt }', 'rateLimit { cost remaining resetAt limit used nodeCount }')}`,
    );
    expect(hundred.body.data?.rateLimit).toMatchObject({
      // 100 × five connections (topics, issues, pull requests, history, releases) = 500 requests.
      cost: 5,
      remaining: 4994,
      limit: 5000,
      used: 6,
      // 100 × (20 topics + 10 commits + 5 releases)
      nodeCount: 3500,
    });
    expect(hundred.headers.get('x-ratelimit-remaining')).toBe('4994');
    expect(double.quota(TOKEN, 'graphql')).toMatchObject({ used: 6, remaining: 4994 });
    expect(double.quota(TOKEN).used).toBe(0);

    const limits = await rest<{ resources: Record<string, { used: number; remaining: number }> }>(
      '/rate_limit',
    );
    expect(limits.body.resources.graphql).toMatchObject({ used: 6, remaining: 4994 });
    expect(limits.body.resources.core).toMatchObject({ used: 0 });
    expect(double.counts.get('POST /graphql')).toBe(2);
    expect(double.counts.counted()).toBe(2);
  });

  it('lets tests assert batch sizes: 100 lines in the app’s batches of 25 are 4 requests', async () => {
    const names = realNames(100);
    for (let start = 0; start < names.length; start += GRAPHQL_BATCH_SIZE) {
      expect((await post(buildBatchQuery(names.slice(start, start + GRAPHQL_BATCH_SIZE)))).status).toBe(200);
    }
    expect(double.counts.get('POST /graphql')).toBeLessThanOrEqual(4);
    expect(double.requests.map((request) => request.aliases)).toEqual([25, 25, 25, 25]);
    expect(double.quota(TOKEN, 'graphql').used).toBe(4);
  });
});

describe('GitHub’s GraphQL status cases', () => {
  it('answers a missing repository with null and NOT_FOUND while the other aliases resolve', async () => {
    const answer = await post<BatchData>(buildBatchQuery(['facebook/react', 'nobody/nothing', 'vuejs/vue']));
    expect(answer.status).toBe(200);
    expect(answer.body.data?.r0?.nameWithOwner).toBe('facebook/react');
    expect(answer.body.data?.r1).toBeNull();
    expect(answer.body.data?.r2?.nameWithOwner).toBe('vuejs/vue');
    expect(answer.body.errors).toEqual([
      {
        type: 'NOT_FOUND',
        path: ['r1'],
        locations: [{ line: 3, column: 3 }],
        message: "Could not resolve to a Repository with the name 'nobody/nothing'.",
      },
    ]);
    // Partial answers cost like full ones.
    expect(double.counts.counted()).toBe(1);
  });

  it('answers NOT_FOUND for a repository deleted on GitHub', async () => {
    double.removeRepository('facebook/react');
    const answer = await post<BatchData>(buildBatchQuery(['facebook/react']));
    expect(answer.body.data?.r0).toBeNull();
    expect(answer.body.errors?.[0]?.type).toBe('NOT_FOUND');
  });

  it('follows renames (REST answers 301), unless followRenames: false', async () => {
    const renamed = await post<BatchData>(buildBatchQuery([RENAMED_REPOSITORY_OLD_NAME]));
    expect(renamed.body.errors).toBeUndefined();
    expect(renamed.body.data?.r0?.nameWithOwner).toBe(RENAMED_REPOSITORY_NEW_NAME);
    expect(renamed.body.data?.r0?.databaseId).toBe(
      (await rest<RestRepo>(`/repos/${RENAMED_REPOSITORY_NEW_NAME}`)).body.id,
    );

    double.renameRepository('facebook/react', 'meta/react-renamed');
    const moved = await post<{ repository: { nameWithOwner: string; owner: { login: string } } }>(
      '{ repository(owner: "facebook", name: "react") { nameWithOwner owner { login } } }',
    );
    expect(moved.body.data?.repository).toEqual({
      nameWithOwner: 'meta/react-renamed',
      owner: { login: 'meta' },
    });

    const strict = await post(
      `{ repository(owner: "octo-double", name: "before-rename", followRenames: false) { nameWithOwner } }`,
    );
    expect(strict.body.data).toEqual({ repository: null });
    expect(strict.body.errors?.[0]).toMatchObject({ type: 'NOT_FOUND', path: ['repository'] });
  });

  it('shows a private repository only to a token with access', async () => {
    const query = `{ repository(owner: "octo-double", name: "private-repository") { nameWithOwner isPrivate visibility } }`;
    const hidden = await post(query);
    expect(hidden.body.data).toEqual({ repository: null });
    expect(hidden.body.errors?.[0]?.message).toBe(
      `Could not resolve to a Repository with the name '${PRIVATE_REPOSITORY}'.`,
    );
    const shown = await post(query, { token: PRIVATE_TOKEN });
    expect(shown.body).toEqual({
      data: { repository: { nameWithOwner: PRIVATE_REPOSITORY, isPrivate: true, visibility: 'PRIVATE' } },
    });
    double.grantPrivateAccess(TOKEN);
    expect((await post(query)).body.errors).toBeUndefined();
  });

  it('answers defaultBranchRef: null for an empty repository', async () => {
    const answer = await post<{ repository: Record<string, unknown> }>(
      `{ repository(owner: "octo-double", name: "empty-repository") { isEmpty defaultBranchRef { name } pushedAt } }`,
    );
    expect(answer.body.data?.repository).toMatchObject({ isEmpty: true, defaultBranchRef: null });
    expect(answer.body.errors).toBeUndefined();
    const batch = await post<BatchData>(buildBatchQuery([EMPTY_REPOSITORY]));
    expect(batch.body.data?.r0?.defaultBranchRef).toBeNull();
  });

  it('answers 401 without a token, on both paths, for free', async () => {
    for (const path of ['/graphql', '/api/graphql']) {
      const answer = await post('{ viewer { login } }', { token: null, path });
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({
        message: 'This endpoint requires you to be authenticated.',
        documentation_url:
          'https://docs.github.com/graphql/guides/forming-calls-with-graphql#authenticating-with-graphql',
      });
    }
    expect(double.counts.get('POST /graphql')).toBe(2);
    expect(double.counts.counted()).toBe(0);
    double.revokeToken(TOKEN);
    const revoked = await post('{ viewer { login } }');
    expect(revoked.status).toBe(401);
    expect(revoked.body.message).toBe('Bad credentials');
  });

  it('answers RATE_LIMITED with HTTP 200 once the points are spent', async () => {
    const small = await startGitHubDouble({ quota: { token: 3 } });
    try {
      // Admitted with 3 points left, the 5-point query still runs (GitHub lets `used` pass the limit).
      const big = await post<BatchData>(buildBatchQuery(realNames(100)), { on: small });
      expect(big.body.data?.rateLimit).toMatchObject({ cost: 5, remaining: 0 });
      expect(small.quota(TOKEN, 'graphql')).toMatchObject({ limit: 3, used: 5, remaining: 0 });

      const refused = await post<BatchData>(buildBatchQuery(['facebook/react']), { on: small });
      expect(refused.status).toBe(200);
      expect(refused.body.data).toBeUndefined();
      expect(refused.body.errors).toEqual([
        {
          type: 'RATE_LIMITED',
          code: 'graphql_rate_limit',
          message: expect.stringMatching(/^API rate limit already exceeded for user ID \d+\.$/),
        },
      ]);
      expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(refused.headers.get('x-ratelimit-resource')).toBe('graphql');
      expect(small.requests.at(-1)).toMatchObject({ key: 'POST /graphql', status: 200, counted: false });
      // REST has its own budget.
      expect((await fetch(`${small.url}/repos/facebook/react`)).status).toBe(200);
    } finally {
      await small.close();
    }

    const untilEpochS = Math.floor(Date.now() / 1000) + 600;
    double.inject.rateLimit({ resource: 'graphql', untilEpochS });
    const injected = await post('{ viewer { login } }');
    expect(injected.body.errors?.[0]?.type).toBe('RATE_LIMITED');
    expect(injected.headers.get('x-ratelimit-reset')).toBe(String(untilEpochS));
    expect((await rest('/repos/facebook/react')).status).toBe(200);
  });
});

describe('GraphQL errors before a query runs (free)', () => {
  it('answers validation errors with 200 and GitHub’s wording, without data', async () => {
    const answer = await post(
      'query Broken {\n  repository(owner: "facebook", nam: "react") {\n    stars\n  }\n}',
    );
    expect(answer.status).toBe(200);
    expect(answer.body.data).toBeUndefined();
    expect(answer.body.errors).toEqual(
      expect.arrayContaining([
        {
          path: ['query Broken', 'repository', 'stars'],
          extensions: { code: 'undefinedField', typeName: 'Repository', fieldName: 'stars' },
          locations: [{ line: 3, column: 5 }],
          message: "Field 'stars' doesn't exist on type 'Repository'",
        },
        expect.objectContaining({ message: "Field 'repository' doesn't accept argument 'nam'" }),
        expect.objectContaining({ message: "Field 'repository' is missing required arguments: name" }),
      ]),
    );

    const unfinished = '{ repository(owner: "a" name: "b") {';
    const syntax = await post(unfinished);
    expect(syntax.status).toBe(200);
    expect(syntax.body.errors?.[0]).toMatchObject({
      locations: [{ line: 1, column: unfinished.length + 1 }],
      message: expect.stringMatching(/^Syntax Error/),
    });

    expect((await post('', { rawBody: '{"variables":{}}' })).body.errors).toEqual([
      { message: 'A query attribute must be specified and must be a string.' },
    ]);
    const notJson = await post('', { rawBody: 'query { viewer { login } }' });
    expect(notJson.status).toBe(400);
    expect(notJson.body.message).toBe('Problems parsing JSON');

    expect(double.counts.get('POST /graphql')).toBe(4);
    expect(double.counts.counted()).toBe(0);
    expect(double.quota(TOKEN, 'graphql').used).toBe(0);
  });

  it('enforces GitHub’s pagination limits', async () => {
    const excessive = `{ repository(owner: "facebook", name: "react") { defaultBranchRef { target { ... on Commit { history(first: 101) { totalCount } } } } } }`;
    const tooMany = await post(excessive);
    expect(tooMany.body.data).toBeUndefined();
    expect(tooMany.body.errors).toEqual([
      {
        type: 'EXCESSIVE_PAGINATION',
        path: ['repository', 'defaultBranchRef', 'target', 'history'],
        locations: [{ line: 1, column: excessive.indexOf('history') + 1 }],
        message:
          'Requesting 101 records on the `history` connection exceeds the `first` limit of 100 records.',
      },
    ]);
    const unbounded = await post(
      `{ repository(owner: "facebook", name: "react") { repositoryTopics { nodes { topic { name } } } } }`,
    );
    expect(unbounded.body.errors?.[0]).toMatchObject({
      type: 'MISSING_PAGINATION_BOUNDARIES',
      message:
        'You must provide a `first` or `last` value to properly paginate the `repositoryTopics` connection.',
    });
    // A connection asked only for its count needs no `first` (the app's issues/pullRequests).
    expect(
      (await post(`{ repository(owner: "facebook", name: "react") { issues(states: OPEN) { totalCount } } }`))
        .body.errors,
    ).toBeUndefined();
    expect(double.counts.counted()).toBe(1);
  });

  it('computes the cost as GitHub documents it', () => {
    const schema = githubGraphqlSchema();
    // GitHub's own example: 1 + 100 + 100 × 50 = 5,101 requests → 51 points.
    const document = parse(`query {
      viewer {
        login
        repositories(first: 100) {
          edges { node { id issues(first: 50) { edges { node { id labels(first: 60) { edges { node { name } } } } } } } }
        }
      }
    }`);
    const operation = document.definitions[0];
    if (operation?.kind !== 'OperationDefinition') {
      throw new Error('no operation');
    }
    expect(analyseOperation(schema, operation, [], {})).toMatchObject({
      requests: 5_101,
      cost: 51,
      nodeCount: 100 + 100 * 50 + 100 * 50 * 60,
      errors: [],
    });
  });
});

describe('faults on /graphql', () => {
  it('answers 502 for queries with more repositories than graphqlTooLarge allows, so clients can halve', async () => {
    double.inject.graphqlTooLarge(25);
    const names = realNames(100);
    // A client that halves its batch on 502/504, as the app does.
    let size = 100;
    const pending = [...names];
    const statuses: number[] = [];
    while (pending.length > 0) {
      const answer = await post<BatchData>(buildBatchQuery(pending.slice(0, size)));
      statuses.push(answer.status);
      if (answer.status === 502) {
        expect(answer.body.errors?.[0]?.message).toMatch(
          /^Something went wrong while executing your query\. This may be the result of a timeout/,
        );
        expect(answer.headers.get('x-ratelimit-remaining')).toBeNull();
        size = Math.floor(size / 2);
        continue;
      }
      pending.splice(0, size);
    }
    expect(statuses).toEqual([502, 502, 200, 200, 200, 200]);
    expect(double.requests.map((request) => request.aliases)).toEqual([100, 50, 25, 25, 25, 25]);
    expect(double.counts.get('POST /graphql')).toBe(6);
    expect(double.counts.counted()).toBe(4);
    double.inject.clear();
    expect((await post(buildBatchQuery(names))).status).toBe(200);
  });

  it('applies server errors, secondary limits and latency to /graphql too', async () => {
    double.inject.serverErrors(1, 504);
    const failed = await post('{ viewer { login } }');
    expect(failed.status).toBe(504);
    expect(double.requests.at(-1)).toMatchObject({ key: 'POST /graphql', counted: false });

    double.inject.secondaryLimit(60);
    const limited = await post('{ viewer { login } }');
    expect(limited.status).toBe(403);
    expect(limited.headers.get('retry-after')).toBe('60');
    expect(limited.body.message).toMatch(/secondary rate limit/);
    double.inject.clear();

    double.inject.latency(120);
    const started = performance.now();
    expect((await post('{ viewer { login } }')).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(110);
  });

  it('switches graphqlTooLarge over the control routes', async () => {
    const own = await startGitHubDouble({ control: true });
    try {
      const response = await fetch(`${own.url}/_double/faults/graphql-too-large`, {
        method: 'POST',
        body: JSON.stringify({ maxAliases: 1 }),
      });
      expect(response.status).toBe(200);
      expect((await post(buildBatchQuery(realNames(2)), { on: own })).status).toBe(502);
      expect((await post(buildBatchQuery(realNames(1)), { on: own })).status).toBe(200);
    } finally {
      await own.close();
    }
  });
});

describe('beyond the app’s fragment', () => {
  it('resolves neighbours, variables, cursors and __typename like GitHub', async () => {
    const react = catalogueRepo((repo) => repo.fullName === 'facebook/react');
    const answer = await post<{
      viewer: { login: string };
      repository: Record<string, unknown> & {
        defaultBranchRef: { target: { __typename: string; history: { pageInfo: { endCursor: string } } } };
      };
    }>(
      `query Neighbours($owner: String!, $name: String!) {
        viewer { login }
        repository(owner: $owner, name: $name) {
          owner { __typename login } createdAt pushedAt updatedAt isEmpty homepageUrl
          defaultBranchRef { target { __typename ... on Commit { history(first: 5) { pageInfo { hasNextPage endCursor } } } } }
        }
      }`,
      { variables: { owner: 'facebook', name: 'react' } },
    );
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data?.viewer.login).toMatch(/^[a-z0-9-]+$/);
    expect(answer.body.data?.repository).toMatchObject({
      owner: { __typename: react.owner.type, login: react.owner.login },
      createdAt: react.createdAt,
      pushedAt: react.pushedAt,
      updatedAt: react.updatedAt,
      isEmpty: false,
      homepageUrl: react.homepage,
      defaultBranchRef: { target: { __typename: 'Commit', history: { pageInfo: { hasNextPage: true } } } },
    });

    // Page 2 through the cursor is REST's page 2.
    const after = answer.body.data?.repository.defaultBranchRef.target.history.pageInfo.endCursor;
    const page2 = await post<{
      repository: { defaultBranchRef: { target: { history: { nodes: Array<{ oid: string }> } } } };
    }>(
      `query($after: String) { repository(owner: "facebook", name: "react") { defaultBranchRef { target { ... on Commit {
        history(first: 5, after: $after) { nodes { oid } } } } } } }`,
      { variables: { after } },
    );
    const restPage2 = await rest<RestCommit[]>('/repos/facebook/react/commits?per_page=5&page=2');
    expect(page2.body.data?.repository.defaultBranchRef.target.history.nodes.map((node) => node.oid)).toEqual(
      restPage2.body.map((commit) => commit.sha),
    );
  });

  it('answers fields it does not model with null and an error naming them', async () => {
    const answer = await post(
      `{ repository(owner: "facebook", name: "react") { nameWithOwner archivedAt } }`,
    );
    expect(answer.body.data).toEqual({ repository: { nameWithOwner: 'facebook/react', archivedAt: null } });
    expect(answer.body.errors?.[0]).toMatchObject({
      path: ['repository', 'archivedAt'],
      message: expect.stringContaining('does not resolve Repository.archivedAt'),
    });
  });
});

describe('with the real @octokit/graphql client', () => {
  it('reads a batch, and gets partial data in GraphqlResponseError', async () => {
    const client = octokitGraphql.defaults({
      baseUrl: double.url,
      headers: { authorization: `token ${TOKEN}` },
    });
    const data = await client<BatchData>(buildBatchQuery(['facebook/react', 'vuejs/vue']));
    expect(data.r0?.nameWithOwner).toBe('facebook/react');
    expect(data.rateLimit.cost).toBe(1);

    const error = await client<BatchData>(buildBatchQuery(['facebook/react', 'nobody/nothing'])).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(GraphqlResponseError);
    if (!(error instanceof GraphqlResponseError)) {
      return;
    }
    const partial = error.data as BatchData;
    expect(partial.r0?.nameWithOwner).toBe('facebook/react');
    expect(partial.r1).toBeNull();
    expect(error.errors?.[0]).toMatchObject({ type: 'NOT_FOUND', path: ['r1'] });
  });

  it('takes an explicit url only in the object form (a string query with { url } is refused)', async () => {
    const client = octokitGraphql.defaults({
      baseUrl: 'http://127.0.0.1:9',
      headers: { authorization: `token ${TOKEN}` },
    });
    const query = buildBatchQuery(['facebook/react']);
    const data = await client<BatchData>({ query, url: `${double.url}/graphql` });
    expect(data.r0?.nameWithOwner).toBe('facebook/react');
    await expect(client(query, { url: `${double.url}/graphql` })).rejects.toThrow(
      '"url" cannot be used as variable name',
    );
  });

  it('reaches /api/graphql from a GitHub Enterprise base URL, and surfaces RATE_LIMITED', async () => {
    const enterprise = octokitGraphql.defaults({
      baseUrl: `${double.url}/api/v3`,
      headers: { authorization: `token ${TOKEN}` },
    });
    const data = await enterprise<{ viewer: { login: string } }>('{ viewer { login } }');
    expect(data.viewer.login).toBeTruthy();
    expect(double.requests.at(-1)).toMatchObject({
      path: '/api/graphql',
      key: 'POST /graphql',
      counted: true,
    });

    double.inject.rateLimit({ resource: 'graphql', untilEpochS: Math.floor(Date.now() / 1000) + 60 });
    const error = await enterprise('{ viewer { login } }').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GraphqlResponseError);
    expect(error instanceof GraphqlResponseError && error.errors?.[0]?.type).toBe('RATE_LIMITED');
  });
});
