import { parse, validate } from 'graphql';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type DoubleRepository, getCatalogue } from './catalogue.ts';
import { githubGraphqlSchema } from './graphql-schema.ts';
import {
  commitsBetween,
  DAY_MS,
  FADING_REPOSITORY,
  repositoryActivity,
  securityPolicyEnabled,
  snapshotNowMs,
} from './health-activity.ts';
import { SNAPSHOT_DATES, type SnapshotDate } from './ranking-snapshots.ts';
import { type GitHubDouble, startGitHubDouble } from './server.ts';
import { EMPTY_REPOSITORY } from './special-repositories.ts';

const [OLDER, NEWER] = SNAPSHOT_DATES;
const TOKEN = 'ghp_health_token';

/** The app's health query (issue 24), as the server sends it. */
const HEALTH_FRAGMENT = `
fragment HealthFields on Repository {
  databaseId nameWithOwner isArchived isSecurityPolicyEnabled
  licenseInfo { spdxId }
  defaultBranchRef { target { ... on Commit {
    latest: history(first: 1) { nodes { committedDate } }
    recent: history(since: $since) { totalCount }
  } } }
  releases(first: 10, orderBy: { field: CREATED_AT, direction: DESC }) { nodes { publishedAt isDraft isPrerelease } }
  issues(first: 10, orderBy: { field: CREATED_AT, direction: DESC }) {
    nodes { createdAt closedAt comments(first: 1) { nodes { createdAt } } }
  }
  pullRequests(first: 100, orderBy: { field: UPDATED_AT, direction: DESC }) { nodes { mergedAt updatedAt } }
  packageJson: object(expression: "HEAD:package.json") { ... on Blob { text } }
  pyprojectToml: object(expression: "HEAD:pyproject.toml") { ... on Blob { text } }
  cargoToml: object(expression: "HEAD:Cargo.toml") { ... on Blob { text } }
  goMod: object(expression: "HEAD:go.mod") { ... on Blob { text } }
  composerJson: object(expression: "HEAD:composer.json") { ... on Blob { text } }
}`;

function healthQuery(names: readonly string[]): string {
  const fields = names.map((fullName, index) => {
    const [owner, name] = fullName.split('/');
    return `  r${index}: repository(owner: ${JSON.stringify(owner)}, name: ${JSON.stringify(name)}) { ...HealthFields }`;
  });
  return `query Health($since: GitTimestamp!) {\n${fields.join('\n')}\n  rateLimit { cost remaining resetAt }\n}\n${HEALTH_FRAGMENT}`;
}

interface HealthRepo {
  databaseId: number;
  nameWithOwner: string;
  isArchived: boolean;
  isSecurityPolicyEnabled: boolean;
  licenseInfo: { spdxId: string | null } | null;
  defaultBranchRef: {
    target: { latest: { nodes: Array<{ committedDate: string }> }; recent: { totalCount: number } };
  } | null;
  releases: { nodes: Array<{ publishedAt: string | null; isDraft: boolean; isPrerelease: boolean }> };
  issues: {
    nodes: Array<{
      createdAt: string;
      closedAt: string | null;
      comments: { nodes: Array<{ createdAt: string }> };
    }>;
  };
  pullRequests: { nodes: Array<{ mergedAt: string | null; updatedAt: string }> };
  packageJson: { text: string } | null;
  pyprojectToml: { text: string } | null;
  cargoToml: { text: string } | null;
  goMod: { text: string } | null;
  composerJson: { text: string } | null;
}
interface GraphqlBody {
  data?: Record<string, unknown> | null;
  errors?: Array<{ message: string; type?: string; path?: unknown[]; extensions?: Record<string, unknown> }>;
}

let double: GitHubDouble;

beforeAll(async () => {
  double = await startGitHubDouble({ preloadGraphqlSchema: true });
});
afterAll(async () => {
  await double.close();
});
beforeEach(() => {
  double.reset();
});

