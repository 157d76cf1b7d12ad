import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, type vi } from 'vitest';
import { formatDate, formatDateTime } from '#shared/format.ts';
import { encodeRouteId } from '#shared/route-id.ts';
import type { AdvisoriesResponse, Advisory } from '#shared/schemas/advisories.ts';
import type { HealthSignal, RepositoryHealth } from '#shared/schemas/health.ts';
import type { Repository } from '#shared/schemas/repositories.ts';
import { catalogueDouble } from '../../../../test/web/catalogue-double.ts';
import {
  errorResponse,
  type FetchHandler,
  jsonResponse,
  renderApp,
  signIn,
} from '../../../../test/web/render.tsx';
import { buildRepository } from '../../../../test/web/repository-fixtures.ts';

const FULL_NAME = 'octo/widget';
const PATH = '/repositories/octo%2Fwidget';
const MEASURED = '2026-11-20T08:00:00.000Z';

function signal(overrides: Partial<HealthSignal> & Pick<HealthSignal, 'key' | 'label'>): HealthSignal {
  return {
    value: 1,
    unit: 'days',
    points: 15,
    max_points: 15,
    measured_at: MEASURED,
    note: '',
    ...overrides,
  };
}

function health(overrides: Partial<RepositoryHealth> = {}): RepositoryHealth {
  return {
    score: 64,
    grade: 'watch',
    formula_version: 1,
    computed_at: '2026-11-21T09:30:00.000Z',
    override: null,
    signals: [
      signal({ key: 'archived', label: 'Archived', value: false, unit: 'flag', points: 0, max_points: 0 }),
      signal({
        key: 'days_since_last_commit',
        label: 'Days since the last commit',
        value: 120,
        points: 5,
        max_points: 15,
        note: '5 points: within 180 days',
      }),
      signal({
        key: 'commits_90d',
        label: 'Commits in the last 90 days',
        value: 3,
        unit: 'commits',
        points: 4,
        max_points: 10,
      }),
      signal({
        key: 'issue_response_days',
        label: 'Median days to a first answer',
        value: null,
        points: null,
        max_points: 12,
        measured_at: null,
      }),
      signal({
        key: 'top_contributor_share',
        label: 'Top contributor’s share',
        value: 0.62,
        unit: 'ratio',
        points: 4,
        max_points: 8,
      }),
      signal({ key: 'license', label: 'Licence', value: 'MIT', unit: 'spdx', points: 10, max_points: 10 }),
      signal({
        key: 'open_advisories',
        label: 'Open advisories',
        value: { critical: 0, high: 1, medium: 0, low: 0, unknown: 0 },
        unit: 'advisories',
        points: 3,
        max_points: 15,
      }),
    ],
    ...overrides,
  };
}

function advisory(overrides: Partial<Advisory> & Pick<Advisory, 'ghsa_id'>): Advisory {
  return {
    cve_id: null,
    severity: 'high',
    summary: `Summary of ${overrides.ghsa_id}`,
    url: `https://github.com/advisories/${overrides.ghsa_id}`,
    published_at: '2026-10-01T00:00:00.000Z',
    withdrawn_at: null,
    open: true,
    source: 'global',
    package: { ecosystem: 'npm', name: 'widget' },
    vulnerable_range: '< 2.0.1',
    patched_versions: '2.0.1',
    fixed_in_version_id: null,
    ...overrides,
  };
}

const ADVISORIES: AdvisoriesResponse = {
  advisories: [
    advisory({
      ghsa_id: 'GHSA-aaaa-bbbb-cccc',
      cve_id: 'CVE-2026-1234',
      summary: 'Prototype pollution in merge',
    }),
    advisory({ ghsa_id: 'GHSA-low1-low1-low1', severity: 'low', patched_versions: null }),
    advisory({ ghsa_id: 'GHSA-crit-crit-crit', severity: 'critical', open: false, fixed_in_version_id: 7 }),
    advisory({
      ghsa_id: 'GHSA-gone-gone-gone',
      severity: 'medium',
      open: false,
      withdrawn_at: '2026-11-02T00:00:00.000Z',
      source: 'repository',
      package: null,
    }),
  ],
  packages: [
    { ecosystem: 'npm', name: 'widget', detected: true },
    { ecosystem: 'pip', name: 'widget-py', detected: false },
  ],
  read_at: '2026-11-21T09:00:00.000Z',
};

function repository(overrides: Partial<Repository> = {}): Repository {
  return buildRepository({
    id: FULL_NAME,
    health: { score: 64, grade: 'watch' },
    open_advisories: { critical: 0, high: 1, medium: 0, low: 1, unknown: 0 },
    versions: [
      {
        id: 7,
        version_number: 'v2.0.1',
        release_date: '2026-10-05',
        description: null,
        created_at: '2026-10-05T10:00:00.000Z',
        source: 'release',
        release_url: null,
      },
    ],
    ...overrides,
  });
}

