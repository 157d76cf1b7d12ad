import { describe, expect, it } from 'vitest';
import type { RepositorySnapshot } from '../../github/repository-snapshot.ts';
import {
  type DetectionContext,
  detectAddEvents,
  detectGoneEvents,
  detectSnapshotEvents,
  historyNeeded,
  type StoredRepository,
} from './detect-events.ts';

const NOW = new Date('2026-11-25T12:00:00.000Z');
const DAY = 24 * 3600_000;
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY).toISOString();

const stored: StoredRepository = {
  id: 7,
  full_name: 'octo/widget',
  description: 'Widgets for everyone',
  license: 'MIT',
  topics: 'widgets,ui',
  stars: 900,
  archived: 0,
  gone: 0,
  last_commit: daysAgo(3),
  created_at: daysAgo(400),
};

/** The snapshot GitHub would give for the stored row, with `changes`. */
function snapshot(changes: Partial<RepositorySnapshot> = {}): RepositorySnapshot {
  return {
    fullName: stored.full_name,
    githubId: 1,
    name: 'widget',
    description: stored.description,
    url: 'https://github.com/octo/widget',
    license: stored.license,
    topics: ['widgets', 'ui'],
    stars: stored.stars,
    forks: 1,
    issues: 0,
    language: 'TypeScript',
    archived: false,
    private: false,
    defaultBranch: 'main',
    commits: 10,
    contributors: 1,
    contributorsCapped: false,
    lastCommit: stored.last_commit,
    recentCommits: [],
    ...changes,
  };
}

const fresh: DetectionContext = {
  now: NOW,
  staleAfterDays: 180,
  history: { milestonesFired: [], lastStaleCommit: undefined },
};
const detect = (after: RepositorySnapshot, before: StoredRepository = stored, context = fresh) =>
  detectSnapshotEvents(before, after, context);