const sinceOf = (snapshot: SnapshotDate) => new Date(snapshotNowMs(snapshot) - 90 * DAY_MS).toISOString();

async function post(
  query: string,
  variables: Record<string, unknown> = {},
): Promise<{ status: number; body: GraphqlBody; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${double.url}/graphql`, {
    method: 'POST',
    headers: { authorization: `bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as GraphqlBody;
  return { status: response.status, body, ms: performance.now() - started };
}

async function health(
  names: readonly string[],
  snapshot: SnapshotDate = OLDER,
): Promise<Record<string, HealthRepo | null>> {
  const answer = await post(healthQuery(names), { since: sinceOf(snapshot) });
  expect(answer.status).toBe(200);
  expect(answer.body.errors).toBeUndefined();
  return answer.body.data as Record<string, HealthRepo | null>;
}

const realRepositories = (snapshot: SnapshotDate): DoubleRepository[] =>
  getCatalogue(snapshot).repositories.filter((repo) => !repo.special);

const ageDays = (date: string | number, snapshot: SnapshotDate) =>
  (snapshotNowMs(snapshot) - (typeof date === 'number' ? date : Date.parse(date))) / DAY_MS;

describe('the health query', () => {
  it('validates against GitHub’s schema and resolves 60 aliases with no error', async () => {
    const names = realRepositories(OLDER)
      .slice(0, 60)
      .map((repo) => repo.fullName);
    const query = healthQuery(names);
    expect(validate(githubGraphqlSchema(), parse(query))).toEqual([]);
    const data = await health(names);
    expect(Object.keys(data)).toHaveLength(61);
    expect((data.r59 as HealthRepo).nameWithOwner).toBe(names[59]);
  });

  it('costs what GitHub’s formula says for 25 repositories, and its connections take query time', async () => {
    const names = realRepositories(OLDER)
      .slice(100, 125)
      .map((repo) => repo.fullName);
    // Requests per repository: one per connection, nested ones once per parent item.
    const perRepository =
      1 + // latest: history(first: 1)
      1 + // recent: history(since:)
      1 + // releases(first: 10)
      1 + // issues(first: 10)
      10 + // comments(first: 1) inside each of the 10 issues
      1; // pullRequests(first: 100)
    const requests = names.length * perRepository;
    const expectedCost = Math.max(1, Math.round(requests / 100));
    expect(expectedCost).toBe(4);
    const answer = await post(healthQuery(names), { since: sinceOf(OLDER) });
    expect((answer.body.data as { rateLimit: { cost: number } }).rateLimit.cost).toBe(expectedCost);
    expect(double.quota(TOKEN, 'graphql').used).toBe(expectedCost);

    // graphqlTime charges msPerConnection for every request above: one repository is 15 requests.
    double.inject.graphqlTime(10, 145);
    const tooSlow = await post(healthQuery(names.slice(0, 1)), { since: sinceOf(OLDER) });
    expect(tooSlow.status).toBe(502);
    double.inject.graphqlTime(10, 155);
    const inTime = await post(healthQuery(names.slice(0, 1)), { since: sinceOf(OLDER) });
    expect(inTime.status).toBe(200);
    expect(inTime.ms).toBeGreaterThanOrEqual(145);
  });

  it('agrees with REST: the newest commit, and history(since:) counts the commits REST lists in the window', async () => {
    for (const snapshot of SNAPSHOT_DATES) {
      double.setSnapshot(snapshot);
      const name = 'django/django';
      const data = await health([name], snapshot);
      const target = (data.r0 as HealthRepo).defaultBranchRef?.target;
      const sinceMs = Date.parse(sinceOf(snapshot));
      let inWindow = 0;
      let newest: string | undefined;
      for (let page = 1; page < 20; page++) {
        const response = await fetch(`${double.url}/repos/${name}/commits?per_page=100&page=${page}`, {
          headers: { authorization: `token ${TOKEN}` },
        });
        const commits = (await response.json()) as Array<{ commit: { committer: { date: string } } }>;
        newest ??= commits[0]?.commit.committer.date;
        const dates = commits.map((commit) => Date.parse(commit.commit.committer.date));
        inWindow += dates.filter((ms) => ms >= sinceMs).length;
        if (dates.some((ms) => ms < sinceMs)) break;
      }
      expect(target?.latest.nodes[0]?.committedDate).toBe(newest);
      expect(target?.recent.totalCount).toBe(inWindow);
      expect(inWindow).toBeGreaterThan(0);
    }
  });

  it('keeps issues(states: OPEN) and pullRequests(states: OPEN) counts, and the nodes agree with them', async () => {
    const names = ['facebook/react', 'django/django', 'CyC2018/CS-Notes', 'expressjs/express'];
    const counts = names
      .map((name, i) => {
        const [owner, repo] = name.split('/');
        return `c${i}: repository(owner: "${owner}", name: "${repo}") { issues(states: OPEN) { totalCount } pullRequests(states: OPEN) { totalCount } all: issues(first: 30, orderBy: { field: CREATED_AT, direction: DESC }) { totalCount nodes { closedAt } } }`;
      })
      .join('\n');
    const answer = await post(`{ ${counts} }`);
    expect(answer.body.errors).toBeUndefined();
    names.forEach((name, i) => {
      const repo = double.getRepository(name) as DoubleRepository;
      const got = answer.body.data?.[`c${i}`] as {
        issues: { totalCount: number };
        pullRequests: { totalCount: number };
        all: { totalCount: number; nodes: Array<{ closedAt: string | null }> };
      };
      expect(got.issues.totalCount).toBe(repo.openIssues);
      expect(got.pullRequests.totalCount).toBe(repo.openPullRequests);
      expect(got.all.nodes.filter((issue) => issue.closedAt === null).length).toBeLessThanOrEqual(
        repo.openIssues,
      );
      expect(got.all.totalCount).toBeGreaterThanOrEqual(got.all.nodes.length);
    });
  });

  it('serves manifests by language as Blobs, and null where there is none', async () => {
    const names = [
      'facebook/react',
      'django/django',
      'tokio-rs/tokio',
      'gin-gonic/gin',
      'laravel/framework',
      EMPTY_REPOSITORY,
    ];
    const data = await health(names);
    const manifests = (index: number) => {
      const repo = data[`r${index}`] as HealthRepo;
      return [repo.packageJson, repo.pyprojectToml, repo.cargoToml, repo.goMod, repo.composerJson].map(
        (blob) => blob?.text ?? null,
      );
    };
    expect(manifests(0)).toEqual(['{\n  "name": "react"\n}\n', null, null, null, null]);
    expect(manifests(1)).toEqual([null, '[project]\nname = "django"\n', null, null, null]);
    expect(manifests(2)).toEqual([null, null, '[package]\nname = "tokio"\n', null, null]);
    expect(manifests(3)).toEqual([null, null, null, 'module github.com/gin-gonic/gin\n', null]);
    expect(manifests(4)).toEqual([null, null, null, null, '{\n    "name": "laravel/framework"\n}\n']);
    expect(manifests(5)).toEqual([null, null, null, null, null]);

    const blob = await post(
      '{ r: repository(owner: "facebook", name: "react") { object(expression: "HEAD:package.json") { __typename ... on Blob { byteSize text isBinary } } } }',
    );
    expect(blob.body.data?.r).toEqual({
      object: { __typename: 'Blob', byteSize: 22, text: '{\n  "name": "react"\n}\n', isBinary: false },
    });
    // Some JavaScript projects are applications: "private": true.
    const privateOnes = realRepositories(OLDER)
      .filter((repo) => repo.language === 'JavaScript' || repo.language === 'TypeScript')
      .slice(0, 120);
    const texts = await health(privateOnes.map((repo) => repo.fullName).slice(0, 60));
    expect(
      Object.values(texts).some(
        (repo) => repo && 'packageJson' in repo && repo.packageJson?.text.includes('"private": true'),
      ),
    ).toBe(true);
  });

  it('answers an error, not a guess, for what it does not model', async () => {
    const answer = await post(`{
      a: repository(owner: "facebook", name: "react") { object(expression: "HEAD:README.md") { __typename } }
      b: repository(owner: "facebook", name: "react") { issues(first: 50, orderBy: { field: CREATED_AT, direction: DESC }) { nodes { createdAt } } }
      c: repository(owner: "facebook", name: "react") { issues(first: 5) { nodes { createdAt } } }
      d: repository(owner: "facebook", name: "react") { pullRequests(first: 5, states: MERGED) { totalCount } }
    }`);
    const messages = (answer.body.errors ?? []).map((error) => `${error.path?.[0]}: ${error.message}`);
    expect(messages).toEqual([
      expect.stringContaining(
        'a: The GitHub double does not resolve Repository.object with expression "HEAD:README.md"',
      ),
      expect.stringContaining('b: The GitHub double generates only the newest 30 issues'),
      expect.stringContaining(
        'c: The GitHub double does not resolve Repository.issues nodes without orderBy',
      ),
      expect.stringContaining(
        'd: The GitHub double does not resolve Repository.pullRequests with states: [MERGED]',
      ),
    ]);
  });
});

