import { afterEach, describe, expect, it, vi } from 'vitest';
import { listDoubleRepositories } from '../../../test/github-double/index.ts';
import { login, signedInUser } from '../../../test/helpers/auth-factory.ts';
import { createFakeClock } from '../../../test/helpers/fake-clock.ts';
import { createReposTestApp, repoPath } from '../../../test/helpers/repos-app.ts';
import { countPendingJobs } from '../../jobs/job-queue.queries.ts';
import { syncDueJob } from './sync.service.ts';
import { leaseDue } from './sync-state.queries.ts';

const apps: Awaited<ReturnType<typeof createReposTestApp>>[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

const DAY_S = 24 * 3600;

async function world(env: Record<string, string> = {}) {
  const clock = createFakeClock(new Date('2026-11-22T10:00:00Z'));
  const t = await createReposTestApp(env, {}, { clock });
  apps.push(t);
  const member = await signedInUser(t.app);
  const add = async (id: string) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/repositories/',
      headers: member.headers,
      payload: { id },
    });
    expect(response.statusCode).toBe(201);
  };
  let minute = 0;
  /** The next minute's tick, as croner computes it on every instance. */
  const tick = (holder = 'test-instance') => {
    const runAt = new Date(clock.now().getTime() + minute * 60_000);
    return { holder, runAt, until: new Date(runAt.getTime() + 60_000) };
  };
  const nextMinute = () => {
    minute += 1;
  };
  /** Waits until the app's job worker has finished every run of the engine. */
  const settled = () =>
    vi.waitFor(async () => expect(await countPendingJobs(t.app.db, syncDueJob.name)).toBe(0), {
      timeout: 10_000,
      interval: 20,
    });
  /** A tick's run, as the job queue's worker does it. */
  const run = async () => {
    nextMinute();
    const job = await t.app.services.registry.tick(syncDueJob.name, tick());
    expect(job).toBeGreaterThan(0);
    await settled();
  };
  const state = (fullName: string) =>
    t.app.db
      .selectFrom('repository_sync_state as s')
      .innerJoin('repositories as r', 'r.id', 's.repository_id')
      .select(['s.due_at', 's.failures', 's.last_result', 's.last_error', 's.leased_until', 'r.id'])
      .where('r.full_name', '=', fullName)
      .executeTakeFirstOrThrow();
  return { t, clock, member, add, tick, nextMinute, run, settled, state };
}

