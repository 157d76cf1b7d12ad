import { describe, expect, it } from 'vitest';
import {
  batchLabel,
  describeBatchAction,
  describeEvent,
  describeEventDetail,
  formatMilestone,
} from './event-text.ts';
import type { ActivityEvent } from './schemas/activity.ts';

const repository = { id: 'octo/widget', full_name: 'octo/widget', name: 'widget' };
const at = '2026-11-25T10:00:00.000Z';
const sentence = (event: Omit<ActivityEvent, 'id' | 'occurred_at' | 'repository'>) =>
  describeEvent({ ...event, repository } as ActivityEvent);

describe('describeEvent', () => {
  it('words every event type', () => {
    expect(sentence({ type: 'repository_added', data: {}, actor: { id: 1, name: 'Ada Lovelace' } })).toBe(
      'octo/widget was added to the catalogue by Ada Lovelace',
    );
    expect(sentence({ type: 'repository_added', data: {} })).toBe('octo/widget was added to the catalogue');
    expect(
      sentence({
        type: 'release_published',
        data: { tag: 'v2.0.0', name: 'Gadget', url: null, prerelease: false },
      }),
    ).toBe('octo/widget published release v2.0.0 (Gadget)');
    expect(
      sentence({
        type: 'release_published',
        data: { tag: 'v3.0.0-rc.1', name: 'v3.0.0-rc.1', url: null, prerelease: true },
      }),
    ).toBe('octo/widget published pre-release v3.0.0-rc.1');
    expect(sentence({ type: 'archived', data: {} })).toBe('octo/widget was archived on GitHub');
    expect(sentence({ type: 'unarchived', data: {} })).toBe('octo/widget is no longer archived');
    expect(sentence({ type: 'license_changed', data: { from: 'MIT', to: '' } })).toBe(
      'octo/widget changed its licence from MIT to none',
    );
    expect(sentence({ type: 'renamed', data: { from: 'octo/widget', to: 'octo/gadget' } })).toBe(
      'octo/widget was renamed to octo/gadget',
    );
    expect(sentence({ type: 'renamed', data: { from: 'octo/widget', to: 'acme/widget' } })).toBe(
      'octo/widget was transferred to acme/widget',
    );
    expect(sentence({ type: 'gone', data: {} })).toBe(
      'octo/widget is gone from GitHub (deleted, or no longer readable)',
    );
    expect(sentence({ type: 'description_changed', data: { from: null, to: 'x' } })).toBe(
      'octo/widget got a description',
    );
    expect(sentence({ type: 'description_changed', data: { from: 'x', to: null } })).toBe(
      'octo/widget removed its description',
    );
    expect(sentence({ type: 'description_changed', data: { from: 'x', to: 'y' } })).toBe(
      'octo/widget changed its description',
    );
    expect(sentence({ type: 'topics_changed', data: { added: ['a'], removed: [] } })).toBe(
      'octo/widget added topic a',
    );
    expect(sentence({ type: 'topics_changed', data: { added: ['a', 'b'], removed: ['c'] } })).toBe(
      'octo/widget added topics a, b and removed topic c',
    );
    expect(sentence({ type: 'star_milestone', data: { milestone: 25_000, stars: 25_010 } })).toBe(
      'octo/widget passed 25k stars',
    );
    expect(sentence({ type: 'stale', data: { last_commit: at, days: 1200 } })).toBe(
      'octo/widget has had no commit for 1,200 days',
    );
    expect(sentence({ type: 'stale', data: { last_commit: null, days: 181 } })).toBe(
      'octo/widget has shown no commit for 181 days',
    );
  });

  it('takes another subject, and gives a detail line where there is one', () => {
    expect(describeEvent({ type: 'archived', data: {}, repository }, 'This repository')).toBe(
      'This repository was archived on GitHub',
    );
    expect(describeEventDetail({ type: 'description_changed', data: { from: null, to: 'New words' } })).toBe(
      'New words',
    );
    expect(describeEventDetail({ type: 'star_milestone', data: { milestone: 1000, stars: 1234 } })).toBe(
      '1,234 stars when seen',
    );
    expect(describeEventDetail({ type: 'gone', data: {} })).toBeNull();
  });

  it('formats milestones as round numbers', () => {
    expect([1000, 5000, 100_000, 250_000, 1_000_000].map(formatMilestone)).toEqual([
      '1k',
      '5k',
      '100k',
      '250k',
      '1M',
    ]);
  });

  it('words the releases and milestones of one sync as one line (issue 23 item 8)', () => {
    expect(describeBatchAction('release_published', ['v1', 'v2', 'v3', 'v4'])).toBe(
      'published 4 releases, v1 … v4',
    );
    expect(describeBatchAction('release_published', ['v1', 'v2'])).toBe('published 2 releases, v1 and v2');
    expect(describeBatchAction('star_milestone', ['50k', '100k'])).toBe('passed 50k and 100k stars');
    expect(describeBatchAction('star_milestone', ['1k', '5k', '10k'])).toBe('passed 1k, 5k and 10k stars');
    expect(batchLabel('star_milestone', { milestone: 100_000, stars: 100_200 })).toBe('100k');
    expect(batchLabel('release_published', { tag: 'v2.0.0' })).toBe('v2.0.0');
  });
});
