import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PUBLIC_PAGE_FIELDS,
  PUBLISH_PRIVATE_VIEW_MESSAGE,
  type Publication,
  type PublicPageField,
} from '#shared/schemas/public-pages.ts';
import { SAVED_VIEWS_FULL_MESSAGE, type SavedView } from '#shared/schemas/views.ts';
import { catalogueDouble } from '../../../../test/web/catalogue-double.ts';
import {
  buildUser,
  errorResponse,
  jsonResponse,
  renderApp,
  signIn,
  testVersion,
} from '../../../../test/web/render.tsx';
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

describe('publishing a saved view', () => {
  const on = { ...testVersion, public_pages: true };
  const address = 'http://catalogue.test/p/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde';

  function openPublishing(views: SavedView[], publication: Publication | null, version = on) {
    signIn(me);
    const catalogue = catalogueDouble([buildSummary({ id: 'a/web', tags: 'web' })]);
    const sent: unknown[] = [];
    const calls: string[] = [];
    let current = publication;
    const rendered = renderApp({
      route: '/home?tags=web',
      version,
      handlers: {
        ...catalogue.handlers,
        'GET /views': () => jsonResponse({ views }),
        'GET /views/1/publish': () => jsonResponse({ publication: current }),
        'POST /views/1/publish': async (request) => {
          const body = (await request.json()) as { fields: PublicPageField[] };
          sent.push(body);
          current = {
            url: `${address.slice(0, -1)}${sent.length}`,
            fields: body.fields,
            include_rationales: false,
            published_at: '2026-11-29T05:00:00Z',
          };
          return jsonResponse(current, { status: 201 });
        },
        'DELETE /views/1/publish': () => {
          calls.push('DELETE');
          current = null;
          return new Response(null, { status: 204 });
        },
      },
    });
    return { ...rendered, sent, calls };
  }

  async function openMenu(user: ReturnType<typeof openPublishing>['user']) {
    await screen.findByText(/Showing 1 of 1 repositories/);
    await user.click(await screen.findByRole('button', { name: 'View: Web' }));
  }

  it('offers no Publish when public pages are off', async () => {
    const { user } = openPublishing([view({ shared: true })], null, testVersion);
    await openMenu(user);
    expect(await screen.findByRole('menuitem', { name: 'Make private' })).toBeVisible();
    expect(screen.queryByRole('menuitem', { name: 'Publish…' })).toBeNull();
  });

  it('publishes a shared view with exactly the fields ticked, then shows its address to copy and open', async () => {
    const { user, sent } = openPublishing([view({ shared: true })], null);
    await openMenu(user);
    await user.click(await screen.findByRole('menuitem', { name: 'Publish…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish “Web”' });
    // The defaults are ticked; notes are not, and say they are private.
    await within(dialog).findByRole('checkbox', { name: /^Description/ });
    for (const name of DEFAULT_PUBLIC_PAGE_FIELDS) {
      expect(within(dialog).getByRole('checkbox', { name: new RegExp(`^${name}`, 'i') })).toBeChecked();
    }
    const notes = within(dialog).getByRole('checkbox', { name: /private notes/ });
    expect(notes).not.toBeChecked();
    await user.click(within(dialog).getByRole('checkbox', { name: /^Health/ }));
    await user.click(within(dialog).getByRole('checkbox', { name: /^Tags/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Publish' }));
    await waitFor(() =>
      expect(sent).toEqual([{ fields: ['description', 'stars', 'growth', 'release', 'tags'] }]),
    );
    const url = await within(dialog).findByRole('textbox', { name: 'Public address' });
    expect(url).toHaveValue(`${address.slice(0, -1)}1`);
    expect(within(dialog).getByRole('button', { name: 'Copy the address' })).toBeVisible();
    expect(within(dialog).getByRole('link', { name: /Open/ })).toHaveAttribute(
      'href',
      `${address.slice(0, -1)}1`,
    );

    // Publishing again chooses the fields anew and gives a new address.
    await user.click(within(dialog).getByRole('button', { name: 'Publish again (new address)' }));
    await user.click(within(dialog).getByRole('checkbox', { name: /private notes/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Publish at a new address' }));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]).toEqual({ fields: ['description', 'stars', 'growth', 'release', 'tags', 'notes'] });
    expect(await within(dialog).findByRole('textbox', { name: 'Public address' })).toHaveValue(
      `${address.slice(0, -1)}2`,
    );
  });

  it('shows an existing address and unpublishes it', async () => {
    const publication: Publication = {
      url: address,
      fields: ['stars'],
      include_rationales: false,
      published_at: '2026-11-28T10:00:00Z',
    };
    const { user, calls, sent } = openPublishing([view({ shared: true })], publication);
    await openMenu(user);
    await user.click(await screen.findByRole('menuitem', { name: 'Publish…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish “Web”' });
    expect(await within(dialog).findByRole('textbox', { name: 'Public address' })).toHaveValue(address);
    expect(within(dialog).getByText(/Shows: stars\./)).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Unpublish' }));
    await waitFor(() => expect(calls).toEqual(['DELETE']));
    expect(await screen.findByText('“Web” is no longer public; its address answers 404.')).toBeVisible();
    expect(sent).toEqual([]);
  });

  it('explains that a private view must be shared first', async () => {
    const { user, fetchMock } = openPublishing([view({ shared: false })], null);
    await openMenu(user);
    await user.click(await screen.findByRole('menuitem', { name: 'Publish…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish “Web”' });
    expect(within(dialog).getByText(PUBLISH_PRIVATE_VIEW_MESSAGE)).toBeVisible();
    expect(within(dialog).queryByRole('checkbox')).toBeNull();
    expect(fetchMock.mock.calls.some(([input]) => String(input).includes('/publish'))).toBe(false);
  });
});
