import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { PublicPageListItem } from '#shared/schemas/public-pages.ts';
import { buildUser, jsonResponse, renderApp, signIn } from '../../../../test/web/render.tsx';

const admin = buildUser({ id: 1, username: 'boss', is_admin: true });

function page(overrides: Partial<PublicPageListItem>): PublicPageListItem {
  return {
    id: 1,
    kind: 'view',
    target_id: 4,
    title: 'Web',
    url: 'http://catalogue.test/p/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde',
    fields: ['description', 'stars'],
    include_rationales: false,
    published_by: 'ada',
    published_at: '2026-11-28T10:00:00Z',
    ...overrides,
  };
}

function openTab(pages: PublicPageListItem[]) {
  signIn(admin);
  let listed = pages;
  const deleted: string[] = [];
  const rendered = renderApp({
    route: '/admin?tab=public-pages',
    handlers: {
      'GET /auth/admin/stats': () =>
        jsonResponse({
          users: { total: 1, active: 1, verified: 1, admin: 1, recent: 0 },
          repositories: { total: 0, users_with_repos: 0, avg_stars: 0, total_stars: 0 },
        }),
      'GET /auth/admin/users': () => jsonResponse({ users: [], total: 0, page: 1, per_page: 50, pages: 0 }),
      'GET /public-pages': () => jsonResponse({ pages: listed }),
      'DELETE /public-pages/2': (request) => {
        deleted.push(new URL(request.url).pathname);
        listed = listed.filter((entry) => entry.id !== 2);
        return new Response(null, { status: 204 });
      },
    },
  });
  return { ...rendered, deleted };
}

describe('the Public pages tab', () => {
  it('lists what is published, with its address, fields, publisher and date, and unpublishes a row', async () => {
    const { user, deleted } = openTab([
      page({}),
      page({
        id: 2,
        kind: 'radar',
        target_id: 7,
        title: '2026 Q3',
        url: 'http://catalogue.test/p/radar/ZyXwVuTsRqPoNmLkJiHgFeDcBa9876543210_-edcba',
        fields: [],
        include_rationales: true,
        published_by: 'boss',
      }),
    ]);
    const section = await screen.findByRole('region', { name: 'Public pages' });
    const rows = await within(section).findAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(rows[1]).toHaveTextContent('View');
    expect(rows[1]).toHaveTextContent('description, stars');
    expect(rows[1]).toHaveTextContent('ada');
    expect(within(rows[1] as HTMLElement).getByRole('link')).toHaveAttribute('href', page({}).url);
    expect(rows[2]).toHaveTextContent('Radar edition');
    expect(rows[2]).toHaveTextContent('2026 Q3');
    expect(rows[2]).toHaveTextContent('rationales');

    await user.click(within(section).getByRole('button', { name: 'Unpublish 2026 Q3' }));
    await waitFor(() => expect(deleted).toEqual(['/public-pages/2']));
    expect(await screen.findByText('“2026 Q3” is no longer public.')).toBeVisible();
    await waitFor(() => expect(within(section).getAllByRole('row')).toHaveLength(2));
  });

  it('says when nothing is published', async () => {
    openTab([]);
    expect(await screen.findByText(/Nothing is published/)).toBeVisible();
  });
});
