import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { encodeRouteId } from '#shared/route-id.ts';
import type { RepositorySummary } from '#shared/schemas/repositories.ts';
import { catalogueDouble, renderWithCatalogue } from '../../../../test/web/catalogue-double.ts';
import {
  buildRepositorySummary,
  type FetchHandler,
  failingOnce,
  renderWithProviders,
} from '../../../../test/web/render.tsx';
import StatsRoute from './stats.tsx';

const recent = new Date(Date.now() - 2 * 86_400_000).toISOString();
const old = '2020-01-01T00:00:00Z';

const row = (id: string, overrides: Partial<RepositorySummary>) =>
  buildRepositorySummary({ id, ...overrides });

const rows = [
  row('a/one', {
    tags: 'web,react',
    topics: 'ui',
    license: 'MIT',
    stars: 1500,
    forks: 10,
    contributors: 5,
    last_commit: recent,
  }),
  row('a/two', {
    tags: 'web',
    topics: 'ui,css',
    license: 'mit',
    stars: 50,
    forks: 2,
    contributors: '1000+',
    last_commit: old,
  }),
  row('a/three', {
    tags: 'cli',
    topics: 'rust',
    license: '',
    stars: 200_000,
    forks: 3,
    contributors: 4000,
    last_commit: recent,
  }),
];

function openStats() {
  return renderWithCatalogue('/stats', rows);
}

/** The parameters of the latest statistics call. */
function lastStatsCall(catalogue: ReturnType<typeof catalogueDouble>) {
  return Object.fromEntries(catalogue.requests('GET /repositories/stats').at(-1) ?? []);
}

/** A stat card is a group named '{label}: {value}'; what it shows besides its label. */
function card(label: string): string {
  const group = screen.getByRole('group', { name: (name) => name.startsWith(`${label}: `) });
  return group.textContent?.replace(label, '') ?? '';
}

