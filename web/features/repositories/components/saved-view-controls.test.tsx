import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SAVED_VIEWS_FULL_MESSAGE, type SavedView } from '#shared/schemas/views.ts';
import { catalogueDouble } from '../../../../test/web/catalogue-double.ts';
import { buildUser, errorResponse, jsonResponse, renderApp, signIn } from '../../../../test/web/render.tsx';
import { buildSummary } from '../../../../test/web/repository-fixtures.ts';

const me = buildUser({ id: 7, username: 'ada' });

function view(overrides: Partial<SavedView>): SavedView {
  return {
    id: 1,
    name: 'Web',
    query: 'tags=web',
    shared: false,
    owner: { id: me.id, username: me.username },
    can_edit: true,
    created_at: '2026-11-25T10:00:00Z',
    updated_at: '2026-11-25T10:00:00Z',
    ...overrides,
  };
}

function openList(
  route: string,
  views: SavedView[],
  extra: Record<string, (request: Request) => Response | Promise<Response>> = {},
) {
  signIn(me);
  const catalogue = catalogueDouble([
    buildSummary({ id: 'a/web', tags: 'web' }),
    buildSummary({ id: 'b/cli' }),
  ]);
  const sent: unknown[] = [];
  const rendered = renderApp({
    route,
    handlers: {
      ...catalogue.handlers,
      'GET /views': () => jsonResponse({ views }),
      'POST /views': async (request) => {
        const body = await request.json();
        sent.push(body);
        return jsonResponse({ view: view({ id: 9, ...body }) }, { status: 201 });
      },
      ...extra,
    },
  });
  return { ...rendered, sent };
}

describe('saved views', () => {
  it("saves the list's address under a name, private unless shared", async () => {
    const { user, sent } = openList('/home?tags=web&sort=stars', []);
    await screen.findByText(/Showing 1 of 1 repositories/);
    await user.click(screen.getByRole('button', { name: 'Save view' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save this view' });
    await user.click(within(dialog).getByRole('button', { name: 'Save view' }));
    expect(await within(dialog).findByText('Name is required')).toBeVisible();
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Web by stars');
    await user.click(within(dialog).getByRole('switch', { name: /Share with the team/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Save view' }));
    await waitFor(() =>
      expect(sent).toEqual([{ name: 'Web by stars', shared: true, query: 'tags=web&sort=stars' }]),
    );
    expect(await screen.findByText('View “Web by stars” saved.')).toBeVisible();
  });

  it('shows a name already taken as the field error', async () => {
    const { user } = openList('/home?tags=web', [], {
      'POST /views': () => errorResponse(409, 'You already have a view named “Web”.'),
    });
    await screen.findByText(/Showing 1 of 1 repositories/);
    await user.click(screen.getByRole('button', { name: 'Save view' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save this view' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Web');
    await user.click(within(dialog).getByRole('button', { name: 'Save view' }));
    expect(await within(dialog).findByText('You already have a view named “Web”.')).toBeVisible();
  });

  it('says so in the dialog when the member already keeps the most views one may', async () => {
    const { user } = openList('/home?tags=web', [], {
      'POST /views': () => errorResponse(400, SAVED_VIEWS_FULL_MESSAGE),
    });
    await screen.findByText(/Showing 1 of 1 repositories/);
    await user.click(screen.getByRole('button', { name: 'Save view' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save this view' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'One more');
    await user.click(within(dialog).getByRole('button', { name: 'Save view' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'You have 30 saved views, the most one member can keep. Delete one to save another.',
    );
    // The name itself was fine: no error on the field, and the dialog stays open to cancel.
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).not.toHaveAttribute('aria-invalid', 'true');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Save this view' })).toBeNull());
  });

  it('lists views in the sidebar, marks the open one, and names it on the list with its actions', async () => {
    const views = [
      view({ id: 1, name: 'Web', query: 'tags=web' }),
      view({
        id: 2,
        name: 'Team CLI',
        query: 'q=cli',
        shared: true,
        owner: { id: 3, username: 'bob' },
        can_edit: false,
      }),
    ];
    const { user } = openList('/home?tags=web', views);
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    const list = await within(nav).findByRole('list', { name: 'Views' });
    expect(within(list).getByRole('link', { name: /Web/ }).getAttribute('aria-current')).toBe('page');
    expect(within(list).getByText('Shared by bob')).toBeVisible();
    expect(
      within(nav)
        .getByRole('link', { name: /^Repositories/ })
        .getAttribute('aria-current'),
    ).toBeNull();

    await user.click(screen.getByRole('button', { name: 'View: Web' }));
    expect(await screen.findByRole('menuitem', { name: 'Share with the team' })).toBeVisible();
    expect(screen.getByRole('menuitem', { name: 'Delete view' })).toBeVisible();

    // Another member's shared view opens, but offers no changes.
    await user.click(within(list).getByRole('link', { name: /Team CLI/ }));
    await waitFor(() => expect(window.location.hash).toBe('#/home?q=cli'));
    expect(await screen.findByTitle('Shared by bob')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Save view' })).toBeNull();
  });
});
