import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultVersionNumber, formatTime, isoDay } from '#shared/format.ts';
import { encodeRouteId } from '#shared/route-id.ts';
import type { Repository, Version } from '#shared/schemas/repositories.ts';
import { catalogueDouble } from '../../../../test/web/catalogue-double.ts';
import {
  buildUser,
  errorResponse,
  type FetchHandler,
  jsonResponse,
  renderApp,
  signIn,
} from '../../../../test/web/render.tsx';
import { buildRepository, buildSummary, hangingResponse } from '../../../../test/web/repository-fixtures.ts';

afterEach(() => {
  vi.useRealTimers();
});

const FULL_NAME = 'octo/widget';
const PATH = '/repositories/octo%2Fwidget';

function version(id: number, number: string, overrides: Partial<Version> = {}): Version {
  return {
    id,
    version_number: number,
    release_date: '2026-08-01',
    description: null,
    created_at: `2026-08-0${id}T10:00:00.000Z`,
    source: 'manual',
    release_url: null,
    ...overrides,
  };
}

/** The tab a describe block's tests open the page on (`?tab=`); none is the Overview. */
let openTab: string | null = null;
afterEach(() => {
  openTab = null;
});

function openDetail(
  repository: Repository = buildRepository({ id: FULL_NAME }),
  handlers: Record<string, FetchHandler> = {},
  route = `/repo/${encodeRouteId(repository.id)}${openTab ? `?tab=${openTab}` : ''}`,
) {
  signIn();
  return renderApp({
    route,
    handlers: {
      ...catalogueDouble([
        buildSummary({ user_id: 1, tags: 'frontend,UI' }),
        buildSummary({ user_id: 1, tags: 'frontend' }),
        buildSummary({ user_id: 2, tags: 'not-mine' }),
      ]).handlers,
      [`GET ${PATH}`]: () => jsonResponse({ repository }),
      'GET /api/get-versions': () => jsonResponse({ versions: repository.versions }),
      ...handlers,
    },
  });
}

async function loaded(name = 'widget') {
  return screen.findByRole('heading', { level: 1, name });
}

function requestsTo(fetchMock: ReturnType<typeof vi.fn>, method: string, pathname: string): Request[] {
  return fetchMock.mock.calls
    .map(([input, init]) => new Request(input as RequestInfo, init as RequestInit))
    .filter((request) => request.method === method && new URL(request.url).pathname === pathname);
}

describe('route ids', () => {
  it("shows 'Invalid repository ID.' for an undecodable id, without calling the API", async () => {
    const { fetchMock } = openDetail(undefined, {}, '/repo/@@not-base64@@');
    expect(await screen.findByText('Invalid repository ID.')).toBeVisible();
    expect(screen.getByRole('heading', { level: 1, name: 'Repository Details' })).toBeVisible();
    expect(requestsTo(fetchMock, 'GET', PATH)).toHaveLength(0);
  });

  it.each([
    ['URL-safe without padding', encodeRouteId('a_b/c-d.e')],
    ['standard with padding', btoa('a_b/c-d.e')],
  ])('reads %s base64', async (_, id) => {
    openDetail(
      buildRepository({ id: 'a_b/c-d.e' }),
      {
        'GET /repositories/a_b%2Fc-d.e': () =>
          jsonResponse({ repository: buildRepository({ id: 'a_b/c-d.e' }) }),
      },
      `/repo/${id}`,
    );
    expect(await loaded('c-d.e')).toBeVisible();
  });
});

