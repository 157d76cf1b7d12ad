import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser } from '../../../test/helpers/auth-factory.ts';
import { createFakeClock } from '../../../test/helpers/fake-clock.ts';
import { createReposTestApp, repoPath, syncEverythingNow } from '../../../test/helpers/repos-app.ts';

/**
 * Every event type the sync engine detects, through the real engine against the GitHub double
 * (docs/product.md#activity): the double's two ranking snapshots a year apart are the two
 * states, steered with `setSnapshot`, renames and removals; a fake clock moves time for
 * staleness (STALE_AFTER_DAYS is 30 here). Licence changes, which the double's data never has,
 * are covered by the detector's unit tests.
 */
const clock = createFakeClock(new Date('2025-08-02T00:00:00.000Z'));
let t: Awaited<ReturnType<typeof createReposTestApp>>;
const ids = new Map<string, number>();

const NAMES = [
  'CyC2018/CS-Notes', // archived in the second snapshot; quiet since 2024 when added
  'discord/manifold', // unarchived, with a new commit
  'vinta/awesome-python', // new description, a topic removed
  'openai/codex', // 31,640 → 111,568 stars: 50k and 100k at once
  'angular/angular', // renamed below; 98,395 → 100,996 stars
  'octo-double/doomed-repository', // removed below
];

beforeAll(async () => {
  t = await createReposTestApp(
    { STALE_AFTER_DAYS: '30', GITHUB_TOKEN: 'ghp_serverTokenForTheSync01' },
    { preloadGraphqlSchema: true },
    { clock },
  );
  const member = await signedInUser(t.app);
  for (const name of NAMES) {
    const response = await t.app.inject({
      method: 'POST',
      url: '/repositories/',
      headers: member.headers,
      payload: { id: name },
    });
    expect(response.statusCode).toBe(201);
    const row = await t.app.db
      .selectFrom('repositories')
      .select('id')
      .where('full_name', '=', name)
      .executeTakeFirstOrThrow();
    ids.set(name, row.id);
  }
});

afterAll(async () => {
  await t?.close();
});

async function eventsOf(name: string) {
  const rows = await t.app.db
    .selectFrom('repository_events')
    .select(['type', 'data', 'user_id', 'occurred_at'])
    .where('repository_id', '=', ids.get(name) ?? -1)
    // The double's later snapshot brings new releases too: their events are the releases
    // module's (server/modules/releases/releases.test.ts).
    .where('type', '!=', 'release_published')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ ...row, data: JSON.parse(row.data) }));
}
const typesOf = async (name: string) => (await eventsOf(name)).map((event) => event.type);
const DAY_S = 24 * 3600;

describe('events through the sync engine', () => {
  it('an add records repository_added with the member, and nothing else (no milestone on add)', async () => {
    for (const name of NAMES) {
      const events = await eventsOf(name);
      expect(events).toEqual([
        {
          type: 'repository_added',
          data: {},
          user_id: expect.any(Number),
          occurred_at: '2025-08-02T00:00:00.000Z',
        },
      ]);
    }
  });

  it('stale once the last commit is STALE_AFTER_DAYS old, once per quiet spell', async () => {
    clock.advance(44 * DAY_S); // 2025-09-15
    expect((await syncEverythingNow(t.app)).synced).toBe(NAMES.length);
    // Quiet since 2025-07-17 16:35: 59 whole days. CS-Notes and the doomed repository were already quiet
    // when added; manifold is archived.
    expect((await eventsOf('vinta/awesome-python')).at(-1)).toMatchObject({
      type: 'stale',
      data: { last_commit: '2025-07-17T16:35:51Z', days: 59 },
    });
    expect(await typesOf('openai/codex')).toEqual(['repository_added', 'stale']);
    expect(await typesOf('CyC2018/CS-Notes')).toEqual(['repository_added']);
    expect(await typesOf('octo-double/doomed-repository')).toEqual(['repository_added']);
    expect(await typesOf('discord/manifold')).toEqual(['repository_added']);
    clock.advance(DAY_S); // 2025-09-16
    await syncEverythingNow(t.app);
    expect(await typesOf('vinta/awesome-python')).toEqual(['repository_added', 'stale']);
  });

  it('a year later: archived, unarchived, description, topics, milestones, renamed, gone', async () => {
    clock.advance(342 * DAY_S); // 2026-08-24
    t.github.setSnapshot('2026-08-22');
    t.github.renameRepository('angular/angular', 'angular-org/angular-renamed');
    t.github.removeRepository('octo-double/doomed-repository');
    const outcome = await syncEverythingNow(t.app);
    expect(outcome).toMatchObject({ synced: NAMES.length - 1, gone: 1, failed: 0 });

    expect(await typesOf('CyC2018/CS-Notes')).toEqual(['repository_added', 'archived']);
    // Unarchived with a commit of 2026-07-07: quiet for 48 days, after the add.
    expect(await typesOf('discord/manifold')).toEqual(['repository_added', 'unarchived', 'stale']);
    const python = await eventsOf('vinta/awesome-python');
    expect(python.map((event) => event.type)).toEqual([
      'repository_added',
      'stale',
      'description_changed',
      'topics_changed',
    ]);
    expect(python[2]?.data).toMatchObject({
      from: expect.stringMatching(/^An opinionated list/),
      to: expect.stringMatching(/^The definitive list/),
    });
    expect(python[3]?.data).toEqual({ added: [], removed: ['awesome'] });
    expect((await eventsOf('openai/codex')).slice(2)).toMatchObject([
      { type: 'star_milestone', data: { milestone: 50_000, stars: 111_568 } },
      { type: 'star_milestone', data: { milestone: 100_000, stars: 111_568 } },
    ]);
    expect((await eventsOf('angular/angular')).slice(2)).toMatchObject([
      { type: 'renamed', data: { from: 'angular/angular', to: 'angular-org/angular-renamed' } },
      { type: 'star_milestone', data: { milestone: 100_000 } },
    ]);
    expect(await typesOf('octo-double/doomed-repository')).toEqual(['repository_added', 'gone']);
    // Seen by the engine: no member's action.
    expect((await eventsOf('CyC2018/CS-Notes'))[1]?.user_id).toBeNull();
  });

  it('gone is recorded the first time only; an unchanged sync records nothing', async () => {
    const member = await signedInUser(t.app);
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const response = await t.app.inject({
        method: 'PUT',
        url: repoPath('octo-double/doomed-repository'),
        headers: member.headers,
      });
      expect(response.statusCode).toBe(404);
    }
    expect(await typesOf('octo-double/doomed-repository')).toEqual(['repository_added', 'gone']);
    const before = await t.app.db.selectFrom('repository_events').select('id').execute();
    await syncEverythingNow(t.app);
    expect(await t.app.db.selectFrom('repository_events').select('id').execute()).toHaveLength(before.length);
  });

  it('a new commit and another quiet spell: stale again; a milestone never fires twice', async () => {
    clock.advance(43 * DAY_S); // 2026-10-06
    await syncEverythingNow(t.app);
    expect((await eventsOf('vinta/awesome-python')).at(-1)).toMatchObject({
      type: 'stale',
      data: { last_commit: '2026-08-21T14:25:23Z', days: 45 },
    });
    // Back to the first snapshot (stars drop below 50k and 100k), then the second again.
    t.github.setSnapshot('2025-08-01');
    await syncEverythingNow(t.app);
    t.github.setSnapshot('2026-08-22');
    await syncEverythingNow(t.app);
    const milestones = (await eventsOf('openai/codex')).filter((event) => event.type === 'star_milestone');
    expect(milestones).toHaveLength(2);
  });
});
