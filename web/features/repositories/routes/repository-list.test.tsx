import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { encodeRouteId } from '#shared/route-id.ts';
import type { RepositorySummary } from '#shared/schemas/repositories.ts';
import { catalogueDouble } from '../../../../test/web/catalogue-double.ts';
import {
  errorResponse,
  type FetchHandler,
  renderApp,
  setViewportWidth,
  signIn,
} from '../../../../test/web/render.tsx';
import { buildSummary } from '../../../../test/web/repository-fixtures.ts';

afterEach(() => {
  vi.useRealTimers();
});

/** 25 rows whose last commits run from 2026-01-02 (row 1) to 2026-01-26 (row 25). */
function rows(count = 25): RepositorySummary[] {
  return Array.from({ length: count }, (_, i) =>
    buildSummary({
      id: `owner/repo-${String(i + 1).padStart(3, '0')}`,
      stars: (i * 37) % 101,
      last_commit: new Date(Date.UTC(2026, 0, 2 + i)).toISOString(),
    }),
  );
}

/** The list at `route` over `data`, served one page at a time by the catalogue double. */
function openList(
  data: RepositorySummary[] = rows(),
  route = '/home',
  overrides: Record<string, FetchHandler> = {},
) {
  signIn();
  const catalogue = catalogueDouble(data);
  const rendered = renderApp({ route, handlers: { ...catalogue.handlers, ...overrides } });
  return { ...rendered, catalogue };
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

/** The hash's query string as parameters. */
function hashParams(): URLSearchParams {
  return new URLSearchParams(window.location.hash.split('?')[1] ?? '');
}

describe('repository list: loading and empty states', () => {
  it("says 'Loading repositories...' while the first page loads, then shows 'Showing 10 of 25 repositories'", async () => {
    signIn();
    const catalogue = catalogueDouble(rows());
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    renderApp({
      route: '/home',
      handlers: {
        ...catalogue.handlers,
        'GET /repositories/': async (request) => {
          await held;
          return catalogue.handlers['GET /repositories/']?.(request) as Response;
        },
      },
    });
    expect(await screen.findByText('Loading repositories...')).toBeVisible();
    await act(async () => release());
    expect(await screen.findByText('Showing 10 of 25 repositories')).toBeVisible();
    expect(rowNames()).toHaveLength(10);
  });

  it('asks for one page of 50, newest commit first: never the whole catalogue', async () => {
    const { catalogue } = openList();
    await screen.findByText('Showing 10 of 25 repositories');
    const [first] = catalogue.requests();
    expect(Object.fromEntries(first ?? [])).toEqual({ limit: '50', sort: 'last_commit', order: 'desc' });
  });

  it('invites adding repositories when there are none', async () => {
    openList([]);
    expect(await screen.findByText('No repositories yet.')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Add Repositories' }).getAttribute('href')).toBe('#/add');
  });

  it('offers Retry when the list fails to load', async () => {
    signIn();
    const catalogue = catalogueDouble(rows(3));
    let calls = 0;
    renderApp({
      route: '/home',
      handlers: {
        ...catalogue.handlers,
        'GET /repositories/': (request) => {
          calls += 1;
          return calls === 1
            ? errorResponse(500, 'Database is down')
            : (catalogue.handlers['GET /repositories/']?.(request) as Response);
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
    expect(rowNames().slice(0, 3)).toEqual(['repo-025', 'repo-024', 'repo-023']);
    const header = screen.getByRole('columnheader', { name: /Last Commit/ });
    expect(header.getAttribute('aria-sort')).toBe('descending');
  });

  it('asks the server for the column, toggles it, gives a new column its default direction, and keeps the sort in the address', async () => {
    const { user, catalogue } = openList();
    await screen.findByText('Showing 10 of 25 repositories');
    const sortBy = (name: string) => user.click(screen.getByRole('button', { name }));
    const direction = (name: string) =>
      screen.getByRole('columnheader', { name: new RegExp(name) }).getAttribute('aria-sort');
    const lastRequest = () => {
      const params = catalogue.requests().at(-1);
      return `${params?.get('sort')} ${params?.get('order')}`;
    };

    await sortBy('Name');
    expect(direction('Name')).toBe('ascending');
    expect(direction('Last Commit')).toBe('none');
    await waitFor(() => expect(rowNames().slice(0, 2)).toEqual(['repo-001', 'repo-002']));
    expect(lastRequest()).toBe('name asc');
    expect(hashParams().toString()).toBe('sort=name&order=asc');
    await sortBy('Name');
    expect(direction('Name')).toBe('descending');
    await waitFor(() => expect(rowNames()[0]).toBe('repo-025'));
    expect(lastRequest()).toBe('name desc');

    // Stars and last sync start descending; last commit, description and licence ascending.
    await sortBy('Stars');
    expect(direction('Stars')).toBe('descending');
    await waitFor(() => expect(lastRequest()).toBe('stars desc'));
    await sortBy('Last Updated');
    expect(direction('Last Updated')).toBe('descending');
    await waitFor(() => expect(lastRequest()).toBe('last_synced desc'));
    await sortBy('Last Commit');
    expect(direction('Last Commit')).toBe('ascending');
    await waitFor(() => expect(rowNames()[0]).toBe('repo-001'));
    await sortBy('License');
    expect(direction('License')).toBe('ascending');
    await waitFor(() => expect(lastRequest()).toBe('license asc'));
    await sortBy('Description');
    expect(direction('Description')).toBe('ascending');
    await waitFor(() => expect(lastRequest()).toBe('description asc'));
    expect(hashParams().toString()).toBe('sort=description&order=asc');
  });

  it('keeps rows without a last commit at the end (the server’s order)', async () => {
    const data = [buildSummary({ id: 'a/never', last_commit: null }), ...rows(3)];
    const { user } = openList(data);
    await screen.findByText('Showing 4 of 4 repositories');
    expect(rowNames().at(-1)).toBe('never');
    await user.click(screen.getByRole('button', { name: 'Last Commit' }));
    await waitFor(() => expect(rowNames()[0]).toBe('repo-001'));
    expect(rowNames().at(-1)).toBe('never');
    expect(within(table()).getAllByText('Never').length).toBeGreaterThan(0);
  });
});

describe('repository list: search', () => {
  const catalogue = () => [
    buildSummary({ id: 'facebook/react', description: 'A UI library', tags: 'frontend', license: 'MIT' }),
    buildSummary({
      id: 'vuejs/core',
      description: 'Progressive framework',
      tags: 'Frontend,vue',
      license: 'MIT',
    }),
    buildSummary({ id: 'torvalds/linux', description: 'Kernel', tags: 'os', license: 'GPL-2.0' }),
  ];

  it('searches on the server: name, description, id, tags and licence, case-insensitively', async () => {
    const { user } = openList(catalogue());
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

  it('waits for typing to pause (~150 ms) and asks once, with the search in the address', async () => {
    const { user, catalogue: double } = openList(catalogue());
    await screen.findByText('Showing 3 of 3 repositories');
    await user.type(screen.getByRole('searchbox', { name: 'Search repositories' }), '  vue');
    await waitFor(() => expect(rowNames()).toEqual(['core']));
    const searches = double.requests().filter((params) => params.has('q'));
    expect(searches.map((params) => params.get('q'))).toEqual(['vue']);
    expect(hashParams().get('q')).toBe('  vue');
  });

  it('keeps the previous rows on screen while a search loads', async () => {
    signIn();
    const double = catalogueDouble(catalogue());
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const { user } = renderApp({
      route: '/home',
      handlers: {
        ...double.handlers,
        'GET /repositories/': async (request) => {
          if (new URL(request.url).searchParams.has('q')) await held;
          return double.handlers['GET /repositories/']?.(request) as Response;
        },
      },
    });
    await screen.findByText('Showing 3 of 3 repositories');
    await user.type(screen.getByRole('searchbox', { name: 'Search repositories' }), 'linux');
    expect(await screen.findByLabelText('Updating the list')).toBeVisible();
    expect([...rowNames()].sort()).toEqual(['core', 'linux', 'react']);
    expect(screen.queryByText('Loading repositories...')).toBeNull();
    await act(async () => release());
    await waitFor(() => expect(rowNames()).toEqual(['linux']));
    expect(screen.queryByLabelText('Updating the list')).toBeNull();
  });
});

describe('repository list: the view in the address', () => {
  it('opens a shared view: search, sort, card view and filters from the address', async () => {
    const data = [
      buildSummary({ id: 'a/web-one', tags: 'web', stars: 5 }),
      buildSummary({ id: 'a/web-two', tags: 'Web,ui', stars: 50 }),
      buildSummary({ id: 'a/cli', tags: 'cli', stars: 500 }),
    ];
    const { catalogue } = openList(data, '/home?q=web&sort=stars&order=asc&view=cards&tags=web');
    await screen.findByText('Showing 2 of 2 repositories');
    expect(screen.getByRole('searchbox', { name: 'Search repositories' })).toHaveValue('web');
    expect((screen.getByRole('radio', { name: 'Cards' }) as HTMLInputElement).checked).toBe(true);
    expect(
      screen.getAllByRole('article').map((card) => within(card).getAllByRole('link')[0]?.textContent),
    ).toEqual(['web-one', 'web-two']);
    expect(Object.fromEntries(catalogue.requests()[0] ?? [])).toEqual({
      q: 'web',
      tags: 'web',
      sort: 'stars',
      order: 'asc',
      limit: '50',
    });
    const chips = screen.getByRole('group', { name: 'Active filters' });
    expect(within(chips).getByText('Tag: web')).toBeVisible();
  });

  it('removes a filter chip, clears filters, and toggles "Added by me"', async () => {
    const data = [
      buildSummary({ id: 'me/mine', user_id: 1, license: 'MIT', tags: 'web' }),
      buildSummary({ id: 'bob/theirs', user_id: 2, license: 'MIT', tags: 'web' }),
      buildSummary({ id: 'bob/gpl', user_id: 2, license: 'GPL-3.0' }),
    ];
    const { user } = openList(data, '/home?license=mit&tags=web');
    await screen.findByText('Showing 2 of 2 repositories');
    await user.click(screen.getByRole('button', { name: 'Remove filter Tag: web' }));
    await screen.findByText('Showing 2 of 2 repositories');
    expect(hashParams().toString()).toBe('license=mit');
    await user.click(screen.getByRole('checkbox', { name: 'Added by me' }));
    await waitFor(() => expect(rowNames()).toEqual(['mine']));
    expect(hashParams().get('added_by')).toBe('me');
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(await screen.findByText('Showing 3 of 3 repositories')).toBeVisible();
    expect(window.location.hash).toBe('#/home');
  });

  it('ignores what the server would refuse in a hand-edited address', async () => {
    const { catalogue } = openList(rows(3), '/home?sort=owner&min_stars=-4&archived=perhaps');
    await screen.findByText('Showing 3 of 3 repositories');
    expect(Object.fromEntries(catalogue.requests()[0] ?? [])).toEqual({
      limit: '50',
      sort: 'last_commit',
      order: 'desc',
    });
  });

  it('says when no repository matches the filters', async () => {
    openList(rows(3), '/home?tags=nothing');
    expect(await screen.findByText('No repositories match these filters.')).toBeVisible();
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

describe('repository list: health', () => {
  const graded = () => [
    buildSummary({ id: 'a/fine', health: { score: 91, grade: 'healthy' } }),
    buildSummary({
      id: 'a/shaky',
      health: { score: 42, grade: 'at_risk' },
      open_advisories: { critical: 0, high: 2, medium: 0, low: 0, unknown: 0 },
    }),
    buildSummary({
      id: 'a/meh',
      health: { score: 60, grade: 'watch' },
      open_advisories: { critical: 0, high: 0, medium: 0, low: 1, unknown: 0 },
    }),
    buildSummary({ id: 'a/new' }),
  ];

  it('shows each row’s grade and score in a Health column that sorts by the score', async () => {
    const { user, catalogue } = openList(graded());
    await screen.findByText('Showing 4 of 4 repositories');
    const cells = (name: string) => {
      const row = within(table())
        .getAllByRole('row')
        .find((candidate) => within(candidate).queryByRole('link', { name }));
      return within(row as HTMLElement);
    };
    expect(cells('shaky').getByText('At risk')).toBeVisible();
    expect(cells('shaky').getByText('42 / 100')).toBeVisible();
    expect(cells('new').getByText('Unknown')).toBeVisible();
    expect(cells('new').getByText('No score')).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Health' }));
    await waitFor(() => expect(rowNames()).toEqual(['fine', 'meh', 'shaky', 'new']));
    expect(screen.getByRole('columnheader', { name: /Health/ }).getAttribute('aria-sort')).toBe('descending');
    expect(hashParams().get('sort')).toBe('health');
    expect(catalogue.requests().at(-1)?.get('sort')).toBe('health');
    await user.click(screen.getByRole('button', { name: 'Health' }));
    // Ascending, the unassessed stay last (the server's NULLs last).
    await waitFor(() => expect(rowNames()).toEqual(['shaky', 'meh', 'fine', 'new']));
  });

  it('shows the grade with its score on each card', async () => {
    openList(graded(), '/home?view=cards');
    await screen.findByText('Showing 4 of 4 repositories');
    const card = screen
      .getAllByRole('article')
      .find((article) => within(article).queryByRole('link', { name: 'shaky' }));
    const badge = within(card as HTMLElement).getByTitle('Health: at risk, 42 / 100');
    expect(badge).toBeVisible();
    // 'Health: ' is for screen readers; the card shows the grade and the score.
    expect(badge.textContent).toBe('Health: At risk · 42');
  });

  it('filters by grades and by open advisories of at least a severity, from the menu, as chips', async () => {
    const { user, catalogue } = openList(graded());
    await screen.findByText('Showing 4 of 4 repositories');
    await user.click(screen.getByRole('button', { name: 'Filters' }));
    const menu = await screen.findByRole('group', { name: 'Filters' });
    await user.click(within(menu).getByRole('combobox', { name: 'Health' }));
    await user.click(await screen.findByRole('option', { name: 'At risk' }));
    await user.click(await screen.findByRole('option', { name: 'Watch' }));
    await waitFor(() => expect(hashParams().get('health')).toBe('at_risk,watch'));
    await waitFor(() => expect(rowNames().sort()).toEqual(['meh', 'shaky']));
    expect(catalogue.requests().at(-1)?.get('health')).toBe('at_risk,watch');

    await user.click(within(menu).getByRole('combobox', { name: 'Open advisories at least' }));
    await user.click(await screen.findByRole('option', { name: 'High' }));
    await waitFor(() => expect(hashParams().get('advisories')).toBe('high'));
    await waitFor(() => expect(rowNames()).toEqual(['shaky']));
    expect(catalogue.requests().at(-1)?.get('advisories')).toBe('high');
    expect(screen.getByRole('button', { name: 'Filters 2 active' })).toBeVisible();

    const chips = screen.getByRole('group', { name: 'Active filters' });
    expect(within(chips).getByText('Health: At risk, Watch')).toBeVisible();
    expect(within(chips).getByText('Open advisories: high or worse')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Remove filter Open advisories: high or worse' }));
    await waitFor(() => expect(rowNames().sort()).toEqual(['meh', 'shaky']));
    expect(hashParams().toString()).toBe('health=at_risk%2Cwatch');
  });

  it('opens a shared view filtered by advisories: any open one', async () => {
    const { catalogue } = openList(graded(), '/home?advisories=unknown');
    await screen.findByText('Showing 2 of 2 repositories');
    expect(rowNames().sort()).toEqual(['meh', 'shaky']);
    expect(catalogue.requests()[0]?.get('advisories')).toBe('unknown');
    expect(screen.getByText('Open advisories: any')).toBeVisible();
  });
});

describe('repository list: incremental display over pages', () => {
  it('reveals 10 rows at a time from pages of 50, asks for the next page with its cursor, and keeps only the visible rows in the DOM', async () => {
    const { catalogue } = openList(rows(120));
    await screen.findByText('Showing 10 of 120 repositories');
    // happy-dom lays nothing out, so the end of the list always looks near: it auto-fills.
    expect(await screen.findByText('Showing 20 of 120 repositories', {}, { timeout: 3000 })).toBeVisible();
    await waitFor(() => expect(screen.getByText('Showing 60 of 120 repositories')).toBeVisible(), {
      timeout: 8000,
    });
    const pages = catalogue.requests();
    expect(pages.length).toBeGreaterThanOrEqual(2);
    expect(pages[0]?.has('cursor')).toBe(false);
    expect(pages[1]?.get('cursor')).toBeTruthy();
    expect(pages[1]?.get('limit')).toBe('50');
    expect(pages[1]?.get('sort')).toBe('last_commit');
    // Virtualised: only the rows near the 768 px window (plus overscan) are in the DOM, not all 60.
    const rendered = rowNames();
    expect(rendered.length).toBeGreaterThan(10);
    expect(rendered.length).toBeLessThan(45);
    expect(table().getAttribute('aria-rowcount')).toBe('61');
  });

  it('shows every row once all pages are in, and asks no further', async () => {
    const { catalogue } = openList(rows(55));
    await waitFor(() => expect(screen.getByText('Showing 55 of 55 repositories')).toBeVisible(), {
      timeout: 8000,
    });
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
    expect(catalogue.requests()).toHaveLength(2);
    expect(catalogue.requests()[1]?.get('cursor')).toBeTruthy();
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

  it('says when a further page fails, and retries it', async () => {
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
    signIn();
    const catalogue = catalogueDouble(rows(60));
    const list = catalogue.handlers['GET /repositories/'] as FetchHandler;
    let failures = 0;
    const { user } = renderApp({
      route: '/home',
      handlers: {
        ...catalogue.handlers,
        'GET /repositories/': (request) => {
          if (new URL(request.url).searchParams.has('cursor') && failures === 0) {
            failures += 1;
            return errorResponse(503, 'Try later');
          }
          return list(request);
        },
      },
    });
    await screen.findByText('Showing 10 of 60 repositories');
    for (let step = 0; step < 4; step += 1)
      await user.click(screen.getByRole('button', { name: 'Show more' }));
    expect(screen.getByText('Showing 50 of 60 repositories')).toBeVisible();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Failed to load repositories: Try later');
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    await user.click(await screen.findByRole('button', { name: 'Show more' }));
    expect(await screen.findByText('Showing 60 of 60 repositories')).toBeVisible();
  });
});

describe('repository list: card view', () => {
  it('switches to cards, 3 per row by default, then 2 or 4, in the address', async () => {
    const { user } = openList(rows(6));
    await screen.findByText('Showing 6 of 6 repositories');
    await user.click(screen.getByRole('radio', { name: 'Cards' }));
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getAllByRole('article')).toHaveLength(6);
    expect(hashParams().get('view')).toBe('cards');
    const perRow = screen.getByRole('radiogroup', { name: 'Cards per row' });
    expect((within(perRow).getByRole('radio', { name: '3' }) as HTMLInputElement).checked).toBe(true);
    await user.click(within(perRow).getByRole('radio', { name: '4' }));
    expect((within(perRow).getByRole('radio', { name: '4' }) as HTMLInputElement).checked).toBe(true);
    expect(hashParams().get('per_row')).toBe('4');
    await user.click(screen.getByRole('radio', { name: 'List' }));
    expect(table()).toBeVisible();
    expect(window.location.hash).toBe('#/home?per_row=4');
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

describe('repository list: sorting cards and phones', () => {
  it('sorts the card view with a field menu and a direction button, like the headers', async () => {
    const { user, catalogue } = openList(rows(6), '/home?view=cards');
    await screen.findByText('Showing 6 of 6 repositories');
    await user.click(screen.getByRole('combobox', { name: 'Sort by' }));
    await user.click(await screen.findByRole('option', { name: 'Stars' }));
    await waitFor(() => expect(hashParams().get('sort')).toBe('stars'));
    await user.click(screen.getByRole('button', { name: /^Sort ascending/ }));
    await waitFor(() => expect(hashParams().get('order')).toBe('asc'));
    const last = catalogue.requests().at(-1);
    expect(`${last?.get('sort')} ${last?.get('order')}`).toBe('stars asc');
  });

  it('offers the same sort on a phone, where cards are forced', async () => {
    setViewportWidth(375);
    openList(rows(3));
    await screen.findByText('Showing 3 of 3 repositories');
    expect(screen.getByRole('combobox', { name: 'Sort by' })).toBeVisible();
  });
});

describe('repository list: the filter menu', () => {
  it('filters by tag, language, star range and archived from the menu, in the address and as chips', async () => {
    const data = [
      buildSummary({ id: 'a/web', tags: 'web', language: 'TypeScript', stars: 500 }),
      buildSummary({ id: 'b/cli', tags: 'cli', language: 'Rust', stars: 50, archived: true }),
    ];
    const { user, catalogue } = openList(data);
    await screen.findByText('Showing 2 of 2 repositories');
    await user.click(screen.getByRole('button', { name: 'Filters' }));
    const menu = await screen.findByRole('group', { name: 'Filters' });
    // The menu opens with every field in view: focus on the menu, no field's list open over the rest.
    await waitFor(() => expect(menu).toHaveFocus());
    expect(screen.queryByRole('listbox')).toBeNull();
    await user.click(within(menu).getByRole('combobox', { name: 'Tags' }));
    await user.click(await screen.findByRole('option', { name: 'web' }));
    await waitFor(() => expect(hashParams().get('tags')).toBe('web'));
    expect(await screen.findByText('Showing 1 of 1 repositories')).toBeVisible();
    expect(catalogue.requests().at(-1)?.get('tags')).toBe('web');

    await user.click(within(menu).getByRole('combobox', { name: 'Tags' }));
    await user.keyboard('{Backspace}');
    await user.type(within(menu).getByRole('textbox', { name: 'Minimum stars' }), '100');
    await waitFor(() => expect(hashParams().get('min_stars')).toBe('100'));
    await user.click(
      within(within(menu).getByRole('radiogroup', { name: 'Archived' })).getByRole('radio', { name: 'Hide' }),
    );
    await waitFor(() => expect(hashParams().get('archived')).toBe('false'));
    expect(await screen.findByText('Showing 1 of 1 repositories')).toBeVisible();
    expect(rowNames()).toEqual(['web']);
    expect(screen.getByRole('button', { name: 'Filters 2 active' })).toBeVisible();
  });
});

describe('repository list: keyboard and clicks', () => {
  it("'/' focuses the search; j and k move through the rows; Enter opens the selected one", async () => {
    const { user } = openList(rows(5));
    await screen.findByText('Showing 5 of 5 repositories');
    const selected = () =>
      within(table())
        .getAllByRole('row')
        .filter((row) => row.getAttribute('aria-selected') === 'true')
        .map((row) => within(row).getAllByRole('link')[0]?.textContent);

    await user.keyboard('j');
    expect(selected()).toEqual(['repo-005']);
    await user.keyboard('jj');
    expect(selected()).toEqual(['repo-003']);
    await user.keyboard('k');
    expect(selected()).toEqual(['repo-004']);

    await user.keyboard('/');
    const search = screen.getByRole('searchbox', { name: 'Search repositories' });
    expect(document.activeElement).toBe(search);
    // Typing in a field never moves the selection.
    await user.keyboard('jk');
    expect((search as HTMLInputElement).value).toBe('jk');
    expect(selected()).toEqual(['repo-004']);
    await user.clear(search);
    search.blur();

    await user.keyboard('{Enter}');
    await waitFor(() => expect(window.location.hash).toBe(`#/repo/${encodeRouteId('owner/repo-004')}`));
  });

  it('opens a repository from a click anywhere on its row', async () => {
    const { user } = openList(rows(3));
    await screen.findByText('Showing 3 of 3 repositories');
    const row = within(table()).getAllByRole('row')[2];
    if (!row) throw new Error('no second row');
    await user.click(within(row).getAllByRole('cell')[3] as HTMLElement);
    await waitFor(() => expect(window.location.hash).toBe(`#/repo/${encodeRouteId('owner/repo-002')}`));
  });

  it("'g' then 't' goes to the tags, and '?' lists the shortcuts", async () => {
    const { user } = openList(rows(2));
    await screen.findByText('Showing 2 of 2 repositories');
    await user.keyboard('?');
    const help = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(within(help).getByText('Open the selected repository')).toBeVisible();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.keyboard('gt');
    expect(await screen.findByRole('heading', { level: 1, name: 'Tags' })).toBeVisible();
  });
});

describe('sidebar counts', () => {
  it('shows the server’s counts: the member’s own repositories and the distinct tags', async () => {
    const { catalogue } = openList([
      buildSummary({ user_id: 1, tags: 'web,React' }),
      buildSummary({ user_id: 1, tags: 'react' }),
      buildSummary({ user_id: 2, tags: 'cli, Web ,rust' }),
    ]);
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    expect(await within(nav).findByText('2 added by you')).toBeVisible();
    expect(within(nav).getByLabelText('4 tags')).toBeEnabled();
    expect(catalogue.requests('GET /repositories/counts')).toHaveLength(1);
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

  const csv = () =>
    new Response('id,name\r\na/b,b\r\n', {
      headers: {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': 'attachment; filename="repositories_2026-08-22.csv"',
      },
    });

  it('downloads the CSV under the server’s file name, says so, and clears the message after 5 s', async () => {
    const { created, clicks } = stubDownload();
    const { user, fetchMock } = openList(rows(2), '/home', { 'GET /repositories/export': csv });
    await screen.findByText('Showing 2 of 2 repositories');
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('✅ Export started. Check your downloads.')).toBeVisible();
    expect(clicks).toEqual(['repositories_2026-08-22.csv']);
    expect(await created[0]?.text()).toBe('id,name\r\na/b,b\r\n');
    const request = fetchMock.mock.calls
      .map(([input, init]) => new Request(input, init))
      .find((entry) => new URL(entry.url).pathname === '/repositories/export');
    expect(request?.headers.get('Accept')).toBe('text/csv');
    expect(request?.headers.get('Authorization')).toBe('Bearer test-access-token');
    await act(async () => {
      vi.advanceTimersByTime(5000);
    });
    expect(screen.queryByText('✅ Export started. Check your downloads.')).toBeNull();
  });

  it('exports what the list shows: the current search, filters and sort', async () => {
    stubDownload();
    const { user, fetchMock } = openList(rows(3), '/home?q=repo&tags=web&sort=stars&order=asc', {
      'GET /repositories/export': csv,
    });
    expect(await screen.findByText('No repositories match “repo”.')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('✅ Export started. Check your downloads.')).toBeVisible();
    const url = fetchMock.mock.calls
      .map(([input, init]) => new URL(new Request(input, init).url))
      .find((entry) => entry.pathname === '/repositories/export');
    expect(Object.fromEntries(url?.searchParams ?? [])).toEqual({
      q: 'repo',
      tags: 'web',
      sort: 'stars',
      order: 'asc',
    });
  });

  it('says when the export failed', async () => {
    stubDownload();
    const { user } = openList(rows(2), '/home', {
      'GET /repositories/export': () => errorResponse(500, 'boom'),
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

describe('the hidden-cost check', () => {
  it('fails a screen that asks for the whole catalogue', async () => {
    const { guardCatalogueRequest, takeWholeCatalogueRequests } = await import(
      '../../../../test/web/catalogue-guard.ts'
    );
    expect(() => guardCatalogueRequest(new Request('http://localhost/repositories/'))).toThrow(
      /whole catalogue/,
    );
    expect(() => guardCatalogueRequest(new Request('http://localhost/api/repositories'))).toThrow();
    expect(() => guardCatalogueRequest(new Request('http://localhost/auth/admin/repositories'))).toThrow();
    // Paged, or not a read: fine.
    guardCatalogueRequest(new Request('http://localhost/repositories/?limit=50'));
    guardCatalogueRequest(new Request('http://localhost/repositories/', { method: 'POST' }));
    guardCatalogueRequest(new Request('http://localhost/repositories/stats'));
    expect(takeWholeCatalogueRequests()).toEqual([
      'GET /repositories/',
      'GET /api/repositories',
      'GET /auth/admin/repositories',
    ]);
  });
});
