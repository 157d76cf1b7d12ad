import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { healthResponseSchema } from '#shared/schemas/health.ts';
import { listDoubleRepositories } from '../../../test/github-double/index.ts';
import { signedInUser } from '../../../test/helpers/auth-factory.ts';
import { createReposTestApp, repoPath } from '../../../test/helpers/repos-app.ts';
import { buildHealthQuery } from '../../github/health-query.ts';

/**
 * GitHub's health query through the `health:refresh` run (docs/architecture.md#repository-health),
 * against the GitHub double: ≤ 25 repositories a query, the points GitHub's formula charges, and
 * every signal the query gives measured from its answer.
 */

const SERVER_TOKEN = 'ghp_healthRefreshServer0001';
let t: Awaited<ReturnType<typeof createReposTestApp>>;
type Member = Awaited<ReturnType<typeof signedInUser>>;
let member: Member;
const NAMES = listDoubleRepositories()
  .filter((repository) => !repository.special)
  .slice(0, 30)
  .map((repository) => repository.fullName);

beforeAll(async () => {
  // A run here reads ~3 REST lists a repository (contributors, its own advisories, its packages'):
  // at GitHub's 800 a minute the pace would end the first run early, which is health-pacing's
  // concern (its own tests), not this one's: the pace is wide enough for a run of 30.
  t = await createReposTestApp(
    { GITHUB_TOKEN: SERVER_TOKEN, SYNC_SCHEDULE: 'off' },
    { preloadGraphqlSchema: true },
    { githubPace: { restPerMinute: 4000 } },
  );
  member = await signedInUser(t.app);
  const added = await t.app.inject({
    method: 'POST',
    url: '/repositories/batch',
    headers: member.headers,
    payload: { items: NAMES.map((id) => ({ id })) },
  });
  expect(added.statusCode, added.body).toBeLessThan(300);
});
afterAll(async () => {
  await t?.close();
});

/**
 * Runs as the job queue chains them: a run that yields (GitHub's pace: it never waits) is run
 * again at its `retryAt`. The repositories read in all.
 */
async function runUntilDone(): Promise<number> {
  let read = 0;
  for (let runs = 0; runs < 20; runs++) {
    const outcome = await t.app.services.health.refreshDue({ deadline: Date.now() + 60_000 });
    read += outcome.read;
    if (!outcome.retryAt) return read;
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, (outcome.retryAt?.getTime() ?? 0) - Date.now())),
    );
  }
  throw new Error('the health runs did not finish');
}

