import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { AdminStats, AdminSync, AdminUser, Backup } from '#shared/schemas/admin.ts';
import { catalogueDouble } from '../../../../test/web/catalogue-double.ts';
import {
  buildUser,
  type FetchHandler,
  jsonResponse,
  renderApp,
  setViewportWidth,
  signIn,
} from '../../../../test/web/render.tsx';
import { buildSummary } from '../../../../test/web/repository-fixtures.ts';

const stats: AdminStats = {
  users: { total: 12, active: 10, verified: 9, admin: 2, recent: 3 },
  repositories: { total: 40, users_with_repos: 5, avg_stars: 1234.5, total_stars: 49_380 },
};

function adminUser(overrides: Partial<AdminUser> = {}): AdminUser {
  return {
    ...buildUser(),
    repository_count: 0,
    ...overrides,
  };
}

const me = adminUser({
  id: 1,
  username: 'boss',
  email: 'boss@example.com',
  is_admin: true,
  repository_count: 4,
});
const bob = adminUser({ id: 2, username: 'bob', email: 'bob@example.com', repository_count: 7 });

const backups: Backup[] = [
  {
    name: 'backup-auto-2026-11-22T03-00-00Z.jsonl.gz',
    size_bytes: 1536,
    created: '2026-11-22T03:00:00.000Z',
    compressed: true,
    kind: 'auto',
  },
  {
    name: 'backup-manual-2026-11-21T10-00-00Z.jsonl.gz',
    size_bytes: 5 * 1024 * 1024,
    created: '2026-11-21T10:00:00.000Z',
    compressed: true,
    kind: 'manual',
  },
];

/** Every repository of the instance, private ones included: 60, so the list takes two pages. */
const adminRepositories = catalogueDouble(
  Array.from({ length: 60 }, (_, i) =>
    buildSummary({
      id: `org/project-${String(i).padStart(2, '0')}`,
      user_id: (i % 3) + 1,
      private: i === 1,
      stars: i * 10,
    }),
  ),
);

const syncState: AdminSync = {
  queued: 120,
  running: 25,
  jobs_waiting: 3,
  next_run_at: '2026-11-24T10:01:00.000Z',
  interval_hours: 24,
  tokens: [
    {
      owner: 'server',
      last_four: 'abcd',
      remaining: 4200,
      limit: 5000,
      reset_at: '2026-11-24T10:30:00.000Z',
      rest_per_min: 640,
      paused_until: null,
    },
    {
      owner: 'bob',
      last_four: 'wxyz',
      remaining: 10,
      limit: 5000,
      reset_at: '2026-11-24T10:45:00.000Z',
      rest_per_min: 0,
      paused_until: '2026-11-24T10:02:00.000Z',
    },
  ],
  recent_errors: [
    {
      repository_id: 'octo/broken',
      full_name: 'octo/broken',
      error: 'GitHub could not be reached.',
      failures: 3,
      at: '2026-11-24T09:50:00.000Z',
      next_due_at: '2026-11-24T10:50:00.000Z',
    },
  ],
  jobs: [
    {
      kind: 'repositories:sync-due',
      schedule: '* * * * *',
      next_run: '2026-11-24T10:01:00.000Z',
      waiting: 0,
      running: 1,
      failed_last_day: 0,
    },
    {
      kind: 'notifications:deliver',
      schedule: null,
      next_run: null,
      waiting: 4,
      running: 0,
      failed_last_day: 2,
    },
  ],
};

const error = (status: number, message: string, code = 'internal_error') =>
  jsonResponse({ message, code }, { status });

/** The admin API as the server answers it, with per-test overrides. */
function adminApi(overrides: Record<string, FetchHandler> = {}): Record<string, FetchHandler> {
  return {
    'GET /auth/me': () => jsonResponse({ user: me }),
    'GET /auth/admin/stats': () => jsonResponse(stats),
    'GET /auth/admin/sync': () => jsonResponse(syncState),
    'GET /auth/admin/users': () => jsonResponse({ users: [me, bob], total: 2, page: 1, per_page: 50 }),
    'GET /health/backups': () => jsonResponse({ backups }),
    'GET /auth/admin/repositories': adminRepositories.handlers[
      'GET /auth/admin/repositories'
    ] as FetchHandler,
    ...overrides,
  };
}

