import { afterEach, describe, expect, it } from 'vitest';
import { login, signedInUser } from '../../test/helpers/auth-factory.ts';
import { createFakeClock } from '../../test/helpers/fake-clock.ts';
import { createReposTestApp, repoPath } from '../../test/helpers/repos-app.ts';
import { runScheduledSync } from './repository-sync.ts';

const apps: Awaited<ReturnType<typeof createReposTestApp>>[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

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
  const tick = (hour: number) => ({
    holder: 'test-instance',
    runAt: new Date(Date.UTC(2026, 10, 23, hour, 17)),
    until: new Date(Date.UTC(2026, 10, 23, hour + 1, 17)),
  });
  return { t, clock, member, add, tick };
}

describe('scheduled repository sync', () => {
  it('refreshes stale repositories once per tick and adds a day to their history', async () => {
    const { t, clock, member, add, tick } = await world();
    await add('facebook/react');
    await add('vuejs/core');
    await add('octo-double/doomed-repository');
    clock.advance(21 * 3600);
    t.github.setSnapshot('2026-08-22');
    t.github.removeRepository('octo-double/doomed-repository');

    const outcome = await runScheduledSync(t.app, tick(7));
    expect(outcome).toEqual({ synced: 2, gone: 1, skipped: 0 });
    // Another instance on the same tick finds it taken.
    expect(await runScheduledSync(t.app, { ...tick(7), holder: 'other-instance' })).toBeNull();

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

    // Nothing is stale an hour later: no GitHub call at all.
    t.github.resetCounts();
    clock.advance(3600);
    expect(await runScheduledSync(t.app, tick(8))).toEqual({ synced: 0, gone: 0, skipped: 0 });
    expect(t.github.counts.total()).toBe(0);
  });

  it('uses GraphQL batches with the server token', async () => {
    const { t, clock, add, tick } = await world({ GITHUB_TOKEN: 'ghp_serverTokenForSync0001' });
    for (const id of ['facebook/react', 'vuejs/core', 'angular/angular']) await add(id);
    clock.advance(21 * 3600);
    t.github.resetCounts();
    expect(await runScheduledSync(t.app, tick(9))).toEqual({ synced: 3, gone: 0, skipped: 0 });
    expect(t.github.counts.get('POST /graphql')).toBe(1);
    expect(t.github.counts.get('GET /repos/{owner}/{repo}')).toBe(0);
  });

  it('leaves half of the anonymous quota to members', async () => {
    const { t, clock, add, tick } = await world();
    for (const id of ['facebook/react', 'vuejs/core', 'angular/angular', 'sveltejs/svelte', 'golang/go'])
      await add(id);
    // Five adds spent 20 of 60 anonymous requests; 30 must stay.
    clock.advance(21 * 3600);
    const outcome = await runScheduledSync(t.app, tick(10));
    expect(outcome?.skipped).toBeGreaterThan(0);
    expect(t.github.quota().remaining).toBeGreaterThanOrEqual(30);
  });
});