describe('a health run with a token', () => {
  it('reads 30 repositories in two queries (25 + 5) and measures every signal the query gives', async () => {
    t.github.resetCounts();
    const outcome = await t.app.services.health.refreshDue({ deadline: Date.now() + 60_000 });
    expect(outcome).toMatchObject({ read: NAMES.length, failed: 0, storedOnly: 0 });
    expect(t.github.counts.get('POST /graphql')).toBe(2);
    // The contributor share is REST: one list of the top 100 a repository (the counts the
    // import's background jobs ask for are lists of one).
    const shareLists = () =>
      t.github.requests.filter((request) => request.path.includes('/contributors?per_page=100'));
    expect(shareLists()).toHaveLength(NAMES.length);
    const queries = t.github.requests.filter((request) => request.key === 'POST /graphql');
    expect(queries.map((request) => request.aliases)).toEqual([25, 5]);

    const health = healthResponseSchema.parse(
      (
        await t.app.inject({
          method: 'GET',
          url: repoPath(NAMES[0] as string, '/health'),
          headers: member.headers,
        })
      ).json(),
    ).health;
    const read = health.signals.filter((signal) => signal.value !== null).map((signal) => signal.key);
    for (const key of [
      'archived',
      'days_since_last_commit',
      'commits_90d',
      'pull_requests_merged_90d',
      'top_contributor_share',
      'license',
      'security_policy',
    ])
      expect(read, key).toContain(key);
    expect(health.grade).not.toBe('unknown');
    expect(health.score).toEqual(expect.any(Number));

    const share = health.signals.find((signal) => signal.key === 'top_contributor_share')?.value as number;
    expect(share).toBeGreaterThan(0);
    expect(share).toBeLessThanOrEqual(1);

    // Fresh for a week: a second run asks GitHub nothing.
    t.github.resetCounts();
    expect(await t.app.services.health.refreshDue({ deadline: Date.now() + 60_000 })).toMatchObject({
      read: 0,
    });
    expect(t.github.counts.get('POST /graphql') ?? 0).toBe(0);

    // A week later the contributors lists are asked again with their ETags: unchanged, free.
    await t.app.db
      .updateTable('repository_health')
      .set({ due_at: new Date(0).toISOString() })
      .execute();
    t.github.resetCounts();
    // (GitHub's pace may end a run before every list is read: those are read again on the next.)
    expect(await runUntilDone()).toBeGreaterThanOrEqual(NAMES.length);
    const asked = new Set(shareLists().map((request) => request.path));
    expect(asked.size).toBe(NAMES.length);
    expect(new Set(shareLists().map((request) => request.status))).toEqual(new Set([304]));
  });

  it('a repository whose contributors list GitHub’s pace kept for later gets that list alone next', async () => {
    const name = NAMES[3] as string;
    const { id } = await t.app.db
      .selectFrom('repositories')
      .select('id')
      .where('full_name', '=', name)
      .executeTakeFirstOrThrow();
    const stored = await t.app.db
      .selectFrom('repository_health')
      .selectAll()
      .where('repository_id', '=', id)
      .executeTakeFirstOrThrow();
    // As a run leaves it when the pace stopped the list: the query read an hour ago, the list
    // not (it was last measured a week before), due when the pace frees.
    const readAt = new Date(Date.now() - 3600_000).toISOString();
    const inputs = JSON.parse(stored.inputs);
    inputs.topContributorShare.at = new Date(Date.now() - 8 * 86_400_000).toISOString();
    await t.app.db
      .updateTable('repository_health')
      .set({ github_read_at: readAt, inputs: JSON.stringify(inputs), due_at: new Date(0).toISOString() })
      .where('repository_id', '=', id)
      .execute();

    t.github.resetCounts();
    expect(await t.app.services.health.refreshDue({ deadline: Date.now() + 60_000 })).toMatchObject({
      read: 1,
      retryAt: null,
    });
    expect(t.github.counts.get('POST /graphql') ?? 0).toBe(0);
    const lists = t.github.requests.filter((request) => request.path.includes('/contributors?per_page=100'));
    expect(lists.map((request) => request.path)).toEqual([expect.stringContaining(`/repos/${name}/`)]);
    const after = await t.app.db
      .selectFrom('repository_health')
      .selectAll()
      .where('repository_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(after.github_read_at).toBe(readAt);
    expect(JSON.parse(after.inputs).topContributorShare.at > readAt).toBe(true);
    expect(Date.parse(after.due_at) - Date.now()).toBeGreaterThan(6 * 86_400_000);
  });

  it('a member’s “Update from GitHub” reads the health signals too, at once', async () => {
    const name = NAMES[2] as string;
    const readAt = async () =>
      (
        await t.app.db
          .selectFrom('repository_health')
          .innerJoin('repositories', 'repositories.id', 'repository_health.repository_id')
          .select('repository_health.github_read_at')
          .where('repositories.full_name', '=', name)
          .executeTakeFirstOrThrow()
      ).github_read_at;
    // Read two hours ago, and GitHub has news since (the double's later snapshot).
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000).toISOString();
    await t.app.db.updateTable('repository_health').set({ github_read_at: twoHoursAgo }).execute();
    t.github.setSnapshot('2026-08-22');
    const before = await readAt();
    t.github.resetCounts();
    const updated = await t.app.inject({
      method: 'PUT',
      url: repoPath(name),
      headers: { ...member.headers, 'content-type': 'application/json' },
      payload: '',
    });
    expect(updated.statusCode, updated.body).toBe(200);
    const graphql = t.github.requests.filter((request) => request.key === 'POST /graphql');
    expect(graphql.map((request) => request.aliases)).toEqual([1]);
    expect(await readAt()).not.toBe(before);

    // Again at once: read within the hour, so the update alone.
    t.github.setSnapshot('2025-08-01');
    t.github.resetCounts();
    const again = await t.app.inject({
      method: 'PUT',
      url: repoPath(name),
      headers: { ...member.headers, 'content-type': 'application/json' },
      payload: '',
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(t.github.counts.get('POST /graphql') ?? 0).toBe(0);
  });

  it('the query is one GraphQL document GitHub’s schema accepts for any repository name', () => {
    const query = buildHealthQuery(['a/b', 'quote"s/na\\me']);
    expect(query).toContain('r1: repository(owner: "quote\\"s", name: "na\\\\me")');
    expect(query.match(/\.\.\.HealthFields/g)).toHaveLength(2);
  });
});