describe('loading', () => {
  it("shows 'Failed to load repository: …' with Retry", async () => {
    let calls = 0;
    openDetail(undefined, {
      [`GET ${PATH}`]: () => {
        calls += 1;
        return calls === 1
          ? jsonResponse({ message: 'Repository not found in database', code: 'not_found' }, { status: 404 })
          : jsonResponse({ repository: buildRepository({ id: FULL_NAME }) });
      },
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Failed to load repository: Repository not found in database');
    await act(async () => within(alert).getByRole('button', { name: 'Retry' }).click());
    expect(await loaded()).toBeVisible();
  });

  it('after 5 s says the connection timed out and loads again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let answer: (response: Response) => void = () => {};
    const held = new Promise<Response>((resolve) => (answer = resolve));
    let calls = 0;
    openDetail(undefined, {
      [`GET ${PATH}`]: (request) => {
        calls += 1;
        return calls === 1 ? hangingResponse(request) : held;
      },
    });
    expect(await screen.findByText('Loading repository...')).toBeVisible();
    await act(async () => {
      vi.advanceTimersByTime(5000);
    });
    expect(
      await screen.findByText('Connection timed out. Loading repository from local database.'),
    ).toBeVisible();
    expect(calls).toBe(2);
    await act(async () => answer(jsonResponse({ repository: buildRepository({ id: FULL_NAME }) })));
    expect(await loaded()).toBeVisible();
    expect(screen.queryByText('Connection timed out. Loading repository from local database.')).toBeNull();
  });
});

describe('header, information and metadata', () => {
  it('shows every field, with the licence warning and the empty texts', async () => {
    openDetail(
      buildRepository({
        id: FULL_NAME,
        description: null,
        license: '',
        topics: '',
        stars: 12_345,
        forks: 1_500_000,
        commits: 4321,
        issues: 17,
        contributors: '1000+',
        last_commit: null,
        last_synced: null,
        comment_count: 2,
        version_count: 3,
        archived: true,
        gone: true,
      }),
    );
    await loaded();
    expect(screen.getByText('12.3k')).toBeVisible();
    expect(screen.getByText('1.5M')).toBeVisible();
    expect(screen.getByText('4,321')).toBeVisible();
    expect(screen.getByText('17')).toBeVisible();
    expect(screen.getByText('1000+')).toBeVisible();
    expect(screen.getByText('No description available.')).toBeVisible();
    expect(screen.getByText('No topics')).toBeVisible();
    expect(screen.getByText('No license')).toBeVisible();
    expect(screen.getByText('No license.')).toBeVisible();
    expect(screen.getByText(/default copyright applies/)).toBeVisible();
    expect(screen.getAllByText('Never')).toHaveLength(2);
    expect(screen.getByText(FULL_NAME, { selector: 'dd' })).toBeVisible();
    const link = screen.getByRole('link', { name: 'github.com/octo/widget' });
    expect(link.getAttribute('href')).toBe('https://github.com/octo/widget');
    expect(screen.getAllByText('Gone from GitHub').length).toBeGreaterThan(0);
    expect(screen.getAllByText('Archived').length).toBeGreaterThan(0);
    const main = screen.getByRole('main');
    expect(within(main).getByRole('link', { name: 'Back to Home' }).getAttribute('href')).toBe('#/');
    expect(within(main).getByRole('link', { name: 'Add Repository' }).getAttribute('href')).toBe('#/add');
  });

  it('shows topics and the licence badge when present', async () => {
    openDetail(buildRepository({ id: FULL_NAME, license: 'Apache-2.0', topics: 'cli,rust' }));
    await loaded();
    expect(screen.getByText('Apache-2.0')).toBeVisible();
    expect(screen.getByText('cli')).toBeVisible();
    expect(screen.getByText('rust')).toBeVisible();
    expect(screen.queryByText(/default copyright applies/)).toBeNull();
  });
});

describe('tabs', () => {
  it('opens on Overview, keeps the open tab in the address, and opens the tab the address names', async () => {
    const { user } = openDetail();
    await loaded();
    const tabs = screen.getByRole('tablist');
    expect(
      within(tabs)
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual([
      'Overview',
      'History',
      'Health & security',
      'Decision',
      'Versions (0)',
      'Discussion (0)',
      'Commits',
      'Activity',
    ]);
    expect(screen.getByRole('tab', { name: 'Overview' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('heading', { name: 'Information' })).toBeVisible();
    await user.click(screen.getByRole('tab', { name: /^Discussion/ }));
    expect(window.location.hash).toBe(`#/repo/${encodeRouteId(FULL_NAME)}?tab=discussion`);
    expect(await screen.findByText('No comments yet. Be the first to comment!')).toBeVisible();
    expect(screen.queryByRole('heading', { name: 'Information' })).toBeNull();
  });

  it('opens the tab in the address', async () => {
    openDetail(undefined, {}, `/repo/${encodeRouteId(FULL_NAME)}?tab=versions`);
    await loaded();
    expect(screen.getByRole('tab', { name: /^Versions/ }).getAttribute('aria-selected')).toBe('true');
    expect(await screen.findByRole('button', { name: 'Add Version' })).toBeVisible();
  });
});

describe('tags and notes', () => {
  it('edits tags by the rules, saves tags and notes, and says Saved! for 3 s', async () => {
    let answer: (response: Response) => void = () => {};
    const { user, fetchMock } = openDetail(buildRepository({ id: FULL_NAME, tags: 'existing', notes: '' }), {
      [`PUT ${PATH}/metadata/`]: () => new Promise((resolve) => (answer = resolve)),
    });
    await loaded();
    const input = screen.getByRole('combobox', { name: 'Tags' });
    await user.type(input, '  cli {Enter}');
    await user.type(input, 'Frontend,');
    await user.type(input, 'ui{Enter}');
    await user.type(input, 'EXISTING{Enter}');
    expect(await screen.findByText('“EXISTING” is already in the list.')).toBeVisible();
    await user.clear(input);
    await user.type(input, 'extra{Enter}{Backspace}');
    await user.type(screen.getByRole('textbox', { name: 'Notes' }), 'Worth watching');

    vi.useFakeTimers({ shouldAdvanceTime: true });
    await user.click(screen.getByRole('button', { name: 'Save Tags' }));
    expect(screen.getByRole('button', { name: 'Saving...' })).toBeDisabled();
    const [request] = requestsTo(fetchMock, 'PUT', `${PATH}/metadata/`);
    // Suggestions (the member's own most-used tags) win the spelling: 'frontend', 'UI'.
    expect(await request?.json()).toEqual({ tags: 'existing,cli,frontend,UI', notes: 'Worth watching' });
    await act(async () =>
      answer(
        jsonResponse({ repository: buildRepository({ id: FULL_NAME, tags: 'existing,cli,frontend,UI' }) }),
      ),
    );
    expect(await screen.findByText('✅ Saved!')).toBeVisible();
    await act(async () => {
      vi.advanceTimersByTime(3000);
    });
    expect(screen.queryByText('✅ Saved!')).toBeNull();
  });

  it("says '❌ Failed to save.' when saving fails", async () => {
    const { user } = openDetail(undefined, { [`PUT ${PATH}/metadata/`]: () => errorResponse(500, 'nope') });
    await loaded();
    await user.click(screen.getByRole('button', { name: 'Save Tags' }));
    expect(await screen.findByText('❌ Failed to save.')).toBeVisible();
  });
});

describe('update from GitHub', () => {
  it("shows 'Updating from GitHub...', then '✅ Repository updated!' for 1 s", async () => {
    let answer: (response: Response) => void = () => {};
    const { user } = openDetail(undefined, {
      [`PUT ${PATH}`]: () => new Promise((resolve) => (answer = resolve)),
    });
    await loaded();
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await user.click(screen.getByRole('button', { name: 'Update from GitHub' }));
    expect(screen.getByRole('button', { name: 'Updating from GitHub...' })).toBeDisabled();
    expect(screen.getByText('Updating from GitHub...', { selector: 'div' })).toBeVisible();
    await act(async () =>
      answer(jsonResponse({ repository: buildRepository({ id: FULL_NAME, stars: 99_999 }) })),
    );
    expect(await screen.findByText('✅ Repository updated!')).toBeVisible();
    await act(async () => {
      vi.advanceTimersByTime(1000);
    });
    expect(screen.queryByText('✅ Repository updated!')).toBeNull();
  });

  it('says when the update worked but the details could not be loaded again', async () => {
    let gets = 0;
    const { user } = openDetail(undefined, {
      [`GET ${PATH}`]: () => {
        gets += 1;
        return gets === 1
          ? jsonResponse({ repository: buildRepository({ id: FULL_NAME }) })
          : errorResponse(500, 'x');
      },
      [`PUT ${PATH}`]: () => jsonResponse({ repository: buildRepository({ id: FULL_NAME }) }),
    });
    await loaded();
    await user.click(screen.getByRole('button', { name: 'Update from GitHub' }));
    expect(await screen.findByText('✅ Repository updated, but failed to refresh details.')).toBeVisible();
    // The stored details stay on screen, with the failed reload and its Retry.
    expect(screen.getByText('Failed to fetch repository details: x')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeEnabled();
  });

  it('says when GitHub’s pace queued the update, and by when it runs', async () => {
    const eta = '2026-11-24T15:05:00.000Z';
    const { user } = openDetail(undefined, {
      [`PUT ${PATH}`]: () =>
        jsonResponse(
          { queued: true, eta, message: 'GitHub asks us to slow down for now, so the update is queued.' },
          { status: 202 },
        ),
    });
    await loaded();
    await user.click(screen.getByRole('button', { name: 'Update from GitHub' }));
    const notice = await screen.findByText(
      `Queued: GitHub asks us to slow down, so the update runs by ${formatTime(eta)}.`,
    );
    expect(notice).toBeVisible();
    // A notice, not an error: announced politely, never as an alert.
    expect(notice.closest('[role="status"]')).not.toBeNull();
    expect(screen.queryByText(/Failed to update/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Update from GitHub' })).toBeEnabled();
  });

  it("shows 'counting…' while the contributors are being counted", async () => {
    openDetail(buildRepository({ id: FULL_NAME, contributors: null }));
    await loaded();
    expect(screen.getByText('counting…')).toBeVisible();
  });

  it("shows '❌ Failed to update: {message}'", async () => {
    const { user } = openDetail(undefined, {
      [`PUT ${PATH}`]: () => errorResponse(429, 'GitHub quota exhausted until 10:00.'),
    });
    await loaded();
    await user.click(screen.getByRole('button', { name: 'Update from GitHub' }));
    expect(await screen.findByText('❌ Failed to update: GitHub quota exhausted until 10:00.')).toBeVisible();
  });
});

describe('delete', () => {
  it('asks first, then deletes and goes to the empty hash', async () => {
    const { user, fetchMock } = openDetail(undefined, {
      [`DELETE ${PATH}`]: () => jsonResponse({ message: 'octo/widget was removed from the catalogue.' }),
    });
    await loaded();
    await user.click(screen.getByRole('button', { name: 'Delete Repository' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this repository?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(requestsTo(fetchMock, 'DELETE', PATH)).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Delete Repository' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(window.location.hash).toMatch(/^#\/(home)?$/));
    expect(requestsTo(fetchMock, 'DELETE', PATH)).toHaveLength(1);
  });

  it('offers Undo for 30 s after deleting, which brings the repository back and opens it', async () => {
    const { user, fetchMock } = openDetail(undefined, {
      [`DELETE ${PATH}`]: () => jsonResponse({ message: 'octo/widget was removed from the catalogue.' }),
      [`POST ${PATH}/restore`]: () => jsonResponse({ repository: buildRepository({ id: FULL_NAME }) }),
    });
    await loaded();
    await user.click(screen.getByRole('button', { name: 'Delete Repository' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this repository?' });
    expect(within(dialog).getByText(/You can undo it for 30 seconds\./)).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(`${FULL_NAME} deleted.`)).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(await screen.findByText(`${FULL_NAME} restored.`)).toBeVisible();
    expect(requestsTo(fetchMock, 'POST', `${PATH}/restore`)).toHaveLength(1);
    await waitFor(() => expect(window.location.hash).toBe(`#/repo/${encodeRouteId(FULL_NAME)}`));
  });

  it("shows 'Failed to delete repository: {message}' and closes the confirmation", async () => {
    const { user } = openDetail(undefined, {
      [`DELETE ${PATH}`]: () =>
        errorResponse(403, 'Only the member who added this repository can delete it.'),
    });
    await loaded();
    await user.click(screen.getByRole('button', { name: 'Delete Repository' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(
      await screen.findByText(
        'Failed to delete repository: Only the member who added this repository can delete it.',
      ),
    ).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('is disabled for members who did not add the repository', async () => {
    signIn(buildUser({ id: 7 }));
    renderApp({
      route: `/repo/${encodeRouteId(FULL_NAME)}`,
      handlers: {
        [`GET ${PATH}`]: () => jsonResponse({ repository: buildRepository({ id: FULL_NAME, user_id: 1 }) }),
        ...catalogueDouble([]).handlers,
      },
    });
    await loaded();
    expect((screen.getByRole('button', { name: 'Delete Repository' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    expect(screen.getByText(/Only the member who added this repository, or an administrator/)).toBeVisible();
  });
});

describe('comments', () => {
  beforeEach(() => {
    openTab = 'discussion';
  });

  it('shows the empty text, checks the comment, posts with Anonymous by default', async () => {
    let answer: (response: Response) => void = () => {};
    const { user, fetchMock } = openDetail(undefined, {
      [`POST ${PATH}/comments`]: () => new Promise((resolve) => (answer = resolve)),
    });
    await loaded();
    expect(screen.getByText('No comments yet. Be the first to comment!')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Add Comment' }));
    expect(await screen.findByText('Please enter a comment.')).toBeVisible();
    expect(requestsTo(fetchMock, 'POST', `${PATH}/comments`)).toHaveLength(0);

    await user.type(screen.getByRole('textbox', { name: 'Comment' }), '  Looks good  ');
    await user.click(screen.getByRole('button', { name: 'Add Comment' }));
    expect(screen.getByRole('button', { name: 'Adding...' })).toBeDisabled();
    const [request] = requestsTo(fetchMock, 'POST', `${PATH}/comments`);
    expect(await request?.json()).toEqual({ comment: 'Looks good', author: 'Anonymous' });
    await act(async () =>
      answer(
        jsonResponse(
          {
            comment: {
              id: 1,
              author: 'Anonymous',
              comment: 'Looks good',
              created_at: '2026-08-22T10:00:00Z',
              user_id: 1,
            },
          },
          { status: 201 },
        ),
      ),
    );
    expect(await screen.findByText('✅ Comment added!')).toBeVisible();
  });

  it('lists comments and reports a failure', async () => {
    const { user } = openDetail(
      buildRepository({
        id: FULL_NAME,
        comments: [
          { id: 1, author: 'Bob', comment: 'First!', created_at: '2026-08-20T10:00:00Z', user_id: 2 },
        ],
      }),
      { [`POST ${PATH}/comments`]: () => errorResponse(400, 'A comment is at most 5,000 characters') },
    );
    await loaded();
    const list = screen.getByRole('list', { name: 'Comments' });
    expect(within(list).getByText('Bob')).toBeVisible();
    expect(within(list).getByText('First!')).toBeVisible();
    await user.type(screen.getByRole('textbox', { name: 'Your name' }), 'Carol');
    await user.type(screen.getByRole('textbox', { name: 'Comment' }), 'x');
    await user.click(screen.getByRole('button', { name: 'Add Comment' }));
    expect(
      await screen.findByText('❌ Failed to add comment: A comment is at most 5,000 characters'),
    ).toBeVisible();
  });
});

describe('version tracker', () => {
  beforeEach(() => {
    openTab = 'versions';
  });

  it('defaults to vYYYY.M.D and today, requires a number, and adds a version', async () => {
    const { user, fetchMock } = openDetail(undefined, {
      [`POST ${PATH}/versions`]: () =>
        jsonResponse({ version: version(1, 'v1.0.0', { description: 'First' }) }, { status: 201 }),
    });
    await loaded();
    expect(screen.getByText('No versions tracked yet. Add the first version above!')).toBeVisible();
    const number = screen.getByRole('textbox', { name: 'Version number' }) as HTMLInputElement;
    expect(number.value).toBe(defaultVersionNumber(new Date()));
    expect((screen.getByLabelText('Release date') as HTMLInputElement).value).toBe(isoDay(new Date()));

    await user.clear(number);
    await user.click(screen.getByRole('button', { name: 'Add Version' }));
    expect(await screen.findByText('Please enter a version number.')).toBeVisible();

    await user.type(number, ' v1.0.0 ');
    await user.type(screen.getByRole('textbox', { name: 'Description (optional)' }), 'First');
    await user.click(screen.getByRole('button', { name: 'Add Version' }));
    expect(await screen.findByText('✅ Version added!')).toBeVisible();
    const [request] = requestsTo(fetchMock, 'POST', `${PATH}/versions`);
    expect(await request?.json()).toEqual({
      version_number: 'v1.0.0',
      release_date: isoDay(new Date()),
      description: 'First',
    });
  });

  it("shows a number the repository already has on the field: 'Version {number} already exists.'", async () => {
    const { user } = openDetail(undefined, {
      [`POST ${PATH}/versions`]: () => errorResponse(409, 'Version v1.0.0 already exists.'),
    });
    await loaded();
    const number = screen.getByRole('textbox', { name: 'Version number' });
    await user.clear(number);
    await user.type(number, 'v1.0.0');
    await user.click(screen.getByRole('button', { name: 'Add Version' }));
    expect(await screen.findByText('Version v1.0.0 already exists.')).toBeVisible();
    expect(number.getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByText(/Failed to add version/)).toBeNull();
  });

  it("reports '❌ Failed to add version: {message}'", async () => {
    const { user } = openDetail(undefined, {
      [`POST ${PATH}/versions`]: () => errorResponse(500, 'disk full'),
    });
    await loaded();
    await user.click(screen.getByRole('button', { name: 'Add Version' }));
    expect(await screen.findByText('❌ Failed to add version: disk full')).toBeVisible();
  });
});

describe('compare versions', () => {
  beforeEach(() => {
    openTab = 'versions';
  });

  const two = [version(1, 'v1'), version(2, 'v2')];

  it('needs at least two versions', async () => {
    openDetail(buildRepository({ id: FULL_NAME, versions: [version(1, 'v1')] }));
    await loaded();
    expect(
      screen.getByText(
        'You need at least two versions to compare. Add more versions in the Version Tracker section.',
      ),
    ).toBeVisible();
  });

  it('asks for two different versions, then shows +/- lines, added/removed words and No changes', async () => {
    const differences = {
      description: { changed: false, diff: [], old: 'a', new: 'a' },
      stars: { changed: true, diff: ['-100', '+150'], old: 100, new: 150 },
      forks: { changed: false, diff: [], old: 1, new: 1 },
      commits: { changed: false, diff: [], old: 1, new: 1 },
      issues: { changed: true, diff: ['-9', '+4'], old: 9, new: 4 },
      contributors: { changed: false, diff: [], old: 1, new: 1 },
      license: { changed: true, diff: ['-MIT', '+Apache-2.0'], old: 'MIT', new: 'Apache-2.0' },
      topics: { changed: true, diff: ['-old-topic', '+new-topic'], old: 'old-topic', new: 'new-topic' },
    };
    const { user, fetchMock } = openDetail(buildRepository({ id: FULL_NAME, versions: two }), {
      'GET /api/compare-versions': () => jsonResponse({ differences }),
    });
    await loaded();
    const compare = () => user.click(screen.getByRole('button', { name: 'Compare' }));
    await compare();
    expect(await screen.findByText('Please select two versions to compare.')).toBeVisible();

    await user.click(screen.getByRole('combobox', { name: 'First version' }));
    await user.click(await screen.findByRole('option', { name: /v1/ }));
    await user.click(screen.getByRole('combobox', { name: 'Second version' }));
    await user.click(await screen.findByRole('option', { name: /v1/ }));
    await compare();
    expect(await screen.findByText('Please select two different versions to compare.')).toBeVisible();

    await user.click(screen.getByRole('combobox', { name: 'Second version' }));
    await user.click(await screen.findByRole('option', { name: /v2/ }));
    await compare();
    const table = await screen.findByRole('table', { name: 'Differences between the two versions' });
    expect(within(table).getByText('-100')).toBeVisible();
    expect(within(table).getByText('+150')).toBeVisible();
    expect(within(table).getByText('+50')).toBeVisible();
    expect(within(table).getByText('Removed: MIT')).toBeVisible();
    expect(within(table).getByText('Added: Apache-2.0')).toBeVisible();
    expect(within(table).getByText('Added: new-topic')).toBeVisible();
    expect(within(table).getByText('Removed: old-topic')).toBeVisible();
    // Changed fields first, in the fixed order; the four unchanged ones only on request.
    const fields = () =>
      within(table)
        .getAllByRole('rowheader')
        .map((cell) => cell.textContent);
    expect(fields()).toEqual(['Stars', 'Issues', 'License', 'Topics']);
    expect(within(table).queryByText('No changes')).toBeNull();
    await user.click(screen.getByRole('switch', { name: 'Show unchanged fields (4)' }));
    expect(fields()).toEqual([
      'Stars',
      'Issues',
      'License',
      'Topics',
      'Description',
      'Forks',
      'Commits',
      'Contributors',
    ]);
    expect(within(table).getAllByText('No changes')).toHaveLength(4);
    const [request] = requestsTo(fetchMock, 'GET', '/api/compare-versions');
    const query = new URL(request?.url ?? '').searchParams;
    expect([query.get('repo_id'), query.get('version1_id'), query.get('version2_id')]).toEqual([
      FULL_NAME,
      '1',
      '2',
    ]);
  });

  it("reports 'Failed to compare versions: {message}'", async () => {
    const { user } = openDetail(buildRepository({ id: FULL_NAME, versions: two }), {
      'GET /api/compare-versions': () => errorResponse(404, 'Version not found for this repository'),
    });
    await loaded();
    await user.click(screen.getByRole('combobox', { name: 'First version' }));
    await user.click(await screen.findByRole('option', { name: /v1/ }));
    await user.click(screen.getByRole('combobox', { name: 'Second version' }));
    await user.click(await screen.findByRole('option', { name: /v2/ }));
    await user.click(screen.getByRole('button', { name: 'Compare' }));
    expect(
      await screen.findByText('Failed to compare versions: Version not found for this repository'),
    ).toBeVisible();
  });
});

describe('recent commits', () => {
  const commit = {
    sha: '0123456789abcdef0123456789abcdef01234567',
    author: 'octocat',
    date: '2026-08-20T10:00:00Z',
    message: 'Fix the widget\n\nLonger body',
  };

  async function expandCommits(handler: FetchHandler) {
    const rendered = openDetail(undefined, { [`GET ${PATH}/commits/`]: handler });
    await loaded();
    expect(requestsTo(rendered.fetchMock, 'GET', `${PATH}/commits/`)).toHaveLength(0);
    await rendered.user.click(screen.getByRole('tab', { name: 'Commits' }));
    return rendered;
  }

  it('loads on first expand and lists the commits', async () => {
    const { fetchMock } = await expandCommits(() => jsonResponse([commit]));
    const list = await screen.findByRole('list', { name: 'Recent commits' });
    expect(within(list).getByText('Fix the widget')).toBeVisible();
    expect(within(list).getByRole('link', { name: 'Commit 0123456 on GitHub' }).getAttribute('href')).toBe(
      `https://github.com/octo/widget/commit/${commit.sha}`,
    );
    const [request] = requestsTo(fetchMock, 'GET', `${PATH}/commits/`);
    expect(new URL(request?.url ?? '').searchParams.get('limit')).toBe('10');
  });

  it.each([
    [404, 'Repository not found in database', 'Failed to load commits: Repository not found in database'],
    [403, 'Forbidden', "Failed to load commits: You don't have access to this repository"],
    [502, 'GitHub is unavailable', 'Failed to load commits: GitHub is unavailable'],
  ])('maps %d to its message', async (status, message, shown) => {
    await expandCommits(() => errorResponse(status, message));
    expect(await screen.findByText(shown)).toBeVisible();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeEnabled();
  });

  it('rejects an answer that is not an array', async () => {
    await expandCommits(() => jsonResponse({ commits: [] }));
    expect(
      await screen.findByText('Failed to load commits: Invalid response format from server'),
    ).toBeVisible();
  });

  it('times out after 10 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await expandCommits(hangingResponse);
    await act(async () => {
      vi.advanceTimersByTime(10_000);
    });
    expect(await screen.findByText('Failed to load commits: Connection timed out')).toBeVisible();
  });
});

describe('star growth history', () => {
  it('explains a short history and links public repositories to star-history.com', async () => {
    const { user } = openDetail(undefined, {
      [`GET ${PATH}/metrics`]: () =>
        jsonResponse({
          metrics: [
            {
              day: '2026-08-22',
              stars: 10,
              forks: 2,
              issues: 0,
              commits: 5,
              contributors: 1,
              health_score: null,
            },
          ],
          history: { status: 'none', backfilled_at: null, message: null },
        }),
    });
    await loaded();
    await user.click(screen.getByRole('tab', { name: 'History' }));
    expect(await screen.findByText(/Not much history yet/)).toBeVisible();
    expect(screen.getByText('Latest (2026-08-22): 10 stars, 2 forks.')).toBeVisible();
    expect(screen.getByRole('link', { name: /star-history.com/ }).getAttribute('href')).toBe(
      'https://star-history.com/#octo/widget',
    );
  });

  it('gives the numbers of a longer history as a table, and no link for a private repository', async () => {
    const point = (day: string, stars: number) => ({
      day,
      stars,
      forks: 1,
      issues: 0,
      commits: 1,
      contributors: 1,
      health_score: 80,
    });
    const { user } = openDetail(buildRepository({ id: FULL_NAME, private: true }), {
      [`GET ${PATH}/metrics`]: () =>
        jsonResponse({
          metrics: [point('2026-08-21', 5), point('2026-08-22', 9)],
          history: { status: 'none', backfilled_at: null, message: null },
        }),
    });
    await loaded();
    await user.click(screen.getByRole('tab', { name: 'History' }));
    const table = await screen.findByRole('table', { name: 'Stars, forks, issues and health per day' });
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(screen.queryByRole('link', { name: /star-history.com/ })).toBeNull();
  });
});