function openHealth(
  handlers: Record<string, FetchHandler> = {},
  tab: string | null = 'health',
  data: Repository = repository(),
) {
  signIn();
  return renderApp({
    route: `/repo/${encodeRouteId(FULL_NAME)}${tab ? `?tab=${tab}` : ''}`,
    handlers: {
      ...catalogueDouble([]).handlers,
      [`GET ${PATH}`]: () => jsonResponse({ repository: data }),
      'GET /api/get-versions': () => jsonResponse({ versions: data.versions }),
      [`GET ${PATH}/health`]: () => jsonResponse({ health: health() }),
      [`GET ${PATH}/advisories`]: () => jsonResponse(ADVISORIES),
      ...handlers,
    },
  });
}

function requestsTo(fetchMock: ReturnType<typeof vi.fn>, method: string, pathname: string): Request[] {
  return fetchMock.mock.calls
    .map(([input, init]) => new Request(input as RequestInfo, init as RequestInit))
    .filter((request) => request.method === method && new URL(request.url).pathname === pathname);
}

describe('the health summary under the header', () => {
  it('shows the grade, the score, the two signals that cost the most points and the open advisories; its link opens the tab', async () => {
    const { user } = openHealth({}, null);
    const summary = await screen.findByRole('group', { name: 'Health summary' });
    expect(within(summary).getByText('Watch')).toBeVisible();
    expect(within(summary).getByText('64 / 100')).toBeVisible();
    expect(
      await within(summary).findByText('Costs most: Open advisories (−12), Days since the last commit (−10)'),
    ).toBeVisible();
    expect(within(summary).getByText('2 open advisories')).toBeVisible();
    await user.click(within(summary).getByRole('button', { name: 'Health & security details' }));
    expect(window.location.hash).toBe(`#/repo/${encodeRouteId(FULL_NAME)}?tab=health`);
    expect(await screen.findByRole('heading', { name: 'Security advisories' })).toBeVisible();
  });

  it('shows the grade the repository carries when the health call fails, without signals', async () => {
    openHealth(
      { [`GET ${PATH}/health`]: () => errorResponse(500, 'down') },
      null,
      repository({
        health: { score: null, grade: 'unknown' },
        open_advisories: { critical: 0, high: 0, medium: 0, low: 0, unknown: 0 },
      }),
    );
    const summary = await screen.findByRole('group', { name: 'Health summary' });
    expect(within(summary).getByText('Unknown')).toBeVisible();
    expect(within(summary).getByText('No score yet')).toBeVisible();
    expect(within(summary).queryByText(/Costs most/)).toBeNull();
    expect(within(summary).queryByText(/open advisor/)).toBeNull();
  });
});

describe('the Health & security tab: signals', () => {
  it('lists every signal with its raw value, when it was measured and its points, and the formula version', async () => {
    openHealth();
    const table = await screen.findByRole('table', { name: 'Health' });
    const row = (label: string) =>
      within(
        within(table)
          .getAllByRole('row')
          .find((candidate) => within(candidate).queryByText(label)) as HTMLElement,
      );
    expect(row('Days since the last commit').getByText('120 days')).toBeVisible();
    expect(row('Days since the last commit').getByText('5 / 15')).toBeVisible();
    expect(row('Days since the last commit').getByText('5 points: within 180 days')).toBeVisible();
    expect(row('Days since the last commit').getByText(formatDate(MEASURED))).toBeVisible();
    expect(row('Archived').getByText('No')).toBeVisible();
    expect(row('Archived').getByText('Not scored')).toBeVisible();
    expect(row('Median days to a first answer').getByText('Unknown')).toBeVisible();
    expect(row('Median days to a first answer').getByText('Left out (of 12)')).toBeVisible();
    expect(row('Top contributor’s share').getByText('62%')).toBeVisible();
    expect(row('Licence').getByText('MIT')).toBeVisible();
    expect(row('Open advisories').getByText('1 high')).toBeVisible();
    expect(
      screen.getByText(
        new RegExp(`Scored ${formatDateTime('2026-11-21T09:30:00.000Z')} by formula version 1`),
      ),
    ).toBeVisible();
  });

  it('says when the health cannot be loaded, and retries', async () => {
    let calls = 0;
    const { user } = openHealth({
      [`GET ${PATH}/health`]: () => {
        calls += 1;
        return calls <= 1 ? errorResponse(503, 'Try later') : jsonResponse({ health: health() });
      },
    });
    const alert = await screen.findByText(/Failed to load the health: Try later/);
    await user.click(
      within(alert.closest('[role="alert"]') as HTMLElement).getByRole('button', { name: 'Retry' }),
    );
    expect(await screen.findByRole('table', { name: 'Health' })).toBeVisible();
  });
});