describe('health data', () => {
  it('is consistent in every repository of both snapshots (a quarter of them sampled)', () => {
    const problems: string[] = [];
    const check = (ok: boolean, repo: DoubleRepository, what: string) => {
      if (!ok) problems.push(`${repo.fullName} (${repo.snapshot}): ${what}`);
    };
    for (const snapshot of SNAPSHOT_DATES) {
      const nowMs = snapshotNowMs(snapshot);
      getCatalogue(snapshot).repositories.forEach((repo, index) => {
        if (index % 4 !== 0 && !repo.special) return;
        const { issues, pullRequests, issueTotal, pullRequestTotal } = repositoryActivity(repo);
        check(
          issues.filter((issue) => issue.closedMs === null).length <= repo.openIssues,
          repo,
          'open issues',
        );
        check(
          pullRequests.filter((pull) => pull.closedMs === null).length <= repo.openPullRequests,
          repo,
          'open PRs',
        );
        check(issueTotal >= issues.length && pullRequestTotal >= pullRequests.length, repo, 'totals');
        let previous = Number.POSITIVE_INFINITY;
        for (const issue of issues) {
          check(issue.createdMs <= previous && issue.createdMs <= nowMs, repo, `issue ${issue.number} order`);
          previous = issue.createdMs;
          check(
            issue.closedMs === null || issue.closedMs >= issue.createdMs,
            repo,
            `issue ${issue.number} closed`,
          );
          const end = issue.closedMs ?? nowMs;
          check(
            issue.commentMs.every((ms) => ms >= issue.createdMs && ms <= end),
            repo,
            `issue ${issue.number} comments`,
          );
        }
        previous = Number.POSITIVE_INFINITY;
        for (const pull of pullRequests) {
          check(
            pull.updatedMs <= previous && pull.createdMs <= pull.updatedMs,
            repo,
            `PR ${pull.number} order`,
          );
          previous = pull.updatedMs;
          check(pull.mergedMs === null || pull.mergedMs === pull.closedMs, repo, `PR ${pull.number} merge`);
        }
      });
    }
    expect(problems).toEqual([]);
  });

  it('differs believably: active repositories have recent work, long-quiet ones none', () => {
    for (const snapshot of SNAPSHOT_DATES) {
      const nowMs = snapshotNowMs(snapshot);
      const recent = (iso: string | number | null | undefined, days: number) =>
        iso != null && ageDays(iso, snapshot) <= days;
      const repos = realRepositories(snapshot);
      const active = repos.filter(
        (repo) => repo.lastCommitAt && recent(repo.lastCommitAt, 7) && repo.stars > 20_000,
      );
      const quiet = repos.filter((repo) => repo.lastCommitAt && !recent(repo.lastCommitAt, 2 * 365));
      expect(active.length).toBeGreaterThan(100);
      expect(quiet.length).toBeGreaterThan(100);
      const share = (list: DoubleRepository[], test: (repo: DoubleRepository) => boolean) =>
        list.filter(test).length / list.length;
      const recentPull = (repo: DoubleRepository) =>
        repositoryActivity(repo).pullRequests.some((pull) => recent(pull.updatedMs, 90));
      const recentAnswer = (repo: DoubleRepository) =>
        repositoryActivity(repo).issues.some((issue) => recent(issue.commentMs[0], 90));
      const recentCommits = (repo: DoubleRepository) => commitsBetween(repo, nowMs - 90 * DAY_MS) > 0;
      expect(share(active, recentPull)).toBeGreaterThan(0.9);
      expect(share(active, recentAnswer)).toBeGreaterThan(0.8);
      expect(share(active, recentCommits)).toBe(1);
      expect(share(quiet, recentPull)).toBe(0);
      expect(share(quiet, recentAnswer)).toBe(0);
      expect(share(quiet, recentCommits)).toBe(0);
      // Some issues go unanswered, and answers take hours to days.
      const firstIssues = active.flatMap((repo) => repositoryActivity(repo).issues.slice(5));
      const unanswered =
        firstIssues.filter((issue) => issue.commentMs.length === 0).length / firstIssues.length;
      expect(unanswered).toBeGreaterThan(0.05);
      expect(unanswered).toBeLessThan(0.6);
    }
  });

  it('has a security policy in about six repositories in ten', () => {
    const repos = realRepositories(OLDER);
    const share = repos.filter(securityPolicyEnabled).length / repos.length;
    expect(share).toBeGreaterThan(0.55);
    expect(share).toBeLessThan(0.68);
  });

  it(`${FADING_REPOSITORY} is active in ${OLDER} and stale for over a year in ${NEWER}`, async () => {
    const older = await health([FADING_REPOSITORY], OLDER);
    double.setSnapshot(NEWER);
    const newer = await health([FADING_REPOSITORY], NEWER);
    const activity = (repo: HealthRepo, snapshot: SnapshotDate, days: number) => {
      const within = (iso: string | null | undefined) => iso != null && ageDays(iso, snapshot) <= days;
      return {
        commit: within(repo.defaultBranchRef?.target.latest.nodes[0]?.committedDate),
        recentCommits: (repo.defaultBranchRef?.target.recent.totalCount ?? 0) > 0,
        pull: repo.pullRequests.nodes.some((pull) => within(pull.updatedAt)),
        release: repo.releases.nodes.some((release) => within(release.publishedAt)),
        answer: repo.issues.nodes.some((issue) =>
          within(issue.comments.nodes[0]?.createdAt ?? issue.closedAt),
        ),
      };
    };
    const was = activity(older.r0 as HealthRepo, OLDER, 90);
    expect(was).toMatchObject({ commit: true, recentCommits: true, pull: true, answer: true });
    expect(activity(newer.r0 as HealthRepo, NEWER, 365)).toEqual({
      commit: false,
      recentCommits: false,
      pull: false,
      release: false,
      answer: false,
    });
    expect((newer.r0 as HealthRepo).packageJson?.text).toContain('"name": "awesome-chatgpt-prompts"');
  });

  it('is deterministic', async () => {
    const names = ['facebook/react', 'torvalds/linux', 'django/django'];
    const first = await health(names);
    double.reset();
    expect(await health(names)).toEqual(first);
  });
});