function openAdmin(route: string, overrides: Record<string, FetchHandler> = {}) {
  signIn(me);
  return renderApp({ route, handlers: adminApi(overrides) });
}

const calls = (fetchMock: ReturnType<typeof renderApp>['fetchMock'], method: string, path: string) =>
  fetchMock.mock.calls
    .map(([input, init]) => new Request(input as RequestInfo, init as RequestInit))
    .filter((request) => request.method === method && new URL(request.url).pathname === path);

describe('who may see it', () => {
  it("a member sees the denial with 'Return to Home', and no admin call is made", async () => {
    const member = signIn(buildUser({ id: 2, is_admin: false }));
    const { fetchMock } = renderApp({
      route: '/admin?tab=users',
      handlers: adminApi({ 'GET /auth/me': () => jsonResponse({ user: member }) }),
    });
    expect(await screen.findByText('Access denied. Admin privileges required.')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Return to Home' }).getAttribute('href')).toBe('#/home');
    expect(calls(fetchMock, 'GET', '/auth/admin/users')).toHaveLength(0);
    expect(calls(fetchMock, 'GET', '/auth/admin/stats')).toHaveLength(0);
  });

  it('a 403 from an admin call shows the denial screen (not a sign-out)', async () => {
    openAdmin('/admin', {
      'GET /auth/admin/stats': () => error(403, 'Access denied. Admin privileges required.', 'forbidden'),
    });
    expect(await screen.findByText('Access denied. Admin privileges required.')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Return to Home' })).toBeVisible();
    expect(window.location.hash).toBe('#/admin');
  });
});

describe('tabs follow the query string', () => {
  it('opens the overview by default, and a tab click writes ?tab=', async () => {
    const { user } = openAdmin('/admin');
    expect(await screen.findByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
    expect(screen.getByRole('tab', { name: 'Overview' }).getAttribute('aria-selected')).toBe('true');
    await user.click(screen.getByRole('tab', { name: 'Users' }));
    expect(window.location.hash).toBe('#/admin?tab=users');
    expect(await screen.findByRole('table', { name: 'Users' })).toBeVisible();
    await user.click(screen.getByRole('tab', { name: 'Settings' }));
    expect(window.location.hash).toBe('#/admin?tab=settings');
  });

  it.each([
    ['users', 'Users'],
    ['repositories', 'Repositories'],
    ['database', 'Database'],
    ['sign-in', 'Sign-in'],
    ['settings', 'Settings'],
    ['nonsense', 'Overview'],
  ])('?tab=%s selects %s', async (tab, label) => {
    openAdmin(`/admin?tab=${tab}`);
    const selected = await screen.findByRole('tab', { name: label });
    await waitFor(() => expect(selected.getAttribute('aria-selected')).toBe('true'));
  });
});

describe('overview', () => {
  it('shows user and repository counts', async () => {
    openAdmin('/admin?tab=overview');
    for (const [label, value] of [
      ['Total users', '12'],
      ['Active', '10'],
      ['Verified', '9'],
      ['Admins', '2'],
      ['New (30 days)', '3'],
      ['Total repositories', '40'],
      ['Users with repos', '5'],
      ['Total stars', '49,380'],
      ['Average stars', '1,234.5'],
    ]) {
      expect(await screen.findByRole('group', { name: `${label}: ${value}` })).toBeVisible();
    }
  });

  it("a 5xx says 'Server error occurred while loading statistics…' and Retry loads again", async () => {
    let fail = true;
    const { user } = openAdmin('/admin', {
      'GET /auth/admin/stats': () => (fail ? error(500, 'boom') : jsonResponse(stats)),
    });
    expect(
      await screen.findByText('Server error occurred while loading statistics. Please try again later.'),
    ).toBeVisible();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('group', { name: 'Total users: 12' })).toBeVisible();
  });

  it('shows the sync engine: due and running work, each token, the failing repositories', async () => {
    openAdmin('/admin');
    const section = await screen.findByRole('region', { name: 'Sync engine' });
    expect(await within(section).findByRole('group', { name: 'Due now: 120' })).toBeVisible();
    expect(within(section).getByRole('group', { name: 'Syncing: 25' })).toBeVisible();
    expect(within(section).getByRole('group', { name: 'Jobs waiting: 3' })).toBeVisible();
    const tokens = within(section).getByRole('table', { name: 'GitHub tokens' });
    // Its scroll box takes the focus, so a keyboard can scroll it on a phone.
    expect(within(section).getByRole('region', { name: 'GitHub tokens' }).getAttribute('tabindex')).toBe('0');
    const server = within(tokens).getByRole('row', { name: /server ····abcd/ });
    expect(within(server).getByText('4,200 of 5,000')).toBeVisible();
    expect(within(server).getByText('640')).toBeVisible();
    const bob = within(tokens).getByRole('row', { name: /bob ····wxyz/ });
    expect(within(bob).getByText(/^Paused until/)).toBeVisible();
    const failures = within(section).getByRole('table', { name: 'Repositories failing to sync' });
    expect(
      within(failures).getByRole('row', { name: /octo\/broken GitHub could not be reached\. 3/ }),
    ).toBeVisible();
    // Every kind of background work, scheduled or queued, with what failed today.
    const work = within(section).getByRole('table', { name: 'Kinds of background work' });
    expect(within(work).getByRole('row', { name: /repositories:sync-due \* \* \* \* \*/ })).toBeVisible();
    const deliveries = within(work).getByRole('row', { name: /notifications:deliver When queued/ });
    expect(within(deliveries).getByText('2')).toBeVisible();
  });

  it('a sync engine that fails to load leaves the counts, with its own Retry', async () => {
    openAdmin('/admin', { 'GET /auth/admin/sync': () => error(500, 'boom') });
    expect(
      await screen.findByText('Server error occurred while loading the sync engine. Please try again later.'),
    ).toBeVisible();
    expect(screen.getByRole('group', { name: 'Total users: 12' })).toBeVisible();
  });

  it("other failures say 'Failed to load admin data. Please try again.'", async () => {
    openAdmin('/admin', { 'GET /auth/admin/stats': () => error(400, 'nope', 'bad_request') });
    expect(await screen.findByText('Failed to load admin data. Please try again.')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeEnabled();
  });
});

describe('users', () => {
  it('loads page 1 with 50 per page and shows every column', async () => {
    const { fetchMock } = openAdmin('/admin?tab=users');
    const table = await screen.findByRole('table', { name: 'Users' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    expect(headers).toEqual([
      'ID',
      'Username',
      'Email',
      'Status',
      'Verified',
      'Admin',
      'Sign-in',
      'Repos',
      'Created',
      'Actions',
    ]);
    const request = calls(fetchMock, 'GET', '/auth/admin/users')[0];
    expect(new URL(request?.url ?? '').search).toBe('?page=1&per_page=50');
    const bobRow = within(table).getByText('bob').closest('tr');
    if (!(bobRow instanceof HTMLElement)) throw new Error('row not found');
    expect(within(bobRow).getByText('bob@example.com')).toBeVisible();
    expect(within(bobRow).getByText('7')).toBeVisible();
    expect(within(bobRow).getAllByText('Active')).toHaveLength(2);
    expect(screen.getByText('Showing 1–2 of 2 users')).toBeVisible();
  });

  it('a toggle flips locally on success and the statistics reload', async () => {
    const { user, fetchMock } = openAdmin('/admin?tab=users', {
      'PATCH /auth/admin/users/2': async (request) => {
        expect(await request.json()).toEqual({ is_verified: false });
        return jsonResponse({ user: { ...bob, is_verified: false } });
      },
    });
    const toggle = await screen.findByRole('switch', { name: 'Verified: bob' });
    expect((toggle as HTMLInputElement).checked).toBe(true);
    const statsCalls = calls(fetchMock, 'GET', '/auth/admin/stats').length;
    await user.click(toggle);
    await waitFor(() =>
      expect((screen.getByRole('switch', { name: 'Verified: bob' }) as HTMLInputElement).checked).toBe(false),
    );
    expect(screen.getByText('Unverified')).toBeVisible();
    // Only one PATCH, no reload of the users list.
    expect(calls(fetchMock, 'PATCH', '/auth/admin/users/2')).toHaveLength(1);
    expect(calls(fetchMock, 'GET', '/auth/admin/users')).toHaveLength(1);
    await waitFor(() =>
      expect(calls(fetchMock, 'GET', '/auth/admin/stats').length).toBeGreaterThan(statsCalls),
    );
  });

  it("a failed toggle shows 'Failed to update user {flag}. Please try again.' and keeps the flag", async () => {
    const { user } = openAdmin('/admin?tab=users', { 'PATCH /auth/admin/users/2': () => error(500, 'boom') });
    await user.click(await screen.findByRole('switch', { name: 'Admin: bob' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Failed to update user admin status. Please try again.')).toBeVisible();
    expect((screen.getByRole('switch', { name: 'Admin: bob' }) as HTMLInputElement).checked).toBe(false);
  });

  it("a refused change (409) shows the server's reason too", async () => {
    const reason =
      'This is the last active admin: promote another user to admin before demoting or deactivating this one.';
    const { user } = openAdmin('/admin?tab=users', {
      'PATCH /auth/admin/users/2': () => error(409, reason, 'conflict'),
    });
    await user.click(await screen.findByRole('switch', { name: 'Active: bob' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Failed to update user status. Please try again.')).toBeVisible();
    expect(within(alert).getByText(reason)).toBeVisible();
  });

  it('an admin cannot deactivate or demote themselves from the table', async () => {
    openAdmin('/admin?tab=users');
    expect((await screen.findByRole('switch', { name: 'Active: boss' })).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('switch', { name: 'Admin: boss' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('switch', { name: 'Verified: boss' }).hasAttribute('disabled')).toBe(false);
  });

  it('searches on the server and filters by status', async () => {
    const { user, fetchMock } = openAdmin('/admin?tab=users', {
      'GET /auth/admin/users': (request) => {
        const search = new URL(request.url).searchParams.get('search');
        const users = search ? [bob] : [me, bob];
        return jsonResponse({ users, total: users.length, page: 1, per_page: 50 });
      },
    });
    await user.type(await screen.findByRole('textbox', { name: 'Search users' }), 'bo b');
    await waitFor(() => expect(screen.queryByText('boss')).toBeNull());
    const searched = calls(fetchMock, 'GET', '/auth/admin/users').at(-1);
    expect(new URL(searched?.url ?? '').searchParams.get('search')).toBe('bo b');
    await user.click(screen.getByRole('radio', { name: 'Inactive' }));
    await waitFor(() =>
      expect(
        new URL(calls(fetchMock, 'GET', '/auth/admin/users').at(-1)?.url ?? '').searchParams.get('is_active'),
      ).toBe('false'),
    );
  });

  it('on a phone, one card per user with the same fields and toggles', async () => {
    setViewportWidth(375);
    const { user } = openAdmin('/admin?tab=users', {
      'PATCH /auth/admin/users/2': () => jsonResponse({ user: { ...bob, is_active: false } }),
    });
    const list = await screen.findByRole('list', { name: 'Users' });
    expect(screen.queryByRole('table', { name: 'Users' })).toBeNull();
    const card = within(list).getByRole('listitem', { name: 'bob' });
    expect(within(card).getByText('bob@example.com')).toBeVisible();
    expect(within(card).getByText('7 repositories · created', { exact: false })).toBeVisible();
    await user.click(within(card).getByRole('switch', { name: 'Active: bob' }));
    expect(await within(card).findByText('Inactive')).toBeVisible();
  });

  it("a 5xx says 'Server error occurred while loading users…'", async () => {
    openAdmin('/admin?tab=users', {
      'GET /auth/admin/users': () => error(503, 'down', 'service_unavailable'),
    });
    expect(
      await screen.findByText('Server error occurred while loading users. Please try again later.'),
    ).toBeVisible();
  });
});

describe('repositories', () => {
  it("shows the counts and the tools that don't exist yet, disabled and 'Coming Soon'", async () => {
    openAdmin('/admin?tab=repositories');
    expect(await screen.findByRole('group', { name: 'Total repositories: 40' })).toBeVisible();
    expect(screen.getByRole('group', { name: 'Users with repos: 5' })).toBeVisible();
    const soon = screen.getAllByText('Coming Soon');
    expect(soon.length).toBeGreaterThanOrEqual(3);
    for (const name of ['Sync all repositories', 'Bulk tag editor']) {
      expect(screen.getByRole('button', { name }).hasAttribute('disabled')).toBe(true);
    }
  });

  it("a 5xx says 'Server error occurred while loading repositories…'", async () => {
    openAdmin('/admin?tab=repositories', { 'GET /auth/admin/stats': () => error(500, 'boom') });
    expect(
      await screen.findByText('Server error occurred while loading repositories. Please try again later.'),
    ).toBeVisible();
  });

  it('pages through every repository, private ones included, 50 at a time, and searches on the server', async () => {
    const { user, fetchMock } = openAdmin('/admin?tab=repositories');
    const list = await screen.findByRole('table', { name: 'All repositories' });
    expect(screen.getByText('Showing 50 of 60 repositories')).toBeVisible();
    expect(within(list).getAllByRole('row')).toHaveLength(51);
    const privateRow = within(list)
      .getByRole('link', { name: 'org/project-01' })
      .closest('tr') as HTMLElement;
    expect(within(privateRow).getByText('Private')).toBeVisible();
    const pages = () =>
      calls(fetchMock, 'GET', '/auth/admin/repositories').map((request) =>
        Object.fromEntries(new URL(request.url).searchParams),
      );
    expect(pages()).toEqual([{ sort: 'name', order: 'asc', limit: '50' }]);

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Showing 60 of 60 repositories')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(pages()[1]?.cursor).toBeTruthy();

    await user.type(screen.getByRole('searchbox', { name: 'Search all repositories' }), 'project-5');
    expect(await screen.findByText('Showing 10 of 10 repositories')).toBeVisible();
    expect(pages().at(-1)).toEqual({ q: 'project-5', sort: 'name', order: 'asc', limit: '50' });
  });

  it('a 5xx on the list says so, with Retry', async () => {
    let failed = false;
    const { user } = openAdmin('/admin?tab=repositories', {
      'GET /auth/admin/repositories': (request) => {
        if (failed) return adminRepositories.handlers['GET /auth/admin/repositories']?.(request) as Response;
        failed = true;
        return error(500, 'boom');
      },
    });
    const alert = await screen.findByRole('alert');
    expect(
      within(alert).getByText('Server error occurred while loading repositories. Please try again later.'),
    ).toBeVisible();
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Showing 50 of 60 repositories')).toBeVisible();
  });
});

describe('database', () => {
  it('lists backups with sizes in KB / MB', async () => {
    openAdmin('/admin?tab=database');
    const table = await screen.findByRole('table', { name: 'Backups' });
    expect(within(table).getByText('backup-auto-2026-11-22T03-00-00Z.jsonl.gz')).toBeVisible();
    expect(within(table).getByText('1.5 KB')).toBeVisible();
    expect(within(table).getByText('5 MB')).toBeVisible();
    expect(within(table).getByText('Automatic')).toBeVisible();
    expect(within(table).getByText('Manual')).toBeVisible();
  });

  it('a manual backup reports its name and the list reloads', async () => {
    const { user, fetchMock } = openAdmin('/admin?tab=database', {
      'POST /health/backup': () =>
        jsonResponse({
          backup_path: 'x.jsonl.gz',
          name: 'backup-manual-2026-11-22T09-30-00Z.jsonl.gz',
        }),
    });
    await screen.findByRole('table', { name: 'Backups' });
    await user.click(screen.getByRole('button', { name: 'Create Backup' }));
    expect(
      await screen.findByText('✅ Backup created: backup-manual-2026-11-22T09-30-00Z.jsonl.gz'),
    ).toBeVisible();
    await waitFor(() => expect(calls(fetchMock, 'GET', '/health/backups')).toHaveLength(2));
  });

  it("failures say '❌ Backup failed: …' and '❌ Auto backup failed: …'", async () => {
    const { user } = openAdmin('/admin?tab=database', {
      'POST /health/backup': () => error(500, 'An unexpected error occurred. Please try again.'),
      'POST /health/backup/auto': () => error(507, 'Disk full'),
    });
    await screen.findByRole('table', { name: 'Backups' });
    await user.click(screen.getByRole('button', { name: 'Create Backup' }));
    expect(
      await screen.findByText('❌ Backup failed: An unexpected error occurred. Please try again.'),
    ).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Run Automatic Backup' }));
    expect(await screen.findByText('❌ Auto backup failed: Disk full')).toBeVisible();
  });

  it("a failed list says 'Error loading backups: …' with Retry", async () => {
    openAdmin('/admin?tab=database', { 'GET /health/backups': () => error(500, 'Disk unreadable') });
    expect(await screen.findByText('Error loading backups: Disk unreadable')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeEnabled();
  });

  it('deletes only after confirmation', async () => {
    const name = 'backup-manual-2026-11-21T10-00-00Z.jsonl.gz';
    const { user, fetchMock } = openAdmin('/admin?tab=database', {
      [`DELETE /health/backups/${name}`]: () => jsonResponse({ message: `Backup ${name} deleted` }),
    });
    await user.click(await screen.findByRole('button', { name: `Delete ${name}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this backup?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls(fetchMock, 'DELETE', `/health/backups/${name}`)).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: `Delete ${name}` }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(`✅ Backup ${name} deleted.`)).toBeVisible();
    expect(calls(fetchMock, 'DELETE', `/health/backups/${name}`)).toHaveLength(1);
  });

  it('downloads with the bearer token', async () => {
    const name = 'backup-auto-2026-11-22T03-00-00Z.jsonl.gz';
    const { user, fetchMock } = openAdmin('/admin?tab=database', {
      [`GET /health/backups/${name}`]: () =>
        new Response(new Uint8Array([31, 139, 8]), { headers: { 'Content-Type': 'application/gzip' } }),
    });
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:backup');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    // The browser's download itself is not part of the test (happy-dom would navigate).
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    await user.click(await screen.findByRole('button', { name: `Download ${name}` }));
    await waitFor(() => expect(saved).toEqual([name]));
    expect(calls(fetchMock, 'GET', `/health/backups/${name}`)[0]?.headers.get('Authorization')).toBe(
      'Bearer test-access-token',
    );
  });
});

describe('settings', () => {
  it("is a 'Coming Soon' placeholder", async () => {
    openAdmin('/admin?tab=settings');
    expect(await screen.findByRole('heading', { name: 'System Settings' })).toBeVisible();
    expect(screen.getByText('Coming Soon')).toBeVisible();
  });
});

describe('single sign-on', () => {
  const signInState = {
    password_login: false,
    oidc: {
      enabled: true,
      issuer: 'https://sso.example.com',
      client_id: 'catalogue',
      scopes: 'openid email profile groups',
      admin_groups: ['catalogue-admins'],
      create_accounts: true,
      discovery: {
        status: 'ok',
        checked_at: '2026-11-24T09:00:00.000Z',
        error: null,
        authorization_endpoint: 'https://sso.example.com/authorize',
        token_endpoint: 'https://sso.example.com/token',
        userinfo_endpoint: 'https://sso.example.com/userinfo',
        end_session_endpoint: null,
        jwks_uri: 'https://sso.example.com/jwks.json',
      },
    },
    events: [
      {
        id: 3,
        at: '2026-11-24T09:30:00.000Z',
        reason: 'email_unverified',
        detail: 'The provider has not verified the e-mail address.',
        username: null,
      },
    ],
  };

  it('the Sign-in tab shows password login, the provider, discovery and the failed sign-ins', async () => {
    openAdmin('/admin?tab=sign-in', { 'GET /auth/admin/sign-in': () => jsonResponse(signInState) });
    const methods = await screen.findByRole('region', { name: 'Sign-in methods' });
    const passwordRow = within(methods).getByText('Password login').closest('div') as HTMLElement;
    expect(within(passwordRow).getByText('Off')).toBeVisible();
    const provider = screen.getByRole('region', { name: 'Provider' });
    expect(within(provider).getByText('Discovered')).toBeVisible();
    expect(within(provider).getByText('https://sso.example.com')).toBeVisible();
    expect(within(provider).getByText('catalogue-admins')).toBeVisible();
    expect(within(provider).getByText('https://sso.example.com/token')).toBeVisible();
    const failures = screen.getByRole('table', { name: 'Recent failed sign-ins' });
    expect(within(failures).getByText('email_unverified')).toBeVisible();
    expect(within(failures).getByText('The provider has not verified the e-mail address.')).toBeVisible();
  });

  it('shows a failed discovery with its error', async () => {
    openAdmin('/admin?tab=sign-in', {
      'GET /auth/admin/sign-in': () =>
        jsonResponse({
          ...signInState,
          oidc: {
            ...signInState.oidc,
            discovery: {
              ...signInState.oidc.discovery,
              status: 'error',
              error: 'getaddrinfo ENOTFOUND sso.example.com',
              token_endpoint: null,
            },
          },
          events: [],
        }),
    });
    expect(await screen.findByText('Discovery failed')).toBeVisible();
    expect(screen.getByText('getaddrinfo ENOTFOUND sso.example.com')).toBeVisible();
    expect(screen.queryByText('Token endpoint')).toBeNull();
    expect(screen.getByText('No failed single sign-on sign-ins recently.')).toBeVisible();
  });

  it("lists each user's sign-in methods, and the admin switch follows the provider's groups", async () => {
    const carol = adminUser({
      id: 3,
      username: 'carol',
      email: 'carol@example.com',
      sign_in_methods: ['sso'],
      admin_follows_groups: true,
    });
    const dave = adminUser({
      id: 4,
      username: 'dave',
      email: 'dave@example.com',
      sign_in_methods: ['password', 'sso'],
      admin_follows_groups: false,
    });
    openAdmin('/admin?tab=users', {
      'GET /auth/admin/users': () =>
        jsonResponse({ users: [me, carol, dave], total: 3, page: 1, per_page: 50 }),
    });
    const table = await screen.findByRole('table', { name: 'Users' });
    const row = (name: string) => within(table).getByText(name).closest('tr') as HTMLElement;
    expect(within(row('carol')).getByLabelText('Sign-in methods: SSO')).toBeVisible();
    expect(within(row('dave')).getByLabelText('Sign-in methods: Password, SSO')).toBeVisible();
    const carolAdmin = within(row('carol')).getByRole('switch', { name: 'Admin: carol' });
    expect(carolAdmin).toBeDisabled();
    expect(carolAdmin.getAttribute('aria-description')).toBe("Follows the provider's groups");
    expect(within(row('dave')).getByRole('switch', { name: 'Admin: dave' })).toBeEnabled();
  });

  it('says so on a phone, where no tooltip shows', async () => {
    setViewportWidth(375);
    const carol = adminUser({
      id: 3,
      username: 'carol',
      sign_in_methods: ['sso'],
      admin_follows_groups: true,
    });
    openAdmin('/admin?tab=users', {
      'GET /auth/admin/users': () => jsonResponse({ users: [me, carol], total: 2, page: 1, per_page: 50 }),
    });
    const card = await screen.findByRole('listitem', { name: 'carol' });
    expect(within(card).getByText("Admin: follows the provider's groups")).toBeVisible();
    expect(within(card).getByLabelText('Sign-in methods: SSO')).toBeVisible();
    expect(within(card).getByRole('switch', { name: 'Admin: carol' })).toBeDisabled();
  });
});