describe('statistics page', () => {
  it('shows the server’s stat cards over every repository', async () => {
    const { catalogue } = openStats();
    expect(await screen.findByText('Showing statistics for 3 of 3 repositories')).toBeVisible();
    expect(card('Total repositories')).toBe('3');
    expect(card('Total stars')).toBe('201,550');
    expect(card('Average stars')).toBe('67,183.3');
    expect(card('Total forks')).toBe('15');
    expect(card('Recently updated')).toContain('2');
    expect(card('License coverage')).toContain('67%');
    expect(card('Most common license')).toContain('MIT');
    expect(card('Most common license')).toContain('2 repositories');
    expect(card('Contributors')).toContain('2,005');
    expect(await screen.findByRole('heading', { name: 'Charts' })).toBeVisible();
    expect(catalogue.requests('GET /repositories/stats')).toHaveLength(1);
    expect(lastStatsCall(catalogue)).toEqual({});
  });

  it('filters on the server by tags (AND), licence and stars, with removable chips and Clear filters', async () => {
    const { user, catalogue } = openStats();
    await screen.findByText('Showing statistics for 3 of 3 repositories');
    const tags = screen.getByRole('combobox', { name: 'Tags' });
    await user.type(tags, 'web{Enter}');
    expect(await screen.findByText('Showing statistics for 2 of 3 repositories')).toBeVisible();
    await user.type(tags, 'REACT{Enter}');
    expect(await screen.findByText('Showing statistics for 1 of 3 repositories')).toBeVisible();
    expect(lastStatsCall(catalogue)).toEqual({ tags: 'web,REACT' });
    const chips = screen.getByRole('group', { name: 'Active filters' });
    await user.click(within(chips).getByRole('button', { name: /Remove filter Tag: react/i }));
    expect(await screen.findByText('Showing statistics for 2 of 3 repositories')).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(await screen.findByText('Showing statistics for 3 of 3 repositories')).toBeVisible();

    await user.click(screen.getByRole('combobox', { name: 'License' }));
    await user.click(await screen.findByRole('option', { name: 'No License' }));
    expect(await screen.findByText('Showing statistics for 1 of 3 repositories')).toBeVisible();
    expect(
      within(screen.getByRole('group', { name: 'Active filters' })).getByText('License: No License'),
    ).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(await screen.findByText('Showing statistics for 3 of 3 repositories')).toBeVisible();

    const min = screen.getByRole('textbox', { name: 'Minimum stars' });
    const max = screen.getByRole('textbox', { name: 'Maximum stars' });
    await user.type(min, '100');
    await user.type(max, '2000');
    expect(await screen.findByText('Showing statistics for 1 of 3 repositories')).toBeVisible();
    expect(screen.getByText('Stars: 100–2,000')).toBeVisible();
    await waitFor(() => expect(lastStatsCall(catalogue)).toEqual({ min_stars: '100', max_stars: '2000' }));
    expect(
      screen.getByRole('link', { name: 'Show these repositories in the list' }).getAttribute('href'),
    ).toBe('#/home?min_stars=100&max_stars=2000');
  });

  it('shows an empty state instead of zero cards when nothing matches, and for an empty catalogue', async () => {
    const { user } = openStats();
    await screen.findByText('Showing statistics for 3 of 3 repositories');
    await user.type(screen.getByRole('combobox', { name: 'Tags' }), 'nothing-has-this{Enter}');
    expect(await screen.findByRole('heading', { name: 'No repositories match these filters' })).toBeVisible();
    expect(screen.queryByRole('group', { name: /^Average stars: / })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Charts' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(await screen.findByRole('heading', { name: 'Charts' })).toBeVisible();
  });

  it('invites an empty catalogue to add repositories', async () => {
    renderWithCatalogue('/stats', []);
    expect(await screen.findByRole('heading', { name: 'No repositories yet' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Add Repositories' }).getAttribute('href')).toBe('#/add');
  });

  it('shows the three star messages and leaves an invalid range out of the request, with the hint', async () => {
    const { user, catalogue } = openStats();
    await screen.findByText('Showing statistics for 3 of 3 repositories');
    const min = screen.getByRole('textbox', { name: 'Minimum stars' });
    const max = screen.getByRole('textbox', { name: 'Maximum stars' });
    await user.type(min, '-5');
    expect(await screen.findByText('Minimum stars must be 0 or greater.')).toBeVisible();
    expect(screen.getByText('Fix the star range above or clear all filters.')).toBeVisible();
    expect(screen.getByText('Showing statistics for 3 of 3 repositories')).toBeVisible();
    await user.clear(min);
    await user.type(max, '-1');
    expect(await screen.findByText('Maximum stars must be 0 or greater.')).toBeVisible();
    await user.clear(max);
    await user.type(min, '500');
    await user.type(max, '100');
    expect(await screen.findByText('Minimum stars cannot be greater than maximum.')).toBeVisible();
    expect(screen.getByText('Showing statistics for 3 of 3 repositories')).toBeVisible();
    // The server answers 400 for these; the screen never sends them.
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const params of catalogue.requests('GET /repositories/stats')) {
      expect(params.has('min_stars') || params.has('max_stars')).toBe(false);
    }
    await user.clear(max);
    await user.type(max, '1000');
    await waitFor(() => expect(lastStatsCall(catalogue)).toEqual({ min_stars: '500', max_stars: '1000' }));
    expect(await screen.findByText('Showing statistics for 0 of 3 repositories')).toBeVisible();
  });

  it("says 'Failed to load statistics. Please try again.' and retries", async () => {
    const { user } = renderWithCatalogue('/stats', rows, (catalogue) => ({
      'GET /repositories/stats': failingOnce(catalogue.handlers['GET /repositories/stats'] as FetchHandler),
    }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Failed to load statistics. Please try again.')).toBeVisible();
    await act(async () => user.click(within(alert).getByRole('button', { name: 'Retry' })));
    expect(await screen.findByText('Showing statistics for 3 of 3 repositories')).toBeVisible();
  });

  it('says the user information is missing when nobody is signed in', async () => {
    renderWithProviders(<StatsRoute />, { handlers: catalogueDouble(rows).handlers });
    expect(
      await screen.findByText('User information not available. Please try refreshing the page.'),
    ).toBeVisible();
  });
});

describe('fastest growing, last 30 days', () => {
  it('lists the repositories that gained the most stars in 30 days, most first', async () => {
    renderWithCatalogue('/stats', [
      row('g/slow', { growth: { stars_7d: 1, stars_30d: 12 } }),
      row('g/fast', { growth: { stars_7d: 300, stars_30d: 1234 } }),
      row('g/none', { growth: { stars_7d: null, stars_30d: null } }),
      row('g/losing', { growth: { stars_7d: -3, stars_30d: -9 } }),
    ]);
    const section = await screen.findByRole('region', { name: 'Fastest growing, last 30 days' });
    const items = within(section).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual(['g/fast+1,234 stars', 'g/slow+12 stars']);
    expect(within(section).getByRole('link', { name: 'g/fast' })).toHaveAttribute(
      'href',
      `#/repo/${encodeRouteId('g/fast')}`,
    );
  });

  it('says why it is empty when no repository has 30 days of growth', async () => {
    openStats();
    const section = await screen.findByRole('region', { name: 'Fastest growing, last 30 days' });
    expect(within(section).queryByRole('list')).toBeNull();
    expect(section).toHaveTextContent(/No repository here gained stars in the last 30 days/);
  });
});

describe('health and security', () => {
  const graded = [
    row('h/fine', { tags: 'web', health: { score: 90, grade: 'healthy' } }),
    row('h/also-fine', { tags: 'web', health: { score: 80, grade: 'healthy' } }),
    row('h/shaky', {
      tags: 'cli',
      health: { score: 30, grade: 'at_risk' },
      open_advisories: { critical: 1, high: 2, medium: 0, low: 0, unknown: 1 },
    }),
    row('h/new', { tags: 'web', open_advisories: { critical: 0, high: 1, medium: 0, low: 0, unknown: 0 } }),
  ];

  it('counts the repositories of each health grade, each linked to the list, and the open advisories by severity', async () => {
    renderWithCatalogue('/stats', graded);
    const grades = await screen.findByRole('list', { name: 'Health grades' });
    const line = (list: HTMLElement, label: string) =>
      within(list)
        .getAllByRole('listitem')
        .find((item) => within(item).queryByText(label))?.textContent;
    expect(line(grades, 'Healthy')).toBe('Healthy2');
    expect(line(grades, 'Watch')).toBe('Watch0');
    expect(line(grades, 'At risk')).toBe('At risk1');
    expect(line(grades, 'Unknown')).toBe('Unknown1');
    expect(
      within(grades).getByRole('link', { name: 'Show the at risk repositories' }).getAttribute('href'),
    ).toBe('#/home?health=at_risk');
    expect(within(grades).queryByRole('link', { name: 'Show the watch repositories' })).toBeNull();

    const advisories = screen.getByRole('list', { name: 'Open security advisories' });
    expect(line(advisories, 'Critical')).toBe('Critical1');
    expect(line(advisories, 'High')).toBe('High3');
    expect(line(advisories, 'Unrated')).toBe('Unrated1');
  });

  it('follows the filters', async () => {
    const { user } = renderWithCatalogue('/stats', graded);
    await screen.findByText('Showing statistics for 4 of 4 repositories');
    const tags = screen.getByRole('combobox', { name: 'Tags' });
    await user.type(tags, 'web{Enter}');
    await screen.findByText('Showing statistics for 3 of 4 repositories');
    await waitFor(() =>
      expect(
        within(screen.getByRole('list', { name: 'Open security advisories' }))
          .getAllByRole('listitem')
          .map((item) => item.textContent),
      ).toEqual(['Critical0', 'High1', 'Medium0', 'Low0', 'Unrated0']),
    );
    expect(
      within(screen.getByRole('list', { name: 'Health grades' }))
        .getByRole('link', { name: 'Show the healthy repositories' })
        .getAttribute('href'),
    ).toBe('#/home?tags=web&health=healthy');
  });

  it('counts the repositories per team decision, each status linked to the list filtered by it', async () => {
    renderWithCatalogue('/stats', [
      row('d/one', { decision: { status: 'adopt', quadrant: 'tools' } }),
      row('d/two', { decision: { status: 'adopt', quadrant: 'libraries' } }),
      row('d/three', { decision: { status: 'hold', quadrant: 'tools' } }),
      row('d/four', {}),
    ]);
    const statuses = await screen.findByRole('list', { name: 'Team decisions' });
    expect(
      within(statuses)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Assess0', 'Trial0', 'Adopt2', 'Hold1', 'Retired0', 'No status1']);
    expect(
      within(statuses).getByRole('link', { name: 'Show the repositories in adopt' }).getAttribute('href'),
    ).toBe('#/home?status=adopt');
  });

  it('says when no advisory is open', async () => {
    renderWithCatalogue('/stats', [row('q/quiet', {})]);
    expect(await screen.findByText(/No open advisory in these repositories/)).toBeVisible();
    expect(screen.queryByRole('list', { name: 'Open security advisories' })).toBeNull();
  });
});
