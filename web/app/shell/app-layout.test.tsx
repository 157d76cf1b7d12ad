import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '#shared/constants.ts';
import {
  buildUser,
  jsonResponse,
  renderApp,
  setViewportWidth,
  signIn,
  testVersion,
} from '../../../test/web/render.tsx';

async function findSidebar() {
  return screen.findByRole('navigation', { name: 'Main navigation' });
}

describe('top bar', () => {
  it('links the brand to / with the app name from /version; visitors get Sign In, not Add', async () => {
    renderApp({ route: '/tags' });
    const brand = await screen.findByRole('link', { name: 'Team Catalogue' });
    expect(brand.getAttribute('href')).toBe('#/');
    const banner = screen.getByRole('banner');
    expect(within(banner).getByRole('link', { name: 'Sign In' }).getAttribute('href')).toBe('#/login');
    expect(within(banner).queryByRole('link', { name: 'Add Repository' })).toBeNull();
  });

  it("falls back to 'Repository Tracker' when /version fails", async () => {
    renderApp({ route: '/tags', handlers: { 'GET /version': () => new Response('oops', { status: 500 }) } });
    expect(await screen.findByRole('link', { name: 'Repository Tracker' })).toBeVisible();
  });

  it('offers members Add Repository, going to /add', async () => {
    signIn();
    renderApp({ route: '/home' });
    const add = await screen.findByRole('link', { name: 'Add Repository' });
    expect(add.getAttribute('href')).toBe('#/add');
  });

  it('switches between light and dark and remembers the choice', async () => {
    const { user } = renderApp({ route: '/login' });
    await user.click(await screen.findByRole('button', { name: 'Switch to dark mode' }));
    expect(localStorage.getItem(STORAGE_KEYS.colorScheme)).toBe('dark');
    expect(document.documentElement.getAttribute('data-mantine-color-scheme')).toBe('dark');
    await user.click(screen.getByRole('button', { name: 'Switch to light mode' }));
    expect(localStorage.getItem(STORAGE_KEYS.colorScheme)).toBe('light');
  });
});

describe('landmarks', () => {
  it('has header, navigation, main and footer, and a skip link to the main content', async () => {
    signIn();
    const { user } = renderApp({ route: '/home' });
    await findSidebar();
    expect(screen.getByRole('banner')).toBeVisible();
    expect(screen.getByRole('contentinfo')).toBeVisible();
    const main = screen.getByRole('main');
    await user.click(screen.getByRole('button', { name: 'Skip to content' }));
    expect(document.activeElement).toBe(main);
  });
});

