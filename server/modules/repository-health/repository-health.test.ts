import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { healthResponseSchema } from '#shared/schemas/health.ts';
import { PRIVATE_REPOSITORY } from '../../../test/github-double/index.ts';
import { signedInUser } from '../../../test/helpers/auth-factory.ts';
import { createReposTestApp, repoPath } from '../../../test/helpers/repos-app.ts';
import { isFinished } from './health.queries.ts';
import { HEALTH_INTERVAL_MS } from './repository-health.service.ts';

/**
 * Repository health through the API (docs/product.md#repository-health), on both databases:
 * assessed from stored data on add, GitHub's health query with a token, the override, and
 * visibility of a private repository's health.
 */

const OWNER_TOKEN = 'ghp_healthOwnerReadsPrivate01';
let t: Awaited<ReturnType<typeof createReposTestApp>>;
type Member = Awaited<ReturnType<typeof signedInUser>>;
let ada: Member;
let bob: Member;

beforeAll(async () => {
  t = await createReposTestApp({ SYNC_SCHEDULE: 'off' }, { preloadGraphqlSchema: true });
  ada = await signedInUser(t.app);
  bob = await signedInUser(t.app);
  t.github.grantPrivateAccess(OWNER_TOKEN);
  expect((await call(ada, 'PUT', '/auth/me/github-token', { token: OWNER_TOKEN })).statusCode).toBe(200);
  for (const id of ['facebook/react', PRIVATE_REPOSITORY])
    expect((await call(ada, 'POST', '/repositories/', { id })).statusCode).toBe(201);
  // Added by a member without a token, on a server without one: nothing can read its health.
  expect((await call(bob, 'POST', '/repositories/', { id: 'vuejs/core' })).statusCode).toBe(201);
});
afterAll(async () => {
  await t?.close();
});

const call = (who: Member, method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: who.headers, payload });

async function healthOf(who: Member, id: string) {
  const response = await call(who, 'GET', repoPath(id, '/health'));
  expect(response.statusCode, response.body).toBe(200);
  return healthResponseSchema.parse(response.json()).health;
}
const signal = (health: Awaited<ReturnType<typeof healthOf>>, key: string) =>
  health.signals.find((entry) => entry.key === key);

describe('assessed from stored data', () => {
  it('on add: the row’s signals known, what only the health query gives unknown, due at once', async () => {
    const health = await healthOf(bob, 'facebook/react');
    expect(health.formula_version).toBe(1);
    expect(health.computed_at).not.toBeNull();
    const license = t.github.getRepository('facebook/react')?.license?.spdxId;
    expect(license).toBeTruthy();
    expect(signal(health, 'license')).toMatchObject({ value: license, points: expect.any(Number) });
    expect(signal(health, 'days_since_last_commit')?.value).toEqual(expect.any(Number));
    for (const key of ['commits_90d', 'issue_response_days', 'pull_requests_merged_90d', 'security_policy'])
      expect(signal(health, key), key).toMatchObject({ value: null, points: null });
    const row = await t.app.db
      .selectFrom('repository_health')
      .innerJoin('repositories', 'repositories.id', 'repository_health.repository_id')
      .select(['repository_health.due_at', 'repository_health.github_read_at'])
      .where('repositories.full_name', '=', 'facebook/react')
      .executeTakeFirstOrThrow();
    expect(row.github_read_at).toBeNull();
    expect(Date.parse(row.due_at)).toBeLessThanOrEqual(Date.now());
  });

  it('a run without any token assesses from stored data alone and is due again a week later', async () => {
    const outcome = await t.app.services.health.refreshDue({ deadline: Date.now() + 30_000 });
    expect(outcome.storedOnly).toBe(1);
    const due = await t.app.db
      .selectFrom('repository_health')
      .innerJoin('repositories', 'repositories.id', 'repository_health.repository_id')
      .select('repository_health.due_at')
      .where('repositories.full_name', '=', 'vuejs/core')
      .executeTakeFirstOrThrow();
    expect(Date.parse(due.due_at) - Date.now()).toBeGreaterThan(HEALTH_INTERVAL_MS - 60_000);
  });
});

