import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { encodeRouteId } from '#shared/route-id.ts';
import type { ActivityEvent, ActivityPage } from '#shared/schemas/activity.ts';
import { renderWithCatalogue } from '../../../../test/web/catalogue-double.ts';
import {
  buildRepositorySummary,
  type FetchHandler,
  failingOnce,
  jsonResponse,
} from '../../../../test/web/render.tsx';

const NOW = Date.now();
const minutesAgo = (minutes: number) => new Date(NOW - minutes * 60_000).toISOString();
const repository = (fullName: string) => ({
  id: fullName,
  full_name: fullName,
  name: fullName.split('/')[1] ?? fullName,
});

const EVENTS: ActivityEvent[] = [
  {
    id: 9,
    type: 'star_milestone',
    occurred_at: minutesAgo(5),
    repository: repository('facebook/react'),
    data: { milestone: 250_000, stars: 250_120 },
  },
  {
    id: 8,
    type: 'archived',
    occurred_at: minutesAgo(60 * 24 * 3),
    repository: repository('vuejs/core'),
    data: {},
  },
  {
    id: 7,
    type: 'renamed',
    occurred_at: minutesAgo(60 * 24 * 10),
    repository: repository('acme/new-name'),
    data: { from: 'acme/old-name', to: 'acme/new-name' },
  },
  {
    id: 6,
    type: 'repository_added',
    occurred_at: minutesAgo(60 * 24 * 40),
    repository: repository('rust-lang/rust'),
    data: {},
    actor: { id: 1, name: 'Alice Smith' },
  },
];

const rows = [
  buildRepositorySummary({ id: 'facebook/react', tags: 'frontend' }),
  buildRepositorySummary({ id: 'rust-lang/rust', tags: 'systems' }),
];

/** GET /activity answering `pages` by cursor (null: the first page), recording each query. */
function activityDouble(pages: Record<string, ActivityPage>) {
  const queries: Record<string, string>[] = [];
  const handler: FetchHandler = (request) => {
    const params = Object.fromEntries(new URL(request.url).searchParams);
    queries.push(params);
    return jsonResponse(pages[params.cursor ?? 'first'] ?? { events: [], next_cursor: null });
  };
  return { handler, queries };
}

const eventsList = () => screen.findByRole('list', { name: 'Events' });

function openActivity(route: string, handler: FetchHandler) {
  return renderWithCatalogue(route, rows, () => ({ 'GET /activity': handler }));
}

describe('Activity screen', () => {
  it('shows the events newest first as sentences with an icon label, a link to the repository and when', async () => {
    const api = activityDouble({ first: { events: EVENTS, next_cursor: null } });
    openActivity('/activity', api.handler);
    const list = await eventsList();
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.querySelector('p')?.textContent)).toEqual([
      'Star milestone: facebook/react passed 250k stars',
      'Archived: vuejs/core was archived on GitHub',
      'Renamed or transferred: acme/old-name was renamed to acme/new-name',
      'Added: rust-lang/rust was added to the catalogue by Alice Smith',
    ]);
    expect(
      within(items[0] as HTMLElement)
        .getByRole('link', { name: 'facebook/react' })
        .getAttribute('href'),
    ).toBe(`#/repo/${encodeRouteId('facebook/react')}`);
    expect(within(items[2] as HTMLElement).getByRole('link', { name: 'acme/new-name' })).toBeVisible();
    expect(within(items[0] as HTMLElement).getByText(/^Today, /)).toBeVisible();
    expect(within(items[1] as HTMLElement).getByText('3 days ago')).toBeVisible();
    expect(within(items[0] as HTMLElement).getByText('250,120 stars when seen')).toBeVisible();
    expect(screen.getByText('That is everything.')).toBeVisible();
    expect(api.queries).toEqual([{ limit: '50' }]);
    // In the sidebar, and marked as the page shown.
    // (The sidebar is a lazy chunk of its own: it may arrive after the list.)
    expect((await screen.findByRole('link', { name: 'Activity' })).getAttribute('aria-current')).toBe('page');
  });

  it('loads the next page over the cursor, appending it', async () => {
    const api = activityDouble({
      first: { events: EVENTS.slice(0, 2), next_cursor: 'c1' },
      c1: { events: EVENTS.slice(2), next_cursor: null },
    });
    const { user } = openActivity('/activity', api.handler);
    await eventsList();
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() =>
      expect(
        screen.getAllByRole('listitem').filter((item) => item.closest('[aria-label="Events"]')),
      ).toHaveLength(4),
    );
    expect(api.queries.at(-1)).toEqual({ limit: '50', cursor: 'c1' });
    expect(screen.getByText('That is everything.')).toBeVisible();
  });

  it('filters by type and tag, kept in the address', async () => {
    const api = activityDouble({ first: { events: EVENTS.slice(1, 2), next_cursor: null } });
    const { user } = openActivity('/activity?tag=frontend', api.handler);
    await eventsList();
    expect(api.queries[0]).toEqual({ tag: 'frontend', limit: '50' });
    expect(screen.getByRole('combobox', { name: 'Tag' })).toHaveValue('frontend');

    await user.click(screen.getByRole('combobox', { name: 'Event types' }));
    await user.click(await screen.findByRole('option', { name: 'Archived' }));
    await waitFor(() => expect(window.location.hash).toBe('#/activity?tag=frontend&type=archived'));
    await waitFor(() =>
      expect(api.queries.at(-1)).toEqual({ type: 'archived', tag: 'frontend', limit: '50' }),
    );
    await user.click(await screen.findByRole('option', { name: 'Gone from GitHub' }));
    await waitFor(() => expect(api.queries.at(-1)?.type).toBe('archived,gone'));
  });

  it('narrows to one repository from a link, and clears it', async () => {
    const api = activityDouble({ first: { events: EVENTS.slice(0, 1), next_cursor: null } });
    const { user } = openActivity(
      `/activity?repository=${encodeURIComponent('facebook/react')}`,
      api.handler,
    );
    await eventsList();
    expect(api.queries[0]).toEqual({ repository: 'facebook/react', limit: '50' });
    await user.click(screen.getByRole('button', { name: 'Show every repository, not only facebook/react' }));
    await waitFor(() => expect(api.queries.at(-1)).toEqual({ limit: '50' }));
  });

  it('says when nothing happened yet', async () => {
    openActivity('/activity', activityDouble({}).handler);
    expect(await screen.findByRole('heading', { name: 'Nothing has happened yet' })).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Clear filters' })).toBeNull();
  });

  it('says when the filters match nothing, and clears them', async () => {
    const api = activityDouble({});
    const { user } = openActivity('/activity?type=gone&tag=frontend', api.handler);
    expect(await screen.findByRole('heading', { name: 'No events match these filters' })).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(window.location.hash).toBe('#/activity'));
    expect(await screen.findByRole('heading', { name: 'Nothing has happened yet' })).toBeVisible();
    expect(api.queries.at(-1)).toEqual({ limit: '50' });
  });

  it('shows a load error with Retry', async () => {
    const api = activityDouble({ first: { events: EVENTS, next_cursor: null } });
    const { user } = openActivity('/activity', failingOnce(api.handler));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('The activity could not be loaded.')).toBeVisible();
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await eventsList()).toBeVisible();
  });
});
