import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ActivityEvent } from '#shared/schemas/activity.ts';
import { renderWithProviders } from '../../../../test/web/render.tsx';
import { EventRows } from './event-rows.tsx';

/** Issue 23 items 7 and 8: both times where they differ, and one row per repository and sync. */
const now = new Date('2026-11-26T12:00:00.000Z');
// A quarter of an hour before `now`: the same day in (almost) every time zone.
const today = '2026-11-26T11:45:00.000Z';
const fourMonthsAgo = '2026-07-20T12:00:00.000Z';
const next = { id: 'vercel/next.js', full_name: 'vercel/next.js', name: 'next.js' };
const react = { id: 'facebook/react', full_name: 'facebook/react', name: 'react' };

function release(id: number, tag: string, detected: string, repository = next): ActivityEvent {
  return {
    id,
    type: 'release_published',
    occurred_at: fourMonthsAgo,
    detected_at: detected,
    repository,
    data: {
      tag,
      name: null,
      url: `https://github.com/${repository.id}/releases/tag/${tag}`,
      prerelease: false,
    },
  };
}

function show(events: ActivityEvent[]) {
  renderWithProviders(
    <ul aria-label="Events">
      <EventRows events={events} now={now} />
    </ul>,
  );
  return screen.getByRole('list', { name: 'Events' });
}

const rows = (list: HTMLElement) =>
  [...list.children].map((item) => item.querySelector('p')?.textContent ?? '');

describe('EventRows', () => {
  it('says when an event happened and when it was found, when those are different days', () => {
    const list = show([
      release(3, 'v2.0.0', today),
      { id: 2, type: 'archived', occurred_at: today, detected_at: today, repository: react, data: {} },
    ]);
    expect(within(list).getByText('published 4 months ago · found today')).toBeVisible();
    expect(within(list).getByText(/^Today, /)).toBeVisible();
  });

  it('shows the releases of one repository and one sync as one row, each one a click away', async () => {
    const other = '2026-11-25T09:30:00.000Z';
    const list = show([
      release(9, 'v4', today),
      release(8, 'v3', today),
      release(7, 'v2', today),
      release(6, 'v1', today),
      release(5, 'v0.9', other),
      release(4, 'v18', today, react),
    ]);
    expect(rows(list)).toEqual([
      'Release published: vercel/next.js published 4 releases, v1 … v4',
      'Release published: vercel/next.js published release v0.9',
      'Release published: facebook/react published release v18',
    ]);
    await screen.getByRole('button', { name: 'Show each release (4)' }).click();
    const each = await screen.findByRole('list', { name: 'vercel/next.js: each release' });
    expect(within(each).getAllByRole('listitem')).toHaveLength(4);
    expect(within(each).getAllByRole('link', { name: 'View the release on GitHub' })[0]).toHaveAttribute(
      'href',
      'https://github.com/vercel/next.js/releases/tag/v1',
    );
  });

  it('shows the star milestones of one sync as one row', () => {
    const milestone = (id: number, value: number): ActivityEvent => ({
      id,
      type: 'star_milestone',
      occurred_at: today,
      detected_at: today,
      repository: react,
      data: { milestone: value, stars: 101_000 },
    });
    const list = show([milestone(12, 100_000), milestone(11, 50_000)]);
    expect(rows(list)).toEqual(['Star milestone: facebook/react passed 50k and 100k stars']);
    expect(screen.getByRole('button', { name: 'Show each milestone (2)' })).toBeVisible();
  });
});