describe('the override', () => {
  it('needs a reason, shows who set it, counts activity as met, and comes off', async () => {
    const empty = await call(bob, 'PUT', repoPath('facebook/react', '/health/override'), { reason: '  ' });
    expect(empty.statusCode).toBe(400);
    const set = await call(bob, 'PUT', repoPath('facebook/react', '/health/override'), {
      reason: 'Finished: the API is stable',
    });
    expect(set.statusCode, set.body).toBe(200);
    const health = healthResponseSchema.parse(set.json()).health;
    expect(health.override).toMatchObject({ reason: 'Finished: the API is stable', set_by: bob.username });
    expect(signal(health, 'days_since_last_commit')).toMatchObject({
      points: 15,
      note: 'Counted as met: the team marked this repository finished.',
    });
    expect((await healthOf(ada, 'facebook/react')).override?.set_by).toBe(bob.username);

    const cleared = await call(bob, 'DELETE', repoPath('facebook/react', '/health/override'));
    expect(cleared.statusCode).toBe(200);
    expect(healthResponseSchema.parse(cleared.json()).health.override).toBeNull();
  });
});

describe('a falling grade', () => {
  it('is one health_dropped event in Activity, not repeated while the grade stays', async () => {
    const { id } = await t.app.db
      .selectFrom('repositories')
      .select('id')
      .where('full_name', '=', 'facebook/react')
      .executeTakeFirstOrThrow();
    // What an earlier health query said: nothing happening any more.
    const at = new Date().toISOString();
    const quiet = {
      commits90d: { value: 0, at },
      issueResponses: { value: [90], at },
      pullRequestsMerged90d: { value: 0, at },
      securityPolicy: { value: false, at },
      releaseDates: { value: [], at },
      topContributorShare: { value: null, at: null },
      openAdvisories: { value: null, at: null },
    };
    await t.app.db
      .updateTable('repository_health')
      .set({ grade: 'healthy', inputs: JSON.stringify(quiet) })
      .where('repository_id', '=', id)
      .execute();
    const events = () =>
      t.app.db
        .selectFrom('repository_events')
        .select(['type', 'data'])
        .where('repository_id', '=', id)
        .where('type', '=', 'health_dropped')
        .execute();
    // Earlier falls (its first health query) are not this test's.
    const earlier = (await events()).length;
    // Assessed again (removing an override does that), with a last commit a year and more ago.
    await t.app.db
      .updateTable('repositories')
      .set({ last_commit: '2024-01-01T00:00:00Z' })
      .where('id', '=', id)
      .execute();
    const health = healthResponseSchema.parse(
      (await call(bob, 'DELETE', repoPath('facebook/react', '/health/override'))).json(),
    ).health;
    expect(health.grade).toBe('at_risk');
    expect((await events()).slice(earlier)).toEqual([
      {
        type: 'health_dropped',
        data: JSON.stringify({ from: 'healthy', to: 'at_risk', score: health.score }),
      },
    ]);
    await call(bob, 'DELETE', repoPath('facebook/react', '/health/override'));
    expect(await events()).toHaveLength(earlier + 1);
    const feed = (await call(bob, 'GET', '/activity?type=health_dropped')).json();
    expect(feed.events).toHaveLength(earlier + 1);
    expect(feed.events[0]).toMatchObject({
      type: 'health_dropped',
      data: { from: 'healthy', to: 'at_risk' },
    });
  });
});

