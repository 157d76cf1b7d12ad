import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ActivityEvent } from '#shared/schemas/activity.ts';
import { errorResponse, jsonResponse, renderWithProviders, signIn } from '../../../../test/web/render.tsx';
import { RepositoryEventsCard } from './repository-events-card.tsx';

const repository = { id: 'facebook/react', full_name: 'facebook/react', name: 'react' };
const events: ActivityEvent[] = [
  {
    id: 2,
    type: 'topics_changed',
    occurred_at: new Date(Date.now() - 2 * 86_400_000).toISOString(),
    repository,
    data: { added: ['ui', 'web'], removed: ['js'] },
  },
  { id: 1, type: 'repository_added', occurred_at: '2026-01-01T00:00:00.000Z', repository, data: {} },
];

describe('RepositoryEventsCard', () => {
  it('shows the repository’s latest events, asking for its own only, with a link to all of them', async () => {
    signIn();
    const asked: string[] = [];
    renderWithProviders(<RepositoryEventsCard fullName="facebook/react" />, {
      handlers: {
        'GET /activity': (request) => {
          asked.push(new URL(request.url).search);
          return jsonResponse({ events, next_cursor: 'more' });
        },
      },
    });
    const list = await screen.findByRole('list', { name: 'Recent events' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.querySelector('p')?.textContent),
    ).toEqual([
      'Topics changed: facebook/react added topics ui, web and removed topic js',
      'Added: facebook/react was added to the catalogue',
    ]);
    // Already on its page: the name is not a link there.
    expect(within(list).queryByRole('link')).toBeNull();
    expect(within(list).getByText('2 days ago')).toBeVisible();
    expect(screen.getByRole('link', { name: 'See all activity' }).getAttribute('href')).toBe(
      '#/activity?repository=facebook%2Freact',
    );
    expect(asked).toEqual(['?repository=facebook%2Freact&limit=5']);
  });

  it('says when there is nothing yet, and shows a failed load with Retry', async () => {
    signIn();
    let calls = 0;
    const { user } = renderWithProviders(<RepositoryEventsCard fullName="facebook/react" />, {
      handlers: {
        'GET /activity': () => {
          calls += 1;
          return calls === 1 ? errorResponse(500, 'down') : jsonResponse({ events: [], next_cursor: null });
        },
      },
    });
    const alert = await screen.findByRole('alert');
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(
      await screen.findByText('No events yet. Changes the sync sees on GitHub will show here.'),
    ).toBeVisible();
    expect(screen.queryByRole('link', { name: 'See all activity' })).toBeNull();
  });
});
