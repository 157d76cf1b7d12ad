import { describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '#shared/schemas/activity.ts';
import {
  describeEvent,
  discordPayload,
  groupByRepository,
  headline,
  MAX_REPOSITORIES_LISTED,
  type NotifiedEvent,
  plainText,
  slackPayload,
} from './notification-messages.ts';

const repository = (id: string) => ({ id, url: `https://github.com/${id}` });

function event(id: number, type: NotifiedEvent['type'], data: unknown, repo = 'acme/web'): NotifiedEvent {
  return { id, type, occurred_at: '2026-11-25T10:00:00.000Z', data, repository: repository(repo) };
}

describe('event wording', () => {
  it.each([
    ['repository_added', {}, 'was added to the catalogue'],
    [
      'release_published',
      { tag: 'v2.0.0', name: 'Two', url: null, prerelease: false },
      'published release v2.0.0 (Two)',
    ],
    [
      'release_published',
      { tag: 'v3.0.0-rc1', name: 'v3.0.0-rc1', url: null, prerelease: true },
      'published pre-release v3.0.0-rc1',
    ],
    ['archived', {}, 'was archived'],
    ['unarchived', {}, 'was unarchived'],
    ['license_changed', { from: '', to: 'MIT' }, 'changed its licence from none to MIT'],
    ['renamed', { from: 'a/b', to: 'c/d' }, 'was renamed from a/b to c/d'],
    ['gone', {}, 'is gone from GitHub'],
    ['description_changed', { from: 'x', to: '  A parser  ' }, 'changed its description to “A parser”'],
    ['description_changed', { from: 'x', to: null }, 'removed its description'],
    ['topics_changed', { added: ['cli'], removed: ['old'] }, 'changed its topics (+cli, −old)'],
    ['star_milestone', { milestone: 25_000, stars: 25_013 }, 'passed 25K stars'],
    ['stale', { last_commit: null, days: 181 }, 'has had no commit for 181 days'],
  ] as const)('%s %j reads "%s"', (type, data, text) => {
    expect(describeEvent({ type, data })).toBe(text);
  });

  it('words every event type, and falls back to the type’s name for unreadable details', () => {
    for (const type of EVENT_TYPES)
      expect(describeEvent({ type, data: { nonsense: true } }).length).toBeGreaterThan(3);
    expect(describeEvent({ type: 'renamed', data: { from: 1 } })).toBe('Renamed or transferred');
  });
});

describe('digests', () => {
  const many = Array.from({ length: MAX_REPOSITORIES_LISTED + 3 }, (_, i) =>
    event(i + 1, 'archived', {}, `acme/repo-${i}`),
  );
  const input = { kind: 'daily' as const, appName: 'Tracker', publicUrl: 'https://t.example', events: many };

  it('groups by repository in the order of their first event, and counts what it leaves out', () => {
    const mixed = [
      event(3, 'gone', {}, 'b/b'),
      event(1, 'archived', {}, 'a/a'),
      event(2, 'unarchived', {}, 'b/b'),
    ];
    expect(
      groupByRepository(mixed).map((group) => [group.repository.id, group.events.map((e) => e.id)]),
    ).toEqual([
      ['a/a', [1]],
      ['b/b', [2, 3]],
    ]);
    expect(headline(input)).toBe(
      `Tracker daily digest: ${many.length} events in ${many.length} repositories`,
    );
    expect(plainText(input)).toContain('…and 3 more repositories.');
    const slack = slackPayload(input);
    expect(slack.blocks.length).toBeLessThanOrEqual(50);
    expect(JSON.stringify(slack.blocks.at(-1))).toContain('…and 3 more repositories');
    const discord = discordPayload(input);
    expect(discord.embeds).toHaveLength(10);
    expect(discord.content).toContain(`…and ${many.length - 10} more repositories.`);
  });

  it('escapes Slack’s control characters in names and texts', () => {
    const text = JSON.stringify(
      slackPayload({
        ...input,
        events: [event(1, 'description_changed', { from: null, to: '<!channel> & co' })],
      }),
    );
    expect(text).toContain('&lt;!channel&gt; &amp; co');
    expect(text).not.toContain('<!channel>');
  });
});

describe('the releases and milestones of one sync (issue 23 item 8)', () => {
  const sync = '2026-11-25T10:00:00.000Z';
  const batch = (id: number, type: NotifiedEvent['type'], data: unknown, detected = sync) => ({
    ...event(id, type, data),
    detected_at: detected,
  });
  const releases = ['v1', 'v2', 'v3', 'v4'].map((tag, index) =>
    batch(index + 1, 'release_published', { tag, name: null, url: null, prerelease: false }),
  );
  const base = { appName: 'Tracker', publicUrl: 'https://tracker.example.com' };

  it('heads an instant message with one line for them all and lists each one', () => {
    const input = { ...base, kind: 'instant' as const, events: releases };
    expect(headline(input)).toBe('acme/web published 4 releases, v1 … v4');
    expect(plainText(input).split('\n').slice(0, 7)).toEqual([
      'acme/web published 4 releases, v1 … v4',
      '',
      'acme/web (https://github.com/acme/web)',
      '  • published release v1',
      '  • published release v2',
      '  • published release v3',
      '  • published release v4',
    ]);
    const milestones = [
      batch(5, 'star_milestone', { milestone: 1000, stars: 5200 }),
      batch(6, 'star_milestone', { milestone: 5000, stars: 5200 }),
    ];
    expect(headline({ ...input, events: milestones })).toBe('acme/web passed 1K and 5K stars');
    expect(headline({ ...input, events: [...releases.slice(0, 2), milestones[1] as NotifiedEvent] })).toBe(
      'acme/web published 2 releases, v1 and v2 and passed 5K stars',
    );
  });

  it('lists them as one line in a digest, apart from another sync’s', () => {
    const later = batch(
      9,
      'release_published',
      { tag: 'v5', name: null, url: null, prerelease: false },
      '2026-11-25T11:00:00.000Z',
    );
    const input = { ...base, kind: 'daily' as const, events: [...releases, later] };
    expect(plainText(input).split('\n').slice(2, 5)).toEqual([
      'acme/web (https://github.com/acme/web)',
      '  • published 4 releases, v1 … v4',
      '  • published release v5',
    ]);
    expect(JSON.stringify(slackPayload(input))).toContain(
      '• published 4 releases, v1 … v4\\n• published release v5',
    );
    expect(discordPayload(input).embeds).toMatchObject([
      { description: '• published 4 releases, v1 … v4\n• published release v5' },
    ]);
  });
});
