import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Octokit } from 'octokit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type DoubleRepository, findRepository, getCatalogue } from './catalogue.ts';
import { schemaErrors } from './openapi-schemas.ts';
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
const TOKEN = 'ghp_test_token';
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

interface Answer<T> {
  status: number;
  headers: Headers;
  /** Parsed JSON, typed by the caller with the fields its assertions read. */
  body: T;
  text: string;
}

/** The parts of GitHub's bodies the assertions read (the schemas check the rest). */
interface RepoJson {
  id: number;
  full_name: string;
  size: number;
  stargazers_count: number;
  owner: { login: string };
  [field: string]: unknown;
}
interface CommitJson {
  sha: string;
  author: unknown;
  commit: { committer: { date: string }; verification: { verified: boolean } };
  parents: Array<{ sha: string }>;
}
interface ContributorJson {
  type: string;
  [field: string]: unknown;
}
interface ErrorJson {
  message: string;
  documentation_url?: string;
  status?: string;
  url?: string;
}
interface RateValuesJson {
  limit: number;
  remaining: number;
  used: number;
  reset: number;
}
interface ControlStateJson {
  snapshot?: string;
  counts?: { total: number; counted: number };
  message?: string;
}
interface RateLimitJson {
  resources: { core: RateValuesJson };
  rate: RateValuesJson;
}

