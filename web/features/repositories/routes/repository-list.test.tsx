import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { encodeRouteId } from '../../../../shared/route-id.ts';
import type { RepositorySummary } from '../../../../shared/schemas/repositories.ts';
import { errorResponse, renderApp, setViewportWidth, signIn } from '../../../../test/web/render.tsx';
import { buildSummary, listResponse } from '../../../../test/web/repository-fixtures.ts';

afterEach(() => {
  vi.useRealTimers();
});

/** 25 rows whose last commits run from 2026-01-02 (row 1) to 2026-01-26 (row 25). */
function rows(count = 25): RepositorySummary[] {
  return Array.from({ length: count }, (_, i) =>
    buildSummary({
      id: `owner/repo-${String(i + 1).padStart(2, '0')}`,
      stars: (i * 37) % 101,
      last_commit: new Date(Date.UTC(2026, 0, 2 + i)).toISOString(),
    }),
  );
}

function openList(data: RepositorySummary[] = rows()) {
  signIn();
  return renderApp({ route: '/home', handlers: { 'GET /repositories/': listResponse(data) } });
}

function table() {
  return screen.getByRole('table', { name: 'Repositories' });
}

function rowNames(): string[] {
  return within(table())
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('link')[0]?.textContent ?? '');
}

describe('repository list: loading and empty states', () => {
  it("says 'Loading repositories...' while the list loads, then shows 'Showing 10 of 25 repositories'", async () => {
    signIn();
    let answer: (response: Response) => void = () => {};
    renderApp({
      route: '/home',
      handlers: { 'GET /repositories/': () => new Promise<Response>((resolve) => (answer = resolve)) },
    });
    expect(await screen.findByText('Loading repositories...')).toBeVisible();
    await act(async () => answer(listResponse(rows())()));
    expect(await screen.findByText('Showing 10 of 25 repositories')).toBeVisible();
    expect(rowNames()).toHaveLength(10);
  });

  it('invites adding repositories when there are none', async () => {
    openList([]);
    expect(await screen.findByText('No repositories yet.')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Add Repositories' }).getAttribute('href')).toBe('#/add');
  });

  it('offers Retry when the list fails to load', async () => {
    signIn();
    let calls = 0;
    renderApp({
      route: '/home',
      handlers: {
        'GET /repositories/': () => {
          calls += 1;
          return calls === 1 ? errorResponse(500, 'Database is down') : listResponse(rows(3))();
        },
      },
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Failed to load repositories: Database is down');
    await act(async () => within(alert).getByRole('button', { name: 'Retry' }).click());
    expect(await screen.findByText('Showing 3 of 3 repositories')).toBeVisible();
  });
});

describe('repository list: sorting', () => {
  it('sorts by last commit, newest first, by default', async () => {
    openList();
    await screen.findByText('Showing 10 of 25 repositories');
    expect(rowNames().slice(0, 3)).toEqual(['repo-25', 'repo-24', 'repo-23']);
    const header = screen.getByRole('columnheader', { name: /Last Commit/ });
    expect(header.getAttribute('aria-sort')).toBe('descending');
  });

  it('toggles the same column and gives a new column its default direction', async () => {
    const { user } = openList();
    await screen.findByText('Showing 10 of 25 repositories');
    const sortBy = (name: string) => user.click(screen.getByRole('button', { name }));
    const direction = (name: string) =>
      screen.getByRole('columnheader', { name: new RegExp(name) }).getAttribute('aria-sort');

    await sortBy('Name');
    expect(direction('Name')).toBe('ascending');
    expect(direction('Last Commit')).toBe('none');
    expect(rowNames().slice(0, 2)).toEqual(['repo-01', 'repo-02']);
    await sortBy('Name');
    expect(direction('Name')).toBe('descending');
    expect(rowNames()[0]).toBe('repo-25');

    // Stars and last sync start descending; last commit, description and licence ascending.
    await sortBy('Stars');
    expect(direction('Stars')).toBe('descending');
    await sortBy('Last Updated');
    expect(direction('Last Updated')).toBe('descending');
    await sortBy('Last Commit');
    expect(direction('Last Commit')).toBe('ascending');
    expect(rowNames()[0]).toBe('repo-01');
    await sortBy('License');
    expect(direction('License')).toBe('ascending');
    await sortBy('Description');
    expect(direction('Description')).toBe('ascending');
  });

  it('keeps rows without a last commit at the end', async () => {
    const data = [buildSummary({ id: 'a/never', last_commit: null }), ...rows(3)];
    const { user } = openList(data);
    await screen.findByText('Showing 4 of 4 repositories');
    expect(rowNames().at(-1)).toBe('never');
    await user.click(screen.getByRole('button', { name: 'Last Commit' }));
    expect(rowNames().at(-1)).toBe('never');
    expect(within(table()).getAllByText('Never').length).toBeGreaterThan(0);
  });
});

describe('repository list: search', () => {
  it('matches name, description, id, tags and licence, case-insensitively', async () => {
    const data = [
      buildSummary({ id: 'facebook/react', description: 'A UI library', tags: 'frontend', license: 'MIT' }),
      buildSummary({
        id: 'vuejs/core',
        description: 'Progressive framework',
        tags: 'Frontend,vue',
        license: 'MIT',
      }),
      buildSummary({ id: 'torvalds/linux', description: 'Kernel', tags: 'os', license: 'GPL-2.0' }),
    ];
    const { user } = openList(data);
    await screen.findByText('Showing 3 of 3 repositories');
    const search = screen.getByRole('searchbox', { name: 'Search repositories' });

    await user.type(search, 'REACT');
    await waitFor(() => expect(rowNames()).toEqual(['react']));
    await user.clear(search);
    await user.type(search, 'progressive');
    await waitFor(() => expect(rowNames()).toEqual(['core']));
    await user.clear(search);
    await user.type(search, 'torvalds/');
    await waitFor(() => expect(rowNames()).toEqual(['linux']));
    await user.clear(search);
    await user.type(search, 'frontend');
    await waitFor(() => expect(screen.getByText('Showing 2 of 2 repositories')).toBeVisible());
    await user.clear(search);
    await user.type(search, 'gpl');
    await waitFor(() => expect(rowNames()).toEqual(['linux']));
    await user.type(search, 'xyz');
    expect(await screen.findByText('No repositories match “gplxyz”.')).toBeVisible();
    expect(screen.getByText('Showing 0 of 0 repositories')).toBeVisible();
  });
});

describe('repository list: rows', () => {
  it('links each name to its detail page and shows stars as k/M, licence badges and relative ages', async () => {
    openList([
      buildSummary({
        id: 'big/stars',
        stars: 123_456,
        license: '',
        last_synced: null,
        gone: true,
        archived: true,
      }),
    ]);
    await screen.findByText('Showing 1 of 1 repositories');
    const row = within(table()).getAllByRole('row')[1] as HTMLElement;
    expect(within(row).getByRole('link', { name: 'stars' }).getAttribute('href')).toBe(
      `#/repo/${encodeRouteId('big/stars')}`,
    );
    expect(within(row).getByText('123.5k')).toBeVisible();
    expect(within(row).getByText('No License')).toBeVisible();
    expect(within(row).getByText('Never')).toBeVisible();
    expect(within(row).getByText('Gone from GitHub')).toBeVisible();
    expect(within(row).getByText('Archived')).toBeVisible();
  });
});

describe('repository list: incremental display', () => {
  it('adds 10 rows at a time, fills a window that has room, and keeps only the visible rows in the DOM', async () => {
    openList(rows(55));
    await screen.findByText('Showing 10 of 55 repositories');
    // happy-dom lays nothing out, so the end of the list always looks near: it auto-fills.
    expect(await screen.findByText('Showing 20 of 55 repositories', {}, { timeout: 3000 })).toBeVisible();
    await waitFor(() => expect(screen.getByText('Showing 55 of 55 repositories')).toBeVisible(), {
      timeout: 5000,
    });
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
    // Virtualised: only the rows near the 768 px window (plus overscan) are in the DOM, not all 55.
    const rendered = rowNames();
    expect(rendered.length).toBeGreaterThan(10);
    expect(rendered.length).toBeLessThan(45);
    expect(table().getAttribute('aria-rowcount')).toBe('56');
  });

  it('offers Show more for keyboard users', async () => {
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue({
      top: 5000,
      bottom: 5001,
      left: 0,
      right: 0,
      width: 0,
      height: 1,
      x: 0,
      y: 5000,
      toJSON: () => ({}),
    });
    const { user } = openList();
    await screen.findByText('Showing 10 of 25 repositories');
    await user.click(screen.getByRole('button', { name: 'Show more' }));
    expect(screen.getByText('Showing 20 of 25 repositories')).toBeVisible();
  });
});

describe('repository list: card view', () => {
  it('switches to cards, 3 per row by default, then 2 or 4', async () => {
    const { user } = openList(rows(6));
    await screen.findByText('Showing 6 of 6 repositories');
    await user.click(screen.getByRole('radio', { name: 'Cards' }));
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getAllByRole('article')).toHaveLength(6);
    const perRow = screen.getByRole('radiogroup', { name: 'Cards per row' });
    expect((within(perRow).getByRole('radio', { name: '3' }) as HTMLInputElement).checked).toBe(true);
    await user.click(within(perRow).getByRole('radio', { name: '4' }));
    expect((within(perRow).getByRole('radio', { name: '4' }) as HTMLInputElement).checked).toBe(true);
    await user.click(screen.getByRole('radio', { name: 'List' }));
    expect(table()).toBeVisible();
  });

  it('forces cards at 768 px or narrower, without the view switch', async () => {
    setViewportWidth(768);
    openList(rows(4));
    await screen.findByText('Showing 4 of 4 repositories');
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getAllByRole('article')).toHaveLength(4);
    expect(screen.queryByRole('radio', { name: 'List' })).toBeNull();
  });
});

describe('sidebar counts', () => {
  it('counts the member’s own repositories and the distinct tags of every row, from the same request', async () => {
    const { fetchMock } = openList([
      buildSummary({ user_id: 1, tags: 'web,React' }),
      buildSummary({ user_id: 1, tags: 'react' }),
      buildSummary({ user_id: 2, tags: 'cli, Web ,rust' }),
    ]);
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    expect(await within(nav).findByLabelText('2 repositories')).toBeEnabled();
    expect(within(nav).getByLabelText('4 tags')).toBeEnabled();
    const listCalls = fetchMock.mock.calls.filter(([input]) => String(input).endsWith('/repositories/'));
    expect(listCalls).toHaveLength(1);
  });
});

describe('export', () => {
  function stubDownload() {
    const created: Blob[] = [];
    const clicks: string[] = [];
    vi.stubGlobal(
      'URL',
      Object.assign(URL, {
        createObjectURL: (blob: Blob) => {
          created.push(blob);
          return 'blob:csv';
        },
      }),
    );
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this.download);
    });
    URL.revokeObjectURL = () => {};
    return { created, clicks };
  }

  it('downloads the CSV under the server’s file name, says so, and clears the message after 5 s', async () => {
    const { created, clicks } = stubDownload();
    signIn();
    const { user, fetchMock } = renderApp({
      route: '/home',
      handlers: {
        'GET /repositories/': listResponse(rows(2)),
        'GET /repositories/export': () =>
          new Response('id,name\r\na/b,b\r\n', {
            headers: {
              'Content-Type': 'text/csv; charset=utf-8',
              'Content-Disposition': 'attachment; filename="repositories_2026-08-22.csv"',
            },
          }),
      },
    });
    await screen.findByText('Showing 2 of 2 repositories');
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('✅ Export started. Check your downloads.')).toBeVisible();
    expect(clicks).toEqual(['repositories_2026-08-22.csv']);
    expect(await created[0]?.text()).toBe('id,name\r\na/b,b\r\n');
    const request = fetchMock.mock.calls
      .map(([input, init]) => new Request(input, init))
      .find((entry) => entry.url.endsWith('/repositories/export'));
    expect(request?.headers.get('Accept')).toBe('text/csv');
    expect(request?.headers.get('Authorization')).toBe('Bearer test-access-token');
    await act(async () => {
      vi.advanceTimersByTime(5000);
    });
    expect(screen.queryByText('✅ Export started. Check your downloads.')).toBeNull();
  });

  it('says when the export failed', async () => {
    stubDownload();
    signIn();
    const { user } = renderApp({
      route: '/home',
      handlers: {
        'GET /repositories/': listResponse(rows(2)),
        'GET /repositories/export': () => errorResponse(500, 'boom'),
      },
    });
    await screen.findByText('Showing 2 of 2 repositories');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('❌ Failed to export repositories. Please try again.')).toBeVisible();
  });

  it('asks to sign in when there is no session token', async () => {
    stubDownload();
    const { user } = openList(rows(1));
    await screen.findByText('Showing 1 of 1 repositories');
    localStorage.removeItem('access_token');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('❌ Please sign in to export your repositories.')).toBeVisible();
  });
});