describe('sidebar', () => {
  it('is not shown to anonymous visitors', async () => {
    renderApp({ route: '/tags' });
    await screen.findByRole('heading', { name: 'Authentication Required' });
    expect(screen.queryByRole('navigation', { name: 'Main navigation' })).toBeNull();
  });

  it('links Repositories, Tags and Statistics; Repositories is active on /home', async () => {
    signIn();
    renderApp({ route: '/home' });
    const nav = await findSidebar();
    const link = (name: string) => within(nav).getByRole('link', { name });
    expect(link('Repositories').getAttribute('href')).toBe('#/home');
    expect(link('Tags').getAttribute('href')).toBe('#/tags');
    expect(link('Statistics').getAttribute('href')).toBe('#/stats');
    expect(link('Repositories').getAttribute('aria-current')).toBe('page');
    expect(link('Tags').getAttribute('aria-current')).toBeNull();
  });

  it('highlights Repositories on an unknown path, which shows the list', async () => {
    signIn();
    renderApp({ route: '/no/such/page' });
    const nav = await findSidebar();
    expect(
      within(nav)
        .getByRole('link', { name: /^Repositories/ })
        .getAttribute('aria-current'),
    ).toBe('page');
  });

  it("labels the Repositories count as the member's own", async () => {
    signIn();
    renderApp({
      route: '/home',
      handlers: { 'GET /repositories/counts': () => jsonResponse({ total: 275, mine: 0, tags: 4 }) },
    });
    const nav = await findSidebar();
    expect(await within(nav).findByText('0 added by you')).toBeVisible();
    expect(within(nav).getByRole('link', { name: 'Repositories 0 added by you' })).toBeVisible();
  });

  it('counts the decisions due for review on Radar, and shows no badge while none is', async () => {
    signIn();
    const due = (id: number) => ({
      repository_id: `o/r${id}`,
      full_name: `o/r${id}`,
      review_by: '2026-11-01',
      decision_id: id,
    });
    renderApp({
      route: '/home',
      handlers: { 'GET /decisions/reviews-due': () => jsonResponse({ reviews_due: [due(1), due(2)] }) },
    });
    const nav = await findSidebar();
    expect(await within(nav).findByLabelText('2 reviews due')).toBeVisible();
    expect(within(nav).getByRole('link', { name: /^Radar/ })).toHaveAttribute('href', '#/radar');
  });

  it('keeps the whole Repositories label: its count goes on a line under it, not beside it', async () => {
    signIn();
    renderApp({
      route: '/home',
      handlers: { 'GET /repositories/counts': () => jsonResponse({ total: 99_999, mine: 12_345, tags: 4 }) },
    });
    const nav = await findSidebar();
    const link = within(nav).getByRole('link', { name: /^Repositories/ });
    await within(link).findByText(/12,345/);
    // The 240 px sidebar leaves the label about 150 px beside its icon; a '1,234 mine' badge beside
    // it took half of that, and the label read 'Repositor…' at 1280 px (issue 23).
    expect(link.querySelector('[data-position="right"]')).toBeNull();
    expect(within(link).getByText('Repositories')).toBeVisible();
    expect(within(link).getByText('12,345 added by you')).toBeVisible();
    expect(link).toHaveAccessibleName('Repositories 12,345 added by you');
    // Tags' short number still fits beside its label.
    const tags = within(nav).getByRole('link', { name: /^Tags/ });
    expect(tags.querySelector('[data-position="right"]')).toHaveTextContent('4');
  });

  it('collapses to icons, stores the state, and starts collapsed next time', async () => {
    signIn();
    const first = renderApp({ route: '/home' });
    const nav = await findSidebar();
    expect(within(nav).getByText('Repositories')).toBeVisible();

    await first.user.click(within(nav).getByRole('button', { name: 'Collapse sidebar' }));

    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.sidebar) ?? 'null')).toEqual({
      isCollapsed: true,
      isMobile: false,
    });
    // Labels are gone from view but stay in the links' accessible names.
    expect(within(nav).queryByText('Repositories')).toBeNull();
    expect(within(nav).getByRole('link', { name: 'Repositories' })).toBeVisible();
    first.unmount();

    renderApp({ route: '/home' });
    const again = await findSidebar();
    const expand = within(again).getByRole('button', { name: 'Expand sidebar' });
    expect(expand.getAttribute('aria-expanded')).toBe('false');
  });

  it('shows the member with the first letter of the first name, and signs out', async () => {
    signIn(buildUser({ first_name: 'zoë', last_name: 'Quinn', email: 'zoe@example.com' }));
    const { user } = renderApp({ route: '/home' });
    const nav = await findSidebar();
    expect(within(nav).getByText('Z')).toBeVisible();
    expect(within(nav).getByText('zoë Quinn')).toBeVisible();
    expect(within(nav).getByText('zoe@example.com')).toBeVisible();
    expect(within(nav).queryByText('Admin')).toBeNull();

    await user.click(within(nav).getByRole('button', { name: /zoë Quinn/ }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'Profile' }).getAttribute('href')).toBe('#/profile');
    expect(within(menu).getByRole('menuitem', { name: 'Settings' }).getAttribute('href')).toBe('#/settings');
    expect(within(menu).queryByRole('menuitem', { name: 'User Management' })).toBeNull();
    expect(within(menu).queryByText('Administration')).toBeNull();

    await user.click(within(menu).getByRole('menuitem', { name: 'Sign Out' }));
    expect(await screen.findByRole('link', { name: 'Get Started' })).toBeVisible();
    expect(window.location.hash).toBe('#/');
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.user)).toBeNull();
    expect(screen.queryByRole('navigation', { name: 'Main navigation' })).toBeNull();
  });

  it('gives admins a badge and the Administration items', async () => {
    signIn(buildUser({ is_admin: true }));
    const { user } = renderApp({ route: '/home' });
    const nav = await findSidebar();
    expect(within(nav).getByText('Admin')).toBeVisible();

    await user.click(within(nav).getByRole('button', { name: /Alice Smith/ }));
    const menu = await screen.findByRole('menu');
    const items = [
      ['Dashboard', 'overview'],
      ['User Management', 'users'],
      ['Repository Tools', 'repositories'],
      ['Database Management', 'database'],
      ['System Settings', 'settings'],
    ];
    for (const [name, tab] of items) {
      expect(within(menu).getByRole('menuitem', { name }).getAttribute('href')).toBe(`#/admin?tab=${tab}`);
    }
  });
});

