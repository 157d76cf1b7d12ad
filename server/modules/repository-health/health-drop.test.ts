import { afterAll, beforeAll, expect, it } from 'vitest';
import { healthResponseSchema } from '#shared/schemas/health.ts';
import { FADING_REPOSITORY } from '../../../test/github-double/index.ts';
import { signedInUser } from '../../../test/helpers/auth-factory.ts';
import { createFakeClock } from '../../../test/helpers/fake-clock.ts';
import { createReposTestApp, repoPath, syncEverythingNow } from '../../../test/helpers/repos-app.ts';

/**
 * A library the team adopted stops being maintained (issue 24): the GitHub double's fading
 * repository is active in its 2025 snapshot and quiet in its 2026 one. Its health, read by
 * GitHub's health query a year apart, falls, and that is one `health_dropped` event.
 */

const clock = createFakeClock(new Date('2025-08-02T00:00:00.000Z'));
const DAY_S = 24 * 3600;
let t: Awaited<ReturnType<typeof createReposTestApp>>;
let member: Awaited<ReturnType<typeof signedInUser>>;

beforeAll(async () => {
  t = await createReposTestApp(
    { GITHUB_TOKEN: 'ghp_healthDropServerToken01', SYNC_SCHEDULE: 'off' },
    { preloadGraphqlSchema: true },
    { clock },
  );
  member = await signedInUser(t.app);
  const added = await t.app.inject({
    method: 'POST',
    url: '/repositories/',
    headers: member.headers,
    payload: { id: FADING_REPOSITORY },
  });
  expect(added.statusCode, added.body).toBe(201);
});
afterAll(async () => {
  await t?.close();
});

async function health() {
  const response = await t.app.inject({
    method: 'GET',
    url: repoPath(FADING_REPOSITORY, '/health'),
    headers: member.headers,
  });
  return healthResponseSchema.parse(response.json()).health;
}
const run = () => t.app.services.health.refreshDue({ deadline: Date.now() + 60_000 });
const signalValue = (assessed: Awaited<ReturnType<typeof health>>, key: string) =>
  assessed.signals.find((signal) => signal.key === key)?.value;

it('active, then a year without commits, pull requests or answers: the grade falls, once', async () => {
  expect(await run()).toMatchObject({ read: 1, failed: 0 });
  const active = await health();
  expect(signalValue(active, 'commits_90d')).toBeGreaterThan(0);
  expect(signalValue(active, 'days_since_last_commit')).toBeLessThan(30);
  expect(['healthy', 'watch']).toContain(active.grade);

  clock.advance(387 * DAY_S); // 2026-08-24
  t.github.setSnapshot('2026-08-22');
  await syncEverythingNow(t.app);
  member = await signedInUser(t.app); // a year later: a new session
  // Due again after a week (or at once after a new commit): a week has long passed.
  expect(await run()).toMatchObject({ read: 1, failed: 0 });
  const quiet = await health();
  expect(signalValue(quiet, 'commits_90d')).toBe(0);
  expect(signalValue(quiet, 'pull_requests_merged_90d')).toBe(0);
  expect(signalValue(quiet, 'days_since_last_commit')).toBeGreaterThan(365);
  expect(quiet.grade).toBe('at_risk');
  expect(quiet.score).toBeLessThan(active.score ?? 0);

  // Each fall is an event: healthy → watch (the sync saw the old last commit) → at risk (the query).
  const drops = async () =>
    (
      await t.app.db
        .selectFrom('repository_events')
        .select('data')
        .where('type', '=', 'health_dropped')
        .orderBy('id')
        .execute()
    ).map((event) => JSON.parse(event.data) as { from: string; to: string; score: number | null });
  const fallen = await drops();
  expect(fallen.length).toBeGreaterThanOrEqual(1);
  expect(fallen[0]?.from).toBe(active.grade);
  expect(fallen.at(-1)).toEqual({ from: fallen.at(-1)?.from, to: 'at_risk', score: quiet.score });
  // Still at risk a week later: nothing new.
  clock.advance(8 * DAY_S);
  await run();
  expect(await drops()).toEqual(fallen);
});
