import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  listDoubleRepositories,
  STARS_GONE_REPOSITORY,
  STARS_HIDDEN_REPOSITORY,
  STARS_UNLISTED_REPOSITORY,
  starHistoryWeeks,
} from '../../../test/github-double/index.ts';
import { signedInUser } from '../../../test/helpers/auth-factory.ts';
import { createReposTestApp, repoPath } from '../../../test/helpers/repos-app.ts';
import { buildRepositoryRow } from '../../../test/helpers/repository-row.ts';
import { leaseHistory, replaceBackfilledRows } from './history.queries.ts';
import { backfillJob, NO_TOKEN_MESSAGE } from './history.service.ts';

/**
 * The star-history backfill end to end (docs/product.md#star-history): the double's
 * `stargazers/history`, the engine's run, the metrics answer and the action. The job worker is
 * stopped so every run happens when a test says (`runJobs`, or `backfillDue` directly).
 */

const SERVER_TOKEN = 'ghp_historyServerToken01';
const PERSONAL_TOKEN = 'ghp_historyPersonalToken1';
const HISTORY_BY_NAME = 'GET /repos/{owner}/{repo}/stargazers/history';
type App = Awaited<ReturnType<typeof createReposTestApp>>;
type Member = Awaited<ReturnType<typeof signedInUser>>;

const today = () => new Date().toISOString().slice(0, 10);

async function setUp(env: Record<string, string>, doubleOptions = {}) {
  const t = await createReposTestApp(
    { HISTORY_BACKFILL: 'on', ...env },
    { secondary: false, ...doubleOptions },
    {
      historyQuietMs: 0,
      // Wide enough that no page of these tests waits for the pace (the pace tests set their own).
      githubPace: { restPerMinute: 6000 },
    },
  );
  await t.app.services.jobs.stop();
  return { t, member: await signedInUser(t.app) };
}

function helpers(t: App) {
  const call = (who: Member, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: who.headers, payload });
  return {
    call,
    async add(who: Member, fullName: string) {
      const response = await call(who, 'POST', '/repositories/', { id: fullName });
      expect(response.statusCode).toBe(201);
    },
    async metrics(who: Member, fullName: string) {
      const response = await call(who, 'GET', repoPath(fullName, '/metrics'));
      expect(response.statusCode).toBe(200);
      return response.json() as {
        metrics: { day: string; stars: number; forks: number | null; issues: number | null }[];
        history: { status: string; backfilled_at: string | null; message: string | null };
      };
    },
    /** Runs jobs until none is due within a second (a run put back for a moment is waited for). */
    async runJobs() {
      for (;;) {
        if ((await t.app.services.jobs.runDue()) > 0) continue;
        const next = await t.app.db
          .selectFrom('jobs')
          .select('run_at')
          .where('status', '=', 'pending')
          .orderBy('run_at')
          .executeTakeFirst();
        const wait = next ? Date.parse(next.run_at) - Date.now() : Number.POSITIVE_INFINITY;
        if (wait > 1000) return;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, wait) + 5));
      }
    },
    waitingRuns: async () =>
      (
        await t.app.db
          .selectFrom('jobs')
          .select('id')
          .where('kind', '=', backfillJob.name)
          .where('status', '=', 'pending')
          .execute()
      ).length,
    historyRequests: () =>
      t.github.requests.filter((request) => request.path.includes('/stargazers/history')),
  };
}