async function get<T = unknown>(
  path: string,
  options: {
    token?: string | null;
    headers?: Record<string, string>;
    redirect?: RequestRedirect;
    on?: GitHubDouble;
  } = {},
): Promise<Answer<T>> {
  const token = options.token === undefined ? TOKEN : options.token;
  const response = await fetch(`${(options.on ?? double).url}${path}`, {
    headers: {
      accept: 'application/vnd.github+json',
      ...(token ? { authorization: `token ${token}` } : {}),
      ...options.headers,
    },
    redirect: options.redirect ?? 'follow',
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: (text ? JSON.parse(text) : undefined) as T,
    text,
  };
}

/**
 * The client-side count recipe (docs/architecture.md#what-one-repository-costs): rel="last" page, else the
 * items on page 1.
 */
function countFromLink(answer: Answer<unknown>): number {
  const last = answer.headers.get('link')?.match(/[?&]page=(\d+)[^>]*>;\s*rel="last"/);
  return last?.[1] ? Number(last[1]) : (answer.body as unknown[]).length;
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

const react = () => catalogueRepo((repo) => repo.fullName === 'facebook/react');

describe('GET /repos/{owner}/{repo}', () => {
  it('matches the OpenAPI full-repository schema for varied repositories, with and without a token', async () => {
    const samples = [
      react(),
      catalogueRepo((repo) => repo.owner.type === 'User'),
      catalogueRepo((repo) => repo.license === null),
      catalogueRepo((repo) => repo.license?.spdxId === 'NOASSERTION'),
      catalogueRepo((repo) => repo.archived),
      catalogueRepo((repo) => (repo.description?.length ?? 0) > 5000),
    ];
    for (const repo of samples) {
      for (const token of [TOKEN, null]) {
        const answer = await get<RepoJson>(`/repos/${repo.fullName}`, { token });
        expect(answer.status).toBe(200);
        expect(schemaErrors('repos/get', 200, answer.body)).toEqual([]);
        expect(answer.body.full_name).toBe(repo.fullName);
        expect('permissions' in answer.body).toBe(token !== null);
      }
    }
    const bare = await get(`/repos/${BARE_REPOSITORY}`);
    expect(schemaErrors('repos/get', 200, bare.body)).toEqual([]);
    expect(bare.body).toMatchObject({ description: null, license: null, topics: [] });
  });

  it('has every field of the recorded get-repository response but the admin-only ones', async () => {
    const require = createRequire(import.meta.url);
    const fixturePath = require.resolve(
      '@octokit/fixtures/scenarios/api.github.com/get-repository/raw-fixture.json',
    );
    const [recorded] = JSON.parse(readFileSync(fixturePath, 'utf8')) as Array<{
      response: Record<string, unknown>;
    }>;
    // Only callers with push or admin rights get these from GitHub.
    const adminOnly = new Set([
      'temp_clone_token',
      'allow_squash_merge',
      'allow_merge_commit',
      'allow_rebase_merge',
      'allow_auto_merge',
      'delete_branch_on_merge',
      'allow_update_branch',
      'use_squash_pr_title_as_default',
    ]);
    const answer = await get<RepoJson>('/repos/facebook/react');
    const expected = Object.keys(recorded?.response ?? {}).filter((key) => !adminOnly.has(key));
    expect(expected.length).toBeGreaterThan(70);
    expect(Object.keys(answer.body)).toEqual(expect.arrayContaining(expected));
  });

  it('carries the CSV numbers and GitHub’s open_issues_count (issues + pull requests)', async () => {
    const repo = react();
    const { body } = await get<RepoJson>('/repos/facebook/react');
    expect(body).toMatchObject({
      id: repo.id,
      full_name: 'facebook/react',
      stargazers_count: 237761,
      watchers_count: 237761,
      forks_count: 49045,
      language: 'JavaScript',
      description: 'The library for web and native user interfaces.',
      private: false,
      visibility: 'public',
      default_branch: repo.defaultBranch,
      pushed_at: '2025-07-31T17:13:32Z',
    });
    expect(body.open_issues_count).toBe(805 + repo.openPullRequests);
    expect(body.open_issues).toBe(body.open_issues_count);
  });

  it('matches names in any case, with or without a trailing slash, and answers in GitHub’s spelling', async () => {
    for (const path of [
      '/repos/FACEBOOK/React',
      '/repos/facebook/react/',
      '/repos/FreeCodeCamp/FREECODECAMP',
    ]) {
      const answer = await get(path);
      expect(answer.status).toBe(200);
    }
    expect((await get<RepoJson>('/repos/FreeCodeCamp/FREECODECAMP')).body.full_name).toBe(
      'freeCodeCamp/freeCodeCamp',
    );
  });

  it('sends GitHub’s headers', async () => {
    const answer = await get('/repos/facebook/react');
    const header = (name: string) => answer.headers.get(name);
    expect(header('content-type')).toBe('application/json; charset=utf-8');
    expect(header('x-github-media-type')).toBe('github.v3; format=json');
    expect(header('x-github-request-id')).toMatch(
      /^[0-9A-F]{4}:[0-9A-F]{4}:[0-9A-F]{7}:[0-9A-F]{7}:[0-9A-F]{8}$/,
    );
    expect(header('etag')).toMatch(/^W\/"[0-9a-f]{64}"$/);
    expect(header('last-modified')).toBe(new Date(react().updatedAt).toUTCString());
    expect(header('cache-control')).toBe('private, max-age=60, s-maxage=60');
    expect(header('vary')).toContain('Authorization');
    expect(header('x-ratelimit-limit')).toBe('5000');
    expect(header('x-ratelimit-remaining')).toBe('4999');
    expect(header('x-ratelimit-used')).toBe('1');
    expect(header('x-ratelimit-resource')).toBe('core');
    expect(Number(header('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    const anonymous = await get('/repos/facebook/react', { token: null });
    expect(anonymous.headers.get('x-ratelimit-limit')).toBe('60');
    expect(anonymous.headers.get('cache-control')).toBe('public, max-age=60, s-maxage=60');
  });
});

describe('GET /repos/{owner}/{repo}/commits', () => {
  it('matches the OpenAPI commit schema, with unlinked authors and verified web commits', async () => {
    const answer = await get<CommitJson[]>('/repos/facebook/react/commits?per_page=100');
    expect(answer.status).toBe(200);
    expect(answer.body).toHaveLength(100);
    expect(schemaErrors('repos/list-commits', 200, answer.body)).toEqual([]);
    expect(answer.body.some((commit) => commit.author === null)).toBe(true);
    expect(answer.body.some((commit) => commit.commit.verification.verified)).toBe(true);
    expect(answer.body[0]?.commit.committer.date).toBe('2025-07-31T17:13:32Z');
  });

  it('paginates with GitHub’s Link header; per_page=1 gives the commit count', async () => {
    const repo = react();
    const first = await get('/repos/facebook/react/commits?per_page=1');
    const base = `${double.url}/repositories/${repo.id}/commits`;
    expect(first.headers.get('link')).toBe(
      `<${base}?per_page=1&page=2>; rel="next", <${base}?per_page=1&page=${repo.commitCount}>; rel="last"`,
    );
    expect(countFromLink(first)).toBe(repo.commitCount);

    const middle = await get('/repos/facebook/react/commits?per_page=30&page=3');
    const lastPage = Math.ceil(repo.commitCount / 30);
    expect(middle.headers.get('link')).toBe(
      `<${base}?per_page=30&page=2>; rel="prev", <${base}?per_page=30&page=4>; rel="next", ` +
        `<${base}?per_page=30&page=${lastPage}>; rel="last", <${base}?per_page=30&page=1>; rel="first"`,
    );
    const last = await get<CommitJson[]>(`/repos/facebook/react/commits?per_page=30&page=${lastPage}`);
    expect(last.body).toHaveLength(repo.commitCount - (lastPage - 1) * 30);
    expect(last.headers.get('link')).not.toContain('rel="next"');
    expect(last.body.at(-1)?.parents).toEqual([]);
    expect((await get(`/repos/facebook/react/commits?page=${lastPage + 5}`)).body).toEqual([]);
  });

  it('continues page 1 on page 2 when following rel="next" (default per_page 30)', async () => {
    const first = await get<CommitJson[]>('/repos/facebook/react/commits');
    expect(first.body).toHaveLength(30);
    const next = first.headers.get('link')?.match(/<([^>]+)>; rel="next"/)?.[1];
    expect(next).toBeDefined();
    const second = await get<CommitJson[]>((next ?? '').replace(double.url, ''));
    expect(second.body[0]?.sha).toBe(first.body[29]?.parents[0]?.sha);
    expect(double.counts.get('GET /repositories/{id}/commits')).toBe(1);
  });

  it('caps per_page at 100', async () => {
    const answer = await get('/repos/facebook/react/commits?per_page=500');
    expect(answer.body).toHaveLength(100);
  });

  it('answers a one-commit history without a Link header', async () => {
    const answer = await get(`/repos/${SINGLE_COMMIT_REPOSITORY}/commits?per_page=1`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('link')).toBeNull();
    expect(answer.body).toHaveLength(1);
    expect(countFromLink(answer)).toBe(1);
  });

  it('answers 409 for an empty repository', async () => {
    const answer = await get(`/repos/${EMPTY_REPOSITORY}/commits?per_page=1`);
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({
      message: 'Git Repository is empty.',
      documentation_url: 'https://docs.github.com/rest/commits/commits#list-commits',
      status: '409',
    });
    expect(schemaErrors('repos/list-commits', 409, answer.body)).toEqual([]);
    const repo = await get<RepoJson>(`/repos/${EMPTY_REPOSITORY}`);
    expect(repo.status).toBe(200);
    expect(repo.body.size).toBe(0);
  });

  it('starts at the commit or branch named by sha', async () => {
    const repo = react();
    const newest = await get<CommitJson[]>('/repos/facebook/react/commits?per_page=5');
    const third = newest.body[2]?.sha ?? '';
    const fromThird = await get<CommitJson[]>(
      `/repos/facebook/react/commits?per_page=1&sha=${third.slice(0, 12)}`,
    );
    expect(fromThird.body[0]?.sha).toBe(third);
    expect(countFromLink(fromThird)).toBe(repo.commitCount - 2);
    const branch = await get(`/repos/facebook/react/commits?per_page=5&sha=${repo.defaultBranch}`);
    expect(branch.body).toEqual(newest.body);
    const unknown = await get<ErrorJson>('/repos/facebook/react/commits?sha=no-such-branch');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('No commit found for SHA: no-such-branch');
  });
});

describe('GET /repos/{owner}/{repo}/contributors', () => {
  const repo = () =>
    catalogueRepo((candidate) => candidate.contributorCount > 120 && candidate.contributorCount < 300);

  it('matches the OpenAPI contributor schema, anonymous entries included with anon=1', async () => {
    const answer = await get<ContributorJson[]>(`/repos/${repo().fullName}/contributors?per_page=100&anon=1`);
    expect(answer.status).toBe(200);
    expect(schemaErrors('repos/list-contributors', 200, answer.body)).toEqual([]);
    const types = new Set(answer.body.map((entry) => entry.type));
    expect(types.has('Anonymous')).toBe(true);
    expect(types.has('User')).toBe(true);
    const anonymous = answer.body.find((entry) => entry.type === 'Anonymous');
    expect(Object.keys(anonymous ?? {}).sort()).toEqual(['contributions', 'email', 'name', 'type']);
  });

  it('counts every contributor with anon=1 and a few less without', async () => {
    const withAnon = await get(`/repos/${repo().fullName}/contributors?per_page=1&anon=1`);
    const withoutAnon = await get(`/repos/${repo().fullName}/contributors?per_page=1`);
    expect(countFromLink(withAnon)).toBe(repo().contributorCount);
    expect(countFromLink(withoutAnon)).toBe(repo().linkedContributorCount);
    expect(countFromLink(withoutAnon)).toBeLessThan(countFromLink(withAnon));
    expect(withAnon.headers.get('link')).toContain(
      `/repositories/${repo().id}/contributors?per_page=1&anon=1&page=2>`,
    );
  });

  it('answers 204 with no body for an empty repository', async () => {
    const answer = await get(`/repos/${EMPTY_REPOSITORY}/contributors?per_page=1&anon=1`);
    expect(answer.status).toBe(204);
    expect(answer.text).toBe('');
  });

  it('answers 403 when the history is too large', async () => {
    const answer = await get<ErrorJson>(`/repos/${HUGE_REPOSITORY}/contributors?per_page=1&anon=1`);
    expect(answer.status).toBe(403);
    expect(answer.body.message).toBe(
      'The history or contributor list is too large to list contributors for this repository via the API.',
    );
    expect(schemaErrors('repos/list-contributors', 403, answer.body)).toEqual([]);
    expect(countFromLink(await get(`/repos/${HUGE_REPOSITORY}/commits?per_page=1`))).toBe(1_234_567);
  });
});

describe('renamed, missing, private and deleted repositories', () => {
  it('answers a former name with 301 to /repositories/{id}, exactly like the recorded rename', async () => {
    const repo = findRepository(RENAMED_REPOSITORY_NEW_NAME, OLDER);
    const location = `${double.url}/repositories/${repo?.id}`;
    const moved = await get(`/repos/${RENAMED_REPOSITORY_OLD_NAME}`, { redirect: 'manual' });
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe(location);
    expect(moved.body).toEqual({
      message: 'Moved Permanently',
      url: location,
      documentation_url: 'https://docs.github.com/v3/#http-redirects',
    });
    expect(schemaErrors('repos/get', 301, moved.body)).toEqual([]);

    const followed = await get<RepoJson>(`/repos/${RENAMED_REPOSITORY_OLD_NAME}`);
    expect(followed.status).toBe(200);
    expect(followed.body.full_name).toBe(RENAMED_REPOSITORY_NEW_NAME);

    const commits = await get(`/repos/${RENAMED_REPOSITORY_OLD_NAME}/commits?per_page=1`, {
      redirect: 'manual',
    });
    expect(commits.status).toBe(301);
    expect(commits.headers.get('location')).toBe(`${location}/commits?per_page=1`);
    const contributors = await get(`/repos/${RENAMED_REPOSITORY_OLD_NAME}/contributors?anon=1`);
    expect(contributors.status).toBe(200);
    expect(double.counts.get('GET /repositories/{id}/contributors')).toBe(1);
  });

  it('answers 404 with GitHub’s body for missing repositories and unknown paths', async () => {
    const missing = await get('/repos/nobody-here/nothing-here');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({
      message: 'Not Found',
      documentation_url: 'https://docs.github.com/rest/repos/repos#get-a-repository',
      status: '404',
    });
    const unknown = await get('/no/such/endpoint');
    expect(unknown.body).toEqual({
      message: 'Not Found',
      documentation_url: 'https://docs.github.com/rest',
      status: '404',
    });
    expect(double.counts.get('GET (unmatched)')).toBe(1);
  });

  it('hides a private repository behind the same 404 unless the token was granted access', async () => {
    const missingBody = (await get('/repos/nobody-here/nothing-here')).body;
    for (const token of [null, TOKEN]) {
      const hidden = await get(`/repos/${PRIVATE_REPOSITORY}`, { token });
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual(missingBody);
    }
    const visible = await get<RepoJson>(`/repos/${PRIVATE_REPOSITORY}`, { token: PRIVATE_TOKEN });
    expect(visible.status).toBe(200);
    expect(visible.body).toMatchObject({ private: true, visibility: 'private' });
    expect((await get(`/repos/${PRIVATE_REPOSITORY}/commits`, { token: PRIVATE_TOKEN })).status).toBe(200);

    double.grantPrivateAccess('ghp_granted_later');
    expect((await get(`/repos/${PRIVATE_REPOSITORY}`, { token: 'ghp_granted_later' })).status).toBe(200);
  });

  it('answers 404 under every name and id after removeRepository, until restored', async () => {
    const repo = react();
    double.removeRepository('Facebook/React');
    try {
      expect((await get('/repos/facebook/react')).status).toBe(404);
      expect((await get('/repos/facebook/react/commits')).status).toBe(404);
      expect((await get(`/repositories/${repo.id}`)).status).toBe(404);
    } finally {
      double.restoreRepository('facebook/react');
    }
    expect((await get('/repos/facebook/react')).status).toBe(200);
    expect(() => double.removeRepository('nobody-here/nothing-here')).toThrow(/no repository/);
  });

  it('renames a real repository on request: the old name redirects, the new one answers', async () => {
    const own = await startGitHubDouble();
    try {
      own.renameRepository('facebook/react', 'meta/react-renamed');
      const followed = await get<RepoJson>('/repos/facebook/react', { on: own });
      expect(followed.body.full_name).toBe('meta/react-renamed');
      expect(followed.body.owner.login).toBe('meta');
      expect(followed.body.id).toBe(react().id);
      expect((await get('/repos/META/react-renamed', { on: own })).status).toBe(200);
      expect((await get('/repos/facebook/react', { on: own, redirect: 'manual' })).status).toBe(301);
    } finally {
      await own.close();
    }
  });
});

describe('conditional requests and quota', () => {
  it('answers a matching If-None-Match with 304: free with a token', async () => {
    const first = await get('/repos/facebook/react/commits?per_page=10');
    const etag = first.headers.get('etag') ?? '';
    const remaining = first.headers.get('x-ratelimit-remaining');
    const again = await get('/repos/facebook/react/commits?per_page=10', {
      headers: { 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('x-ratelimit-remaining')).toBe(remaining);
    expect(double.counts.total()).toBe(2);
    expect(double.counts.counted()).toBe(1);
    expect(double.quota(TOKEN).remaining).toBe(4999);
    expect(double.requests.at(-1)).toMatchObject({
      method: 'GET',
      path: '/repos/facebook/react/commits?per_page=10',
      key: 'GET /repos/{owner}/{repo}/commits',
      status: 304,
      authenticated: true,
      counted: false,
    });
  });

  it('counts an anonymous 304', async () => {
    const first = await get('/repos/facebook/react', { token: null });
    const again = await get('/repos/facebook/react', {
      token: null,
      headers: { 'if-none-match': first.headers.get('etag') ?? '' },
    });
    expect(again.status).toBe(304);
    expect(again.headers.get('x-ratelimit-remaining')).toBe('58');
    expect(double.counts.counted()).toBe(2);
  });

  it('ties ETags to the token that fetched them', async () => {
    const first = await get('/repos/facebook/react');
    const other = await get('/repos/facebook/react', {
      token: 'ghp_other_token',
      headers: { 'if-none-match': first.headers.get('etag') ?? '' },
    });
    expect(other.status).toBe(200);
  });

  it('changes the ETag when the data changes (snapshot switch)', async () => {
    const before = await get('/repos/facebook/react');
    double.setSnapshot(NEWER);
    const after = await get('/repos/facebook/react', {
      headers: { 'if-none-match': before.headers.get('etag') ?? '' },
    });
    expect(after.status).toBe(200);
  });

  it('refuses with 403 and GitHub’s primary-limit body once the quota is spent', async () => {
    const small = await startGitHubDouble({ quota: { anonymous: 3, token: 2 } });
    try {
      for (let i = 0; i < 3; i++) {
        expect((await get('/repos/facebook/react', { token: null, on: small })).status).toBe(200);
      }
      const refused = await get<ErrorJson>('/repos/facebook/react', { token: null, on: small });
      expect(refused.status).toBe(403);
      expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(refused.body.message).toMatch(
        /^API rate limit exceeded for 127\.0\.0\.1\. \(But here's the good news/,
      );

      // Each token has its own budget.
      expect((await get('/repos/facebook/react', { on: small })).status).toBe(200);
      expect((await get('/repos/facebook/react', { on: small })).headers.get('x-ratelimit-remaining')).toBe(
        '0',
      );
      const tokenRefused = await get<ErrorJson>('/repos/facebook/react', { on: small });
      expect(tokenRefused.status).toBe(403);
      expect(tokenRefused.body.message).toMatch(/^API rate limit exceeded for user ID \d+\./);

      // /rate_limit stays free and tells the truth.
      const limits = await get<RateLimitJson>('/rate_limit', { token: null, on: small });
      expect(limits.status).toBe(200);
      expect(limits.body.resources.core).toMatchObject({ limit: 3, remaining: 0, used: 3 });
      expect(small.counts.counted()).toBe(5);
    } finally {
      await small.close();
    }
  });

  it('serves /rate_limit in GitHub’s shape without spending quota', async () => {
    await get('/repos/facebook/react');
    const limits = await get<RateLimitJson>('/rate_limit');
    expect(schemaErrors('rate-limit/get', 200, limits.body)).toEqual([]);
    expect(limits.body.resources.core).toMatchObject({ limit: 5000, used: 1, remaining: 4999 });
    expect(limits.body.rate).toEqual(limits.body.resources.core);
    await get('/rate_limit');
    expect(double.quota(TOKEN).remaining).toBe(4999);
    expect(double.counts.get('GET /rate_limit')).toBe(2);
    expect(double.counts.counted()).toBe(1);
  });
});

describe('fault injection', () => {
  it('fails the next n requests with a 5xx', async () => {
    double.inject.serverErrors(2);
    expect((await get('/repos/facebook/react')).status).toBe(502);
    expect((await get('/repos/facebook/react')).status).toBe(502);
    expect((await get('/repos/facebook/react')).status).toBe(200);
    double.inject.serverErrors(1, 503);
    expect((await get('/repos/facebook/react')).status).toBe(503);
    expect(double.counts.counted()).toBe(1);
  });

  it('imposes a primary rate limit until the given reset', async () => {
    const untilEpochS = Math.floor(Date.now() / 1000) + 600;
    double.inject.rateLimit({ untilEpochS });
    const refused = await get<ErrorJson>('/repos/facebook/react');
    expect(refused.status).toBe(403);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('x-ratelimit-reset')).toBe(String(untilEpochS));
    expect(refused.body.message).toMatch(/API rate limit exceeded/);
    expect((await get<RateLimitJson>('/rate_limit')).body.resources.core.remaining).toBe(0);
    double.inject.rateLimit({ untilEpochS, status: 429 });
    expect((await get('/repos/facebook/react')).status).toBe(429);
    double.inject.clear();
    expect((await get('/repos/facebook/react')).status).toBe(200);
  });

  it('imposes a secondary rate limit with retry-after, lifted after that time', async () => {
    double.inject.secondaryLimit(0.3);
    const refused = await get<ErrorJson>('/repos/facebook/react');
    expect(refused.status).toBe(403);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.body.message).toMatch(/^You have exceeded a secondary rate limit\./);
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect((await get('/repos/facebook/react')).status).toBe(200);
  });

  it('adds latency', async () => {
    double.inject.latency(150);
    const started = performance.now();
    expect((await get('/repos/facebook/react')).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    const slow = await startGitHubDouble({ latencyMs: 100 });
    try {
      const slowStarted = performance.now();
      await get('/rate_limit', { on: slow });
      expect(performance.now() - slowStarted).toBeGreaterThanOrEqual(90);
    } finally {
      await slow.close();
    }
  });

  it('hangs until cleared, and close() does not wait for hung sockets', async () => {
    const own = await startGitHubDouble();
    own.inject.hang();
    const timedOut = fetch(`${own.url}/repos/facebook/react`, { signal: AbortSignal.timeout(150) });
    await expect(timedOut).rejects.toThrow(/timeout|aborted/i);
    own.inject.clear();
    expect((await get('/repos/facebook/react', { on: own })).status).toBe(200);

    own.inject.hang();
    const pending = fetch(`${own.url}/repos/facebook/react`).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    await own.close();
    expect(performance.now() - started).toBeLessThan(1000);
    expect(await pending).toBeInstanceOf(Error);
  });
});

describe('snapshots', () => {
  it('switches data: stars, last commit and a grown commit count', async () => {
    const older = catalogueRepo((repo) => {
      const newer = findRepository(repo.fullName, NEWER);
      return newer !== undefined && newer.stars !== repo.stars && newer.lastCommitAt !== repo.lastCommitAt;
    });
    const newer = findRepository(older.fullName, NEWER);
    const before = await get<RepoJson>(`/repos/${older.fullName}`);
    const commitsBefore = await get(`/repos/${older.fullName}/commits?per_page=1`);
    double.setSnapshot(NEWER);
    expect(double.snapshot).toBe(NEWER);
    const after = await get<RepoJson>(`/repos/${older.fullName}`);
    const commitsAfter = await get<CommitJson[]>(`/repos/${older.fullName}/commits?per_page=1`);
    expect(before.body.stargazers_count).toBe(older.stars);
    expect(after.body.stargazers_count).toBe(newer?.stars);
    expect(after.body.id).toBe(before.body.id);
    expect(countFromLink(commitsAfter)).toBeGreaterThan(countFromLink(commitsBefore));
    expect(commitsAfter.body[0]?.commit.committer.date).toBe(newer?.lastCommitAt);
  });
});

describe('with the real octokit client', () => {
  it('fetches a repository and follows a rename', async () => {
    const octokit = new Octokit({ baseUrl: double.url, auth: TOKEN });
    const { data } = await octokit.request('GET /repos/{owner}/{repo}', { owner: 'facebook', repo: 'react' });
    expect(data.full_name).toBe('facebook/react');
    const [owner = '', repo = ''] = RENAMED_REPOSITORY_OLD_NAME.split('/');
    const renamed = await octokit.request('GET /repos/{owner}/{repo}', { owner, repo });
    expect(renamed.status).toBe(200);
    expect(renamed.data.full_name).toBe(RENAMED_REPOSITORY_NEW_NAME);
    expect(double.counts.get('GET /repos/{owner}/{repo}')).toBe(2);
    expect(double.counts.get('GET /repositories/{id}')).toBe(1);
  });

  it('paginates contributors through the Link header', async () => {
    const octokit = new Octokit({ baseUrl: double.url, auth: TOKEN });
    const repo = catalogueRepo(
      (candidate) => candidate.contributorCount > 150 && candidate.contributorCount < 250,
    );
    const [owner = '', name = ''] = repo.fullName.split('/');
    const all = await octokit.paginate('GET /repos/{owner}/{repo}/contributors', {
      owner,
      repo: name,
      anon: '1',
      per_page: 100,
    });
    expect(all).toHaveLength(repo.contributorCount);
    expect(double.counts.get('GET /repositories/{id}/contributors')).toBe(
      Math.ceil(repo.contributorCount / 100) - 1,
    );
  });
});

describe('control routes (for a double in another process)', () => {
  it('switches snapshot, injects faults and removes repositories over HTTP', async () => {
    const own = await startGitHubDouble({ control: true });
    const control = async (path: string, body: unknown = {}) => {
      const response = await fetch(`${own.url}/_double/${path}`, {
        method: 'POST',
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as ControlStateJson };
    };
    try {
      expect((await control('snapshot', { snapshot: NEWER })).body.snapshot).toBe(NEWER);
      expect(own.snapshot).toBe(NEWER);
      await control('faults/server-errors', { count: 1, status: 500 });
      expect((await get('/repos/facebook/react', { on: own })).status).toBe(500);
      await control('repositories/remove', { fullName: 'facebook/react' });
      expect((await get('/repos/facebook/react', { on: own })).status).toBe(404);
      expect((await control('repositories/remove', { fullName: 'nobody/nothing' })).status).toBe(422);
      expect((await control('faults/latency', { ms: -1 })).status).toBe(400);
      expect((await control('no-such-command')).status).toBe(404);

      const state = (await (await fetch(`${own.url}/_double/state`)).json()) as ControlStateJson;
      expect(state.counts).toMatchObject({ total: 2, counted: 1 });

      await control('reset');
      expect(own.snapshot).toBe(OLDER);
      expect((await get('/repos/facebook/react', { on: own })).status).toBe(200);
    } finally {
      await own.close();
    }
    // Without the option the prefix is just another unknown GitHub path.
    expect((await get<ErrorJson>('/_double/state')).body.message).toBe('Not Found');
  });
});