describe('the Health & security tab: finished software', () => {
  it('asks for a reason, marks the repository finished, and shows who, when and why', async () => {
    const marked = health({
      score: 88,
      grade: 'healthy',
      override: {
        reason: 'Finished: the API is stable',
        set_by: 'alice',
        set_at: '2026-11-22T10:00:00.000Z',
      },
    });
    const { user, fetchMock } = openHealth({
      [`PUT ${PATH}/health/override`]: () => jsonResponse({ health: marked }),
    });
    const reason = await screen.findByRole('textbox', { name: 'Why no activity is expected' });
    await user.click(screen.getByRole('button', { name: 'Mark as finished' }));
    expect(
      await screen.findByText('Say why no activity is expected (for example "Finished: the API is stable").'),
    ).toBeVisible();
    expect(requestsTo(fetchMock, 'PUT', `${PATH}/health/override`)).toHaveLength(0);

    await user.type(reason, '  Finished: the API is stable ');
    await user.click(screen.getByRole('button', { name: 'Mark as finished' }));
    expect(await screen.findByText('✅ Marked as finished.')).toBeVisible();
    const [request] = requestsTo(fetchMock, 'PUT', `${PATH}/health/override`);
    expect(await request?.json()).toEqual({ reason: 'Finished: the API is stable' });
    expect(
      screen.getByText(`Marked by alice on ${formatDateTime('2026-11-22T10:00:00.000Z')}.`),
    ).toBeVisible();
    expect(screen.getByText('Finished: the API is stable')).toBeVisible();
    // The header's summary follows the new grade.
    const summary = screen.getByRole('group', { name: 'Health summary' });
    expect(within(summary).getByText('Healthy')).toBeVisible();
    expect(within(summary).getByText('88 / 100')).toBeVisible();
  });

  it('clears the mark', async () => {
    const marked = health({
      override: { reason: 'Done', set_by: null, set_at: '2026-11-22T10:00:00.000Z' },
    });
    const { user, fetchMock } = openHealth({
      [`GET ${PATH}/health`]: () => jsonResponse({ health: marked }),
      [`DELETE ${PATH}/health/override`]: () => jsonResponse({ health: health() }),
    });
    expect(await screen.findByText(/Marked by a former member on/)).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Clear the mark' }));
    expect(await screen.findByText('✅ The mark is cleared: activity counts again.')).toBeVisible();
    expect(requestsTo(fetchMock, 'DELETE', `${PATH}/health/override`)).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Mark as finished' })).toBeVisible();
  });

  it('says when marking fails', async () => {
    const { user } = openHealth({
      [`PUT ${PATH}/health/override`]: () => errorResponse(404, 'Repository not found'),
    });
    await user.type(await screen.findByRole('textbox', { name: 'Why no activity is expected' }), 'Stable');
    await user.click(screen.getByRole('button', { name: 'Mark as finished' }));
    expect(await screen.findByText('❌ Failed to mark as finished: Repository not found')).toBeVisible();
  });
});

describe('the Health & security tab: advisories', () => {
  it('groups open and fixed or withdrawn advisories by severity, with their links and details', async () => {
    openHealth();
    const open = await screen.findByRole('region', { name: 'Open (2)' });
    expect(
      within(open)
        .getAllByRole('heading', { level: 4 })
        .map((heading) => heading.textContent),
    ).toEqual(['High (1)', 'Low (1)']);
    const high = within(open).getByText('Prototype pollution in merge').closest('li') as HTMLElement;
    expect(within(high).getByRole('link', { name: 'GHSA-aaaa-bbbb-cccc' }).getAttribute('href')).toBe(
      'https://github.com/advisories/GHSA-aaaa-bbbb-cccc',
    );
    expect(within(high).getByRole('link', { name: 'CVE-2026-1234' }).getAttribute('href')).toBe(
      'https://www.cve.org/CVERecord?id=CVE-2026-1234',
    );
    expect(within(high).getByText('Package: widget (npm)')).toBeVisible();
    expect(within(high).getByText('Affected: < 2.0.1')).toBeVisible();
    expect(within(high).getByText('Patched: 2.0.1')).toBeVisible();
    const low = within(open).getByText('Summary of GHSA-low1-low1-low1').closest('li') as HTMLElement;
    expect(within(low).getByText('Patched: no patched version yet')).toBeVisible();

    const closed = screen.getByRole('region', { name: 'Fixed or withdrawn (2)' });
    const critical = within(closed).getByText('Summary of GHSA-crit-crit-crit').closest('li') as HTMLElement;
    expect(within(critical).getByText('Critical')).toBeVisible();
    expect(within(critical).getByText('Fixed in v2.0.1')).toBeVisible();
    const withdrawn = within(closed).getByText('Summary of GHSA-gone-gone-gone').closest('li') as HTMLElement;
    expect(within(withdrawn).getByText(`Withdrawn ${formatDate('2026-11-02T00:00:00.000Z')}`)).toBeVisible();
    expect(within(withdrawn).getByText(/Published by the repository/)).toBeVisible();
    expect(
      screen.getByText(new RegExp(`Read from GitHub ${formatDateTime('2026-11-21T09:00:00.000Z')}`)),
    ).toBeVisible();
  });

  it('says when there is no open advisory and nothing was read yet', async () => {
    openHealth({
      [`GET ${PATH}/advisories`]: () => jsonResponse({ advisories: [], packages: [], read_at: null }),
    });
    expect(await screen.findByText('No open advisory.')).toBeVisible();
    expect(screen.getByText(/Not read from GitHub yet/)).toBeVisible();
    expect(screen.queryByRole('region', { name: /Fixed or withdrawn/ })).toBeNull();
    expect(screen.getByText(/No package: only the repository’s own advisories are read/)).toBeVisible();
  });
});