/** What the app should store: today's stars minus everything added after each day. */
function expectedCounts(fullName: string, stars: number): Map<string, number> {
  const added = new Map<string, number>();
  for (const week of starHistoryWeeksOf(fullName))
    for (const [offset, count] of week.days.entries())
      added.set(
        new Date(Date.parse(`${week.week}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10),
        count,
      );
  const expected = new Map<string, number>();
  let count = stars;
  for (const day of [...added.keys()].sort().reverse()) {
    if (day > today()) continue;
    expected.set(day, Math.max(0, count));
    count -= added.get(day) ?? 0;
  }
  return expected;
}

let weeksSource: App | undefined;
function starHistoryWeeksOf(fullName: string, from = weeksSource) {
  const repo = from?.github.getRepository(fullName);
  if (!repo) throw new Error(fullName);
  return starHistoryWeeks(repo, Date.now());
}

describe('with the server token', () => {
  let t: App;
  let member: Member;
  let h: ReturnType<typeof helpers>;

  beforeAll(async () => {
    // A sync schedule that never fires during the test, so due syncs count as more urgent.
    ({ t, member } = await setUp(
      { GITHUB_TOKEN: SERVER_TOKEN, SYNC_SCHEDULE: '0 0 1 1 *' },
      { preloadGraphqlSchema: true },
    ));
    weeksSource = t;
    h = helpers(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('backfills after an add: daily for a year, weekly before, ending at today’s stars', async () => {
    t.github.resetCounts();
    await h.add(member, 'facebook/react');
    // The add only queued the run; GitHub saw no history request yet.
    expect(await h.waitingRuns()).toBe(1);
    expect(h.historyRequests()).toHaveLength(0);
    expect((await h.metrics(member, 'facebook/react')).history.status).toBe('pending');

    await h.runJobs();

    const repo = t.github.getRepository('facebook/react');
    if (!repo) throw new Error('fixture');
    const weeks = starHistoryWeeks(repo, Date.now());
    const pages = Math.ceil(weeks.length / 100);
    expect(t.github.counts.get(HISTORY_BY_NAME)).toBe(pages);
    expect(
      h.historyRequests().every((request) => request.token === SERVER_TOKEN && request.status === 200),
    ).toBe(true);

    const { metrics, history } = await h.metrics(member, 'facebook/react');
    expect(history.status).toBe('done');
    expect(history.backfilled_at).not.toBeNull();
    const last = metrics[metrics.length - 1];
    // Today's row is the app's own (every metric), and the curve ends at its stars.
    expect(last?.day).toBe(today());
    expect(last?.forks).not.toBeNull();
    expect(last?.stars).toBe(repo.stars);
    const backfilled = metrics.filter((point) => point.forks === null);
    expect(backfilled.every((point) => point.issues === null)).toBe(true);
    const yearAgo = new Date(Date.now() - 364 * 86_400_000).toISOString().slice(0, 10);
    expect(metrics.filter((point) => point.day >= yearAgo)).toHaveLength(365);
    const older = metrics.filter((point) => point.day < yearAgo);
    expect(older.length).toBeGreaterThan(52);
    for (const [index, point] of older.entries())
      if (index > 0)
        expect(Date.parse(point.day) - Date.parse(older[index - 1]?.day ?? '')).toBe(7 * 86_400_000);
    const expected = expectedCounts('facebook/react', repo.stars);
    expect(backfilled.map((point) => point.stars)).toEqual(
      backfilled.map((point) => expected.get(point.day)),
    );
  });

  it('leaves a repository deleted while due alone: not leased, nothing written (no foreign-key failure ending the run)', async () => {
    const { id } = await t.app.db
      .insertInto('repositories')
      .values(buildRepositoryRow('deleted-while/due', 9_200_001))
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.app.db.deleteFrom('repositories').where('id', '=', id).execute();
    const now = new Date().toISOString();
    expect(await leaseHistory(t.app.db, id, { owner: 'test', now, until: now })).toBe(false);
    expect(await replaceBackfilledRows(t.app.db, id, [{ day: today(), stars: 1 }])).toBe(false);
    const left = await t.app.db
      .selectFrom('repository_history')
      .select('repository_id')
      .where('repository_id', '=', id)
      .execute();
    expect(left).toEqual([]);
  });

  it('backfills again on request: 202, the same rows, no duplicates', async () => {
    const before = await h.metrics(member, 'facebook/react');
    t.github.resetCounts();
    const response = await h.call(member, 'POST', repoPath('facebook/react', '/history/backfill'));
    expect(response.statusCode).toBe(202);
    expect(response.json()).toMatchObject({ queued: true, history: { status: 'pending' } });
    await h.runJobs();
    const after = await h.metrics(member, 'facebook/react');
    expect(after.history.status).toBe('done');
    expect(after.metrics).toEqual(before.metrics);
    expect(t.github.counts.get(HISTORY_BY_NAME)).toBeGreaterThan(0);
  });

  it('marks 404, 403 and 410 as not available; the app’s own rows carry on', async () => {
    for (const name of [STARS_UNLISTED_REPOSITORY, STARS_HIDDEN_REPOSITORY, STARS_GONE_REPOSITORY])
      await h.add(member, name);
    t.github.resetCounts();
    await h.runJobs();
    for (const [name, status] of [
      [STARS_UNLISTED_REPOSITORY, 404],
      [STARS_HIDDEN_REPOSITORY, 403],
      [STARS_GONE_REPOSITORY, 410],
    ] as const) {
      const { metrics, history } = await h.metrics(member, name);
      expect(history).toMatchObject({ status: 'unavailable' });
      expect(history.message).toContain(String(status));
      expect(metrics).toHaveLength(1);
      expect(metrics[0]?.forks).not.toBeNull();
    }
    expect(t.github.counts.get(HISTORY_BY_NAME)).toBe(3);
    // Not retried on its own: a later run asks GitHub nothing.
    await t.app.services.history.kick();
    await h.runJobs();
    expect(t.github.counts.get(HISTORY_BY_NAME)).toBe(3);
  });

  it('yields to members’ calls, to other jobs and to due syncs, then goes on', async () => {
    const names = listDoubleRepositories()
      .slice(200, 212)
      .map((repo) => repo.fullName);
    t.github.resetCounts();
    // Repositories due for the scheduled sync come first.
    await t.app.db.updateTable('repository_sync_state').set({ due_at: '2000-01-01T00:00:00.000Z' }).execute();
    const syncing = await t.app.services.history.backfillDue({
      owner: 'test',
      deadline: Date.now() + 10_000,
    });
    expect(syncing.yielded).toBe('sync');
    await t.app.db.updateTable('repository_sync_state').set({ due_at: '2100-01-01T00:00:00.000Z' }).execute();

    // An import-like batch (GraphQL reads, contributor counts queued) while the engine keeps
    // trying to backfill: every try yields, and the batch's own requests are what they would be.
    const batch = t.app.inject({
      method: 'POST',
      url: '/repositories/batch',
      headers: member.headers,
      payload: { items: names.map((id) => ({ id })) },
    });
    let finished = false;
    void batch.then(() => {
      finished = true;
    });
    const yields = new Set<string | null>();
    while (!finished) {
      const outcome = await t.app.services.history.backfillDue({
        owner: 'test',
        deadline: Date.now() + 10_000,
        quietMs: 50,
      });
      yields.add(outcome.yielded);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect((await batch).json().succeeded).toBe(12);
    expect(h.historyRequests()).toHaveLength(0);
    expect(t.github.counts.get('POST /graphql')).toBe(1);
    // Before the first row exists there is nothing to do (null); after it, every try yielded.
    expect(
      [...yields].every((reason) => reason === null || reason === 'interactive' || reason === 'jobs'),
    ).toBe(true);
    expect(yields.has('jobs') || yields.has('interactive')).toBe(true);

    // Contributor counts are queued: they come first.
    const run = await t.app.services.history.backfillDue({ owner: 'test', deadline: Date.now() + 10_000 });
    expect(run).toMatchObject({ yielded: 'jobs', done: 0 });
    expect(h.historyRequests()).toHaveLength(0);

    // A member's call just now: the run waits for quiet.
    await h.call(member, 'GET', repoPath(names[0] ?? '', '/commits/?limit=20'));
    const busy = await t.app.services.history.backfillDue({
      owner: 'test',
      deadline: Date.now() + 10_000,
      quietMs: 60_000,
    });
    expect(busy.yielded).toBe('interactive');

    await h.runJobs();
    // Every contributor count went out before the first history request.
    const keys = t.github.requests.map((request) => request.key);
    const lastCount = keys.lastIndexOf('GET /repos/{owner}/{repo}/contributors');
    const firstHistory = keys.indexOf(HISTORY_BY_NAME);
    expect(lastCount).toBeGreaterThan(0);
    expect(firstHistory).toBeGreaterThan(lastCount);
    for (const name of names) expect((await h.metrics(member, name)).history.status).toBe('done');
    const pages = names.reduce((sum, name) => sum + Math.ceil(starHistoryWeeksOf(name).length / 100), 0);
    expect(t.github.counts.get(HISTORY_BY_NAME)).toBe(pages);
  });

  it('answers 404 for a repository the member can’t see, 400 for one gone from GitHub', async () => {
    const response = await h.call(member, 'POST', repoPath('no-such/repository', '/history/backfill'));
    expect(response.statusCode).toBe(404);
    await t.app.db
      .updateTable('repositories')
      .set({ gone: 1 })
      .where('full_name', '=', 'facebook/react')
      .execute();
    const gone = await h.call(member, 'POST', repoPath('facebook/react', '/history/backfill'));
    expect(gone.statusCode).toBe(400);
    expect(gone.json().message).toMatch(/gone from GitHub/);
    await t.app.db
      .updateTable('repositories')
      .set({ gone: 0 })
      .where('full_name', '=', 'facebook/react')
      .execute();
  });
});

describe('without a server token', () => {
  let t: App;
  let member: Member;
  let withToken: Member;
  let h: ReturnType<typeof helpers>;

  beforeAll(async () => {
    ({ t, member } = await setUp({}));
    h = helpers(t);
    withToken = await signedInUser(t.app);
    const stored = await t.app.inject({
      method: 'PUT',
      url: '/auth/me/github-token',
      headers: withToken.headers,
      payload: { token: PERSONAL_TOKEN },
    });
    expect(stored.statusCode).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('never backfills anonymously: it waits for a token, and the action asks for one', async () => {
    await h.add(member, 'vuejs/core');
    t.github.resetCounts();
    await h.runJobs();
    expect(h.historyRequests()).toHaveLength(0);
    const { history } = await h.metrics(member, 'vuejs/core');
    expect(history).toEqual({ status: 'pending', backfilled_at: null, message: NO_TOKEN_MESSAGE });
    const refused = await h.call(member, 'POST', repoPath('vuejs/core', '/history/backfill'));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/needs a GitHub token/);
  });

  it('uses the personal token of the member who asks', async () => {
    const response = await h.call(withToken, 'POST', repoPath('vuejs/core', '/history/backfill'));
    expect(response.statusCode).toBe(202);
    await h.runJobs();
    expect(h.historyRequests().length).toBeGreaterThan(0);
    expect(h.historyRequests().every((request) => request.token === PERSONAL_TOKEN)).toBe(true);
    expect((await h.metrics(member, 'vuejs/core')).history.status).toBe('done');
  });

  it('limits the action per member', async () => {
    let last = 0;
    for (let i = 0; i < 11; i++)
      last = (await h.call(withToken, 'POST', repoPath('vuejs/core', '/history/backfill'))).statusCode;
    expect(last).toBe(429);
  });
});

/** The oldest of the first ranked repositories (the most pages), stored without asking GitHub. */
async function insertOldRepository(t: App, member: Member): Promise<{ name: string; pages: number }> {
  const [name, pages] = listDoubleRepositories()
    .slice(0, 40)
    .map((repo) => [repo.fullName, Math.ceil(starHistoryWeeksOf(repo.fullName, t).length / 100)] as const)
    .sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
  const user = await t.app.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', member.email.toLowerCase())
    .executeTakeFirstOrThrow();
  const repo = t.github.getRepository(name);
  if (!repo) throw new Error(name);
  const now = new Date().toISOString();
  await t.app.db
    .insertInto('repositories')
    .values({
      full_name: repo.fullName,
      github_id: repo.id,
      user_id: user.id,
      name: repo.name,
      description: repo.description,
      url: `https://github.com/${repo.fullName}`,
      license: '',
      topics: '',
      tags: '',
      notes: '',
      stars: repo.stars,
      forks: repo.forks,
      issues: repo.openIssuesCount,
      commits: repo.commitCount,
      contributors: 10,
      contributors_capped: 0,
      language: repo.language,
      archived: 0,
      private: 0,
      gone: 0,
      default_branch: 'main',
      last_commit: repo.lastCommitAt,
      last_synced: now,
      etags: '{}',
      created_at: now,
      updated_at: now,
    })
    .execute();
  return { name, pages };
}

describe('within the token’s pace and quota', () => {
  it('stops at its share of the hourly quota, deferred, not failed', async () => {
    // 20 requests an hour: the backfill spends while 75 % (15) would be left, so five pages.
    const { t, member } = await setUp({ GITHUB_TOKEN: SERVER_TOKEN }, { quota: { token: 20 } });
    const h = helpers(t);
    try {
      const { name, pages } = await insertOldRepository(t, member);
      expect(pages).toBeGreaterThan(5);
      const outcome = await t.app.services.history.backfillDue({
        owner: 'test',
        deadline: Date.now() + 10_000,
      });
      expect(outcome).toMatchObject({ yielded: 'quota', done: 0, failed: 0 });
      expect(outcome.retryAt?.getTime()).toBeGreaterThan(Date.now());
      expect(h.historyRequests()).toHaveLength(5);
      expect(t.github.quota(SERVER_TOKEN).remaining).toBe(15);
      const { history } = await h.metrics(member, name);
      expect(history.status).toBe('pending');
      // As a job it is put back for the quota's reset, its attempt refunded.
      await t.app.services.history.kick();
      await h.runJobs();
      expect(h.historyRequests()).toHaveLength(5);
      const job = await t.app.db
        .selectFrom('jobs')
        .select(['run_at', 'attempts', 'status'])
        .where('kind', '=', backfillJob.name)
        .executeTakeFirstOrThrow();
      expect(job.status).toBe('pending');
      expect(job.attempts).toBe(0);
      expect(Date.parse(job.run_at)).toBeGreaterThan(Date.now());
    } finally {
      await t.close();
    }
  });

  it('never waits for a turn: the run ends and the repository keeps its place', async () => {
    // Two REST turns a window (20 a minute): the run takes the turns free now, then stops.
    const t = await createReposTestApp(
      { GITHUB_TOKEN: SERVER_TOKEN, HISTORY_BACKFILL: 'on' },
      { secondary: false },
      { historyQuietMs: 0, githubPace: { restPerMinute: 20 } },
    );
    await t.app.services.jobs.stop();
    const h = helpers(t);
    try {
      const member = await signedInUser(t.app);
      const { pages } = await insertOldRepository(t, member);
      expect(pages).toBeGreaterThan(4);
      const outcome = await t.app.services.history.backfillDue({
        owner: 'test',
        deadline: Date.now() + 10_000,
      });
      expect(outcome).toMatchObject({ yielded: 'pace', done: 0, failed: 0 });
      // Two turns, four if a window turned over meanwhile: never all the pages.
      expect(h.historyRequests().length).toBeGreaterThanOrEqual(2);
      expect(h.historyRequests().length).toBeLessThanOrEqual(4);
      expect(outcome.retryAt?.getTime()).toBeLessThanOrEqual(Date.now() + 6000);
      const state = await t.app.db.selectFrom('repository_history').selectAll().executeTakeFirstOrThrow();
      expect(state).toMatchObject({ status: 'pending', failures: 0, leased_until: null, message: null });
    } finally {
      await t.close();
    }
  });
});