describe('in the list', () => {
  it('rows carry score and grade; the list sorts by health and filters by grade; the export has both', async () => {
    // After the falling grade above, facebook/react is at risk; vuejs/core is marked finished.
    expect(
      (await call(bob, 'PUT', repoPath('vuejs/core', '/health/override'), { reason: 'Done' })).statusCode,
    ).toBe(200);
    const react = await healthOf(bob, 'facebook/react');
    const vue = await healthOf(bob, 'vuejs/core');
    // What the activity module asks before reporting a repository stale.
    const idOf = async (name: string) =>
      (
        await t.app.db
          .selectFrom('repositories')
          .select('id')
          .where('full_name', '=', name)
          .executeTakeFirstOrThrow()
      ).id;
    expect(await isFinished(t.app.db, await idOf('vuejs/core'))).toBe(true);
    expect(await isFinished(t.app.db, await idOf('facebook/react'))).toBe(false);
    expect(react.grade).toBe('at_risk');
    expect(vue.score).toBeGreaterThan(react.score ?? 0);

    const list = async (query: string) => {
      const response = await call(bob, 'GET', `/repositories/?${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json().repositories as {
        id: string;
        health: { score: number | null; grade: string };
      }[];
    };
    const rows = await list('sort=health&order=desc');
    expect(rows.map((row) => row.id)).toEqual(['vuejs/core', 'facebook/react']);
    expect(rows.map((row) => row.health)).toEqual([
      { score: vue.score, grade: vue.grade },
      { score: react.score, grade: 'at_risk' },
    ]);
    expect((await list('health=at_risk')).map((row) => row.id)).toEqual(['facebook/react']);
    expect((await list(`health=${vue.grade},watch`)).map((row) => row.id)).toEqual(['vuejs/core']);
    expect(await list('health=unknown')).toEqual([]);

    const bad = await call(bob, 'GET', '/repositories/?health=sick');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain(
      'health takes one or more of healthy, watch, at_risk, archived, unknown',
    );

    // Kept daily with the metrics: today's row has the score of the latest assessment.
    const metrics = (await call(bob, 'GET', repoPath('facebook/react', '/metrics'))).json().metrics;
    expect(metrics.at(-1)).toMatchObject({
      day: new Date().toISOString().slice(0, 10),
      health_score: react.score,
    });

    const csv = (await call(bob, 'GET', '/repositories/export?health=at_risk')).body.split('\r\n');
    expect(csv[0]).toContain(',health_score,health_grade,');
    expect(csv[1]).toContain(`,${react.score},at_risk,`);
  });
});

describe('a new formula version', () => {
  it('scores every repository again from its stored inputs, without asking GitHub', async () => {
    const before = await healthOf(bob, 'facebook/react');
    await t.app.db.updateTable('repository_health').set({ formula_version: 0, signals: '[]' }).execute();
    // The list's copy of the score is brought along where it differs.
    await t.app.db.updateTable('repositories').set({ health_score: null }).execute();
    expect(await t.app.services.health.hasOutdated()).toBe(true);
    t.github.resetCounts();
    const outcome = await t.app.services.health.rescoreOutdated({ deadline: Date.now() + 30_000 });
    expect(outcome).toEqual({ rescored: 3, done: true });
    expect(t.github.counts.total()).toBe(0);
    expect(await t.app.services.health.hasOutdated()).toBe(false);
    const after = await healthOf(bob, 'facebook/react');
    expect(after).toMatchObject({ formula_version: 1, score: before.score, grade: before.grade });
    expect(after.signals).toHaveLength(11);
    const rows = (await call(bob, 'GET', '/repositories/?sort=health')).json().repositories;
    expect(rows.find((row: { id: string }) => row.id === 'facebook/react').health).toEqual({
      score: before.score,
      grade: before.grade,
    });
  });
});

describe('visibility', () => {
  it('a private repository’s health answers only those who may see it', async () => {
    expect((await healthOf(ada, PRIVATE_REPOSITORY)).grade).toEqual(expect.any(String));
    for (const [method, payload] of [['GET'], ['PUT', { reason: 'x' }], ['DELETE']] as const) {
      const response = await call(
        bob,
        method,
        repoPath(PRIVATE_REPOSITORY, method === 'GET' ? '/health' : '/health/override'),
        payload,
      );
      expect(response.statusCode, method).toBe(404);
    }
    expect(
      (await t.app.inject({ method: 'GET', url: repoPath('facebook/react', '/health') })).statusCode,
    ).toBe(401);
  });
});