describe('the Health & security tab: packages', () => {
  it('lists the packages, edits them by the shared rules, and saves the whole list', async () => {
    const saved: AdvisoriesResponse = {
      ...ADVISORIES,
      packages: [
        { ecosystem: 'npm', name: 'widget', detected: true },
        { ecosystem: 'rust', name: 'widget-rs', detected: false },
      ],
    };
    const { user, fetchMock } = openHealth({ [`PUT ${PATH}/packages`]: () => jsonResponse(saved) });
    const card = await screen.findByRole('region', { name: 'Packages' });
    expect(within(card).getByText('widget-py')).toBeVisible();
    expect(within(card).getByText('added by a member')).toBeVisible();
    expect(within(card).getByText('found in a manifest')).toBeVisible();

    await user.click(within(card).getByRole('button', { name: 'Edit packages' }));
    const name2 = await within(card).findByRole('textbox', { name: 'Name of package 2' });
    expect(name2).toHaveValue('widget-py');
    await user.click(within(card).getByRole('button', { name: 'Remove package 2 (widget-py)' }));
    await user.click(within(card).getByRole('button', { name: 'Add package' }));
    const added = within(card).getByRole('textbox', { name: 'Name of package 2' });
    await user.type(added, 'widget rs');
    await user.click(within(card).getByRole('button', { name: 'Save packages' }));
    expect(await within(card).findByText('A package name has no spaces or commas')).toBeVisible();
    await user.clear(added);
    await user.type(added, 'Widget');
    await user.click(within(card).getByRole('button', { name: 'Save packages' }));
    expect(await within(card).findByText('Widget (npm) is listed twice')).toBeVisible();
    expect(requestsTo(fetchMock, 'PUT', `${PATH}/packages`)).toHaveLength(0);

    await user.click(within(card).getByRole('combobox', { name: 'Ecosystem of package 2' }));
    await user.click(await screen.findByRole('option', { name: 'crates.io' }));
    await user.clear(added);
    await user.type(added, ' widget-rs ');
    await user.click(within(card).getByRole('button', { name: 'Save packages' }));
    await waitFor(() => expect(requestsTo(fetchMock, 'PUT', `${PATH}/packages`)).toHaveLength(1));
    const [request] = requestsTo(fetchMock, 'PUT', `${PATH}/packages`);
    expect(await request?.json()).toEqual({
      packages: [
        { ecosystem: 'npm', name: 'widget' },
        { ecosystem: 'rust', name: 'widget-rs' },
      ],
    });
    expect(await within(card).findByText('widget-rs')).toBeVisible();
    expect(within(card).queryByRole('button', { name: 'Save packages' })).toBeNull();
  });

  it('shows the server’s refusal', async () => {
    const { user } = openHealth({
      [`PUT ${PATH}/packages`]: () =>
        errorResponse(400, 'A repository lists at most 20 packages', {
          fields: { packages: 'A repository lists at most 20 packages' },
        }),
    });
    const card = await screen.findByRole('region', { name: 'Packages' });
    await user.click(within(card).getByRole('button', { name: 'Edit packages' }));
    await user.click(await within(card).findByRole('button', { name: 'Save packages' }));
    expect(
      await within(card).findByText('❌ Failed to save the packages: A repository lists at most 20 packages'),
    ).toBeVisible();
    // The server's field message shows under the rows too.
    expect(within(card).getByText('A repository lists at most 20 packages')).toBeVisible();
  });
});