describe('detectSnapshotEvents', () => {
  it('finds nothing when nothing changed', () => {
    expect(detect(snapshot())).toEqual([]);
    expect(historyNeeded(stored, snapshot(), NOW, 180)).toEqual({ milestones: false, stale: false });
  });

  it('repository_added: on add only, with the member who added it', () => {
    expect(detectAddEvents(7, 3)).toEqual([
      { type: 'repository_added', repository_id: 7, user_id: 3, data: {} },
    ]);
  });

  it('archived and unarchived', () => {
    expect(detect(snapshot({ archived: true }))).toEqual([{ type: 'archived', repository_id: 7, data: {} }]);
    expect(detect(snapshot({ archived: false }), { ...stored, archived: 1 })).toEqual([
      { type: 'unarchived', repository_id: 7, data: {} },
    ]);
  });

  it('license_changed, also to and from none', () => {
    expect(detect(snapshot({ license: 'Apache-2.0' }))).toEqual([
      { type: 'license_changed', repository_id: 7, data: { from: 'MIT', to: 'Apache-2.0' } },
    ]);
    expect(detect(snapshot({ license: '' }))[0]).toMatchObject({ data: { from: 'MIT', to: '' } });
  });

  it('renamed or transferred: the full name changed', () => {
    expect(detect(snapshot({ fullName: 'acme/widget' }))).toEqual([
      { type: 'renamed', repository_id: 7, data: { from: 'octo/widget', to: 'acme/widget' } },
    ]);
  });

  it('gone: the first time it is flagged only', () => {
    expect(detectGoneEvents(stored)).toEqual([{ type: 'gone', repository_id: 7, data: {} }]);
    expect(detectGoneEvents({ ...stored, gone: 1 })).toEqual([]);
  });

  it('description_changed, with an empty description counted as none', () => {
    expect(detect(snapshot({ description: 'Gadgets now' }))).toEqual([
      {
        type: 'description_changed',
        repository_id: 7,
        data: { from: 'Widgets for everyone', to: 'Gadgets now' },
      },
    ]);
    expect(detect(snapshot({ description: null }))[0]).toMatchObject({ data: { to: null } });
    expect(detect(snapshot({ description: '' }), { ...stored, description: null })).toEqual([]);
  });

  it('topics_changed with the added and removed lists', () => {
    expect(detect(snapshot({ topics: ['widgets', 'react', 'design'] }))).toEqual([
      { type: 'topics_changed', repository_id: 7, data: { added: ['react', 'design'], removed: ['ui'] } },
    ]);
    expect(detect(snapshot({ topics: [] }), { ...stored, topics: '' })).toEqual([]);
  });

  it('star_milestone: each milestone crossed upward, a jump over two fires both', () => {
    const after = snapshot({ stars: 5_200 });
    expect(historyNeeded(stored, after, NOW, 180).milestones).toBe(true);
    expect(detect(after)).toEqual([
      { type: 'star_milestone', repository_id: 7, data: { milestone: 1000, stars: 5200 } },
      { type: 'star_milestone', repository_id: 7, data: { milestone: 5000, stars: 5200 } },
    ]);
    // Landing exactly on a milestone crosses it.
    expect(detect(snapshot({ stars: 1000 }))).toHaveLength(1);
  });

  it('star_milestone: a drop and a new crossing do not fire again', () => {
    const dropped = { ...stored, stars: 990 };
    const fired = { ...fresh, history: { milestonesFired: [1000], lastStaleCommit: undefined } };
    expect(detect(snapshot({ stars: 1010 }), dropped, fired)).toEqual([]);
    // A drop is no event either.
    expect(detect(snapshot({ stars: 800 }), { ...stored, stars: 1200 })).toEqual([]);
  });

  it('stale: no commit for STALE_AFTER_DAYS, once per quiet spell', () => {
    const quiet = snapshot({ lastCommit: daysAgo(200) });
    const before = { ...stored, last_commit: daysAgo(200), created_at: daysAgo(365) };
    expect(historyNeeded(before, quiet, NOW, 180).stale).toBe(true);
    expect(detect(quiet, before)).toEqual([
      { type: 'stale', repository_id: 7, data: { last_commit: daysAgo(200), days: 200 } },
    ]);
    // Already reported for this last commit: not again.
    const reported = { ...fresh, history: { milestonesFired: [], lastStaleCommit: daysAgo(200) } };
    expect(detect(quiet, before, reported)).toEqual([]);
    // A new commit, then another quiet spell: reported again.
    const later = snapshot({ lastCommit: daysAgo(190) });
    expect(detect(later, before, reported)).toMatchObject([{ type: 'stale', data: { days: 190 } }]);
    // Not yet quiet long enough.
    expect(detect(snapshot({ lastCommit: daysAgo(179) }), before)).toEqual([]);
    // STALE_AFTER_DAYS is configurable.
    expect(
      detect(snapshot({ lastCommit: daysAgo(31) }), before, { ...fresh, staleAfterDays: 30 }),
    ).toHaveLength(1);
  });

  it('stale: not for a repository already quiet when added, nor an archived one', () => {
    const addedQuiet = { ...stored, last_commit: daysAgo(300), created_at: daysAgo(10) };
    expect(detect(snapshot({ lastCommit: daysAgo(300) }), addedQuiet)).toEqual([]);
    expect(historyNeeded(addedQuiet, snapshot({ lastCommit: daysAgo(300) }), NOW, 180).stale).toBe(false);
    const archived = { ...stored, archived: 1 as const, last_commit: daysAgo(300), created_at: daysAgo(365) };
    expect(detect(snapshot({ archived: true, lastCommit: daysAgo(300) }), archived)).toEqual([]);
  });

  it('stale: a repository without commits counts from when it was added', () => {
    const empty = { ...stored, last_commit: null, created_at: daysAgo(181) };
    expect(detect(snapshot({ lastCommit: null }), empty)).toEqual([
      { type: 'stale', repository_id: 7, data: { last_commit: null, days: 181 } },
    ]);
    const reported = { ...fresh, history: { milestonesFired: [], lastStaleCommit: null } };
    expect(detect(snapshot({ lastCommit: null }), empty, reported)).toEqual([]);
  });

  it('records several changes of one sync in a fixed order', () => {
    const events = detect(
      snapshot({
        fullName: 'acme/widget',
        archived: true,
        license: '',
        description: 'x',
        topics: [],
        stars: 1500,
      }),
    );
    expect(events.map((event) => event.type)).toEqual([
      'renamed',
      'archived',
      'license_changed',
      'description_changed',
      'topics_changed',
      'star_milestone',
    ]);
  });
});