describe('sidebar on phones (≤ 768 px)', () => {
  const overlay = () => document.querySelector('.mantine-Overlay-root');

  async function renderOnPhone() {
    setViewportWidth(375);
    signIn();
    const rendered = renderApp({ route: '/home' });
    const nav = await findSidebar();
    const burger = screen.getByRole('button', { name: 'Open navigation' });
    return { ...rendered, nav, burger };
  }

  it('starts closed, with no collapse toggle, and is stored as mobile', async () => {
    const { nav, burger } = await renderOnPhone();
    expect(burger.getAttribute('aria-expanded')).toBe('false');
    expect(overlay()).toBeNull();
    expect(within(nav).queryByRole('button', { name: /sidebar/ })).toBeNull();
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.sidebar) ?? 'null')).toMatchObject({
      isMobile: true,
    });
  });

  it('opens from the menu button and closes on Escape', async () => {
    const { user, burger } = await renderOnPhone();
    await user.click(burger);
    expect(screen.getByRole('button', { name: 'Close navigation' }).getAttribute('aria-expanded')).toBe(
      'true',
    );
    expect(overlay()).not.toBeNull();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('button', { name: 'Open navigation' })).toBeEnabled();
    expect(overlay()).toBeNull();
  });

  it('closes on a click outside it', async () => {
    const { user, burger } = await renderOnPhone();
    await user.click(burger);
    const backdrop = overlay();
    if (!(backdrop instanceof HTMLElement)) throw new Error('no overlay');
    await user.click(backdrop);
    expect(screen.getByRole('button', { name: 'Open navigation' })).toBeEnabled();
  });

  it('closes on navigation', async () => {
    const { user, nav, burger } = await renderOnPhone();
    await user.click(burger);
    await user.click(within(nav).getByRole('link', { name: 'Statistics' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Statistics' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Open navigation' })).toBeEnabled();
    expect(overlay()).toBeNull();
  });
});

describe('footer', () => {
  it('shows the app name, version and the commit shortened to 7 characters', async () => {
    renderApp({ route: '/login' });
    const footer = await screen.findByRole('contentinfo');
    await waitFor(() => expect(footer.textContent).toContain('v1.2.3'));
    expect(footer.textContent).toContain('Team Catalogue');
    expect(within(footer).getByText('commit 0123456')).toBeVisible();
    expect(footer.textContent).not.toContain(testVersion.git_commit);
  });

  it('hides the commit when the build does not know it', async () => {
    renderApp({ route: '/login', version: { ...testVersion, git_commit: null } });
    const footer = await screen.findByRole('contentinfo');
    await waitFor(() => expect(footer.textContent).toContain('v1.2.3'));
    expect(footer.textContent).not.toMatch(/commit/i);
  });
});