describe('the sync engine', () => {
  it('syncs repositories when they fall due, one run per tick, and adds a day to their history', async () => {
    const { t, clock, member, add, tick, nextMinute, run, settled, state } = await world();
    await add('facebook/react');
    await add('vuejs/core');
    await add('octo-double/doomed-repository');
    // Added now: due a sync interval (24 h) later, not before.
    expect((await state('facebook/react')).due_at).toBe('2026-11-23T10:00:00.000Z');
    t.github.resetCounts();
    await run();
    expect(t.github.counts.total()).toBe(0);

    clock.advance(DAY_S + 60);
    t.github.setSnapshot('2026-08-22');
    t.github.removeRepository('octo-double/doomed-repository');
    nextMinute();
    const job = await t.app.services.registry.tick(syncDueJob.name, tick());
    expect(job).toBeGreaterThan(0);
    // Another instance on the same tick finds it taken; a later tick finds the run pending.
    expect(await t.app.services.registry.tick(syncDueJob.name, tick('other-instance'))).toBeNull();
    nextMinute();
    expect(
      await t.app.services.registry.tick(syncDueJob.name, tick('other-instance')),
    ).toBeGreaterThanOrEqual(0);
    await settled();

    expect(await state('facebook/react')).toMatchObject({
      last_result: 'ok',
      failures: 0,
      leased_until: null,
      due_at: new Date(clock.now().getTime() + DAY_S * 1000).toISOString(),
    });
    expect((await state('octo-double/doomed-repository')).last_result).toBe('gone');

    // The fake clock moved a day: sign in again.
    const session = await login(t.app, { email_or_username: member.email, password: member.password });
    const headers = { authorization: `Bearer ${session.access_token}` };
    const react = (await t.app.inject({ method: 'GET', url: repoPath('facebook/react'), headers })).json()
      .repository;
    expect(react.stars).toBe(t.github.getRepository('facebook/react')?.stars);
    const metrics = (
      await t.app.inject({ method: 'GET', url: repoPath('facebook/react', '/metrics'), headers })
    ).json().metrics;
    expect(metrics.map((point: { day: string }) => point.day)).toEqual(['2026-11-22', '2026-11-23']);
    const doomed = (
      await t.app.inject({ method: 'GET', url: repoPath('octo-double/doomed-repository'), headers })
    ).json().repository;
    expect(doomed.gone).toBe(true);

    // Nothing is due an hour later: no GitHub call at all.
    t.github.resetCounts();
    clock.advance(3600);
    await run();
    expect(t.github.counts.total()).toBe(0);
  });

  it('reads due repositories 25 to a GraphQL query with the server token, and recounts contributors only after new commits', async () => {
    const { t, clock, add, run } = await world({ GITHUB_TOKEN: 'ghp_serverTokenForSync0001' });
    for (const id of ['facebook/react', 'vuejs/core', 'angular/angular']) await add(id);
    clock.advance(DAY_S + 60);
    t.github.resetCounts();
    await run();
    // Unchanged on GitHub: one query, no REST call at all.
    expect(t.github.counts.get('POST /graphql')).toBe(1);
    expect(t.github.counts.total()).toBe(1);

    clock.advance(DAY_S + 60);
    t.github.setSnapshot('2026-08-22');
    t.github.resetCounts();
    await run();
    // New commits in two of them (react's history is the same in both snapshots): their
    // contributor counts are asked again, conditionally; react's is not asked at all.
    await vi.waitFor(() => expect(t.github.counts.get('GET /repos/{owner}/{repo}/contributors')).toBe(2), {
      timeout: 10_000,
      interval: 20,
    });
    expect(t.github.counts.get('POST /graphql')).toBe(1);
    expect(t.github.counts.get('GET /repos/{owner}/{repo}')).toBe(0);
    const vue = await t.app.db
      .selectFrom('repositories')
      .select(['stars', 'contributors', 'contributors_pending'])
      .where('full_name', '=', 'vuejs/core')
      .executeTakeFirstOrThrow();
    expect(vue).toEqual({
      stars: t.github.getRepository('vuejs/core')?.stars,
      contributors: listDoubleRepositories({ snapshot: '2026-08-22' }).find(
        (repository) => repository.fullName === 'vuejs/core',
      )?.contributors,
      contributors_pending: 0,
    });
  });

  it('follows a rename met during a scheduled sync', async () => {
    const { t, clock, add, run, state } = await world({ GITHUB_TOKEN: 'ghp_serverTokenForSync0001' });
    await add('sveltejs/svelte');
    t.github.renameRepository('sveltejs/svelte', 'svelte-org/svelte-renamed');
    clock.advance(DAY_S + 60);
    await run();
    expect((await state('svelte-org/svelte-renamed')).last_result).toBe('ok');
    const aliases = await t.app.db.selectFrom('repository_aliases').selectAll().execute();
    expect(JSON.stringify(aliases).toLowerCase()).toContain('sveltejs/svelte');
  });

  it('leaves half of the anonymous quota to members, and hands the rest back due at the reset', async () => {
    const { t, clock, add, run } = await world();
    const ids = ['facebook/react', 'vuejs/core', 'angular/angular', 'sveltejs/svelte', 'golang/go'];
    for (const id of ids) await add(id);
    // Five adds spent 20 of 60 anonymous requests; 30 must stay.
    clock.advance(DAY_S + 60);
    await run();
    expect(t.github.quota().remaining).toBeGreaterThanOrEqual(30);
    const states = await t.app.db
      .selectFrom('repository_sync_state')
      .select(['due_at', 'last_result', 'failures', 'leased_until'])
      .execute();
    const deferred = states.filter((row) => row.last_result === null);
    expect(deferred.length).toBeGreaterThan(0);
    // Deferred, not failed: no failure counted, no lease held, due when the quota resets.
    for (const row of deferred) {
      expect(row).toMatchObject({ failures: 0, leased_until: null });
      expect(Date.parse(row.due_at)).toBeGreaterThan(clock.now().getTime());
    }
  });

  it('backs off a repository that keeps failing', async () => {
    const { t, clock, add, run, state } = await world();
    await add('facebook/react');
    clock.advance(DAY_S + 60);
    t.github.inject.serverErrors(50, 500);
    await run();
    const first = await state('facebook/react');
    expect(first).toMatchObject({ failures: 1, last_result: 'failed', leased_until: null });
    expect(Date.parse(first.due_at) - clock.now().getTime()).toBe(15 * 60_000);

    clock.advance(15 * 60 + 60);
    await run();
    const second = await state('facebook/react');
    expect(second.failures).toBe(2);
    expect(Date.parse(second.due_at) - clock.now().getTime()).toBe(30 * 60_000);

    // The admin's overview names it, with the anonymous quota as GitHub last answered.
    const admin = await signedInUser(t.app, { is_admin: true });
    const overview = await t.app.inject({ method: 'GET', url: '/auth/admin/sync', headers: admin.headers });
    expect(overview.statusCode).toBe(200);
    expect(overview.json()).toMatchObject({
      queued: 0,
      running: 0,
      next_run_at: null,
      interval_hours: 24,
      tokens: [{ owner: 'anonymous', last_four: null, limit: 60 }],
      recent_errors: [{ full_name: 'facebook/react', failures: 2, next_due_at: second.due_at }],
    });

    t.github.inject.clear();
    clock.advance(30 * 60 + 60);
    await run();
    expect(await state('facebook/react')).toMatchObject({ failures: 0, last_result: 'ok', last_error: null });
  });

  it('leases each due repository to one instance; a crashed instance’s rows are taken once its lease runs out', async () => {
    const { t, clock, add, state } = await world();
    const ids = ['facebook/react', 'vuejs/core', 'angular/angular', 'sveltejs/svelte'];
    for (const id of ids) await add(id);
    clock.advance(DAY_S + 60);
    const lease = (owner: string, limit: number) => {
      const now = clock.now();
      return leaseDue(t.app.db, {
        owner,
        now,
        until: new Date(now.getTime() + t.config.syncLeaseMs),
        limit,
        private: false,
      });
    };
    const [a, b] = await Promise.all([lease('instance-a', 2), lease('instance-b', 3)]);
    const taken = [...a, ...b].map((row) => row.full_name).sort();
    expect(taken).toEqual([...ids].sort());
    expect(await lease('instance-c', 10)).toEqual([]);

    // instance-a dies holding its rows: they stay due, and return once the lease runs out.
    clock.advance(t.config.syncLeaseMs / 1000 + 1);
    const retaken = await lease('instance-c', 10);
    expect(retaken.map((row) => row.full_name).sort()).toEqual(taken);
    expect((await state(ids[0] ?? '')).leased_until).not.toBeNull();
  });
});
