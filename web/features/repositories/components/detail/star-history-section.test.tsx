import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { HistoryState } from '#shared/schemas/history.ts';
import type { MetricPoint } from '#shared/schemas/repositories.ts';
import { errorResponse, jsonResponse, renderWithProviders, signIn } from '../../../../../test/web/render.tsx';
import { buildRepository } from '../../../../../test/web/repository-fixtures.ts';
import {
  BACKFILL_LABEL,
  BACKFILLING_LABEL,
  NO_SERIES_MESSAGE,
  NOT_AVAILABLE_MESSAGE,
  StarHistorySection,
} from './star-history-section.tsx';

const FULL_NAME = 'octo/widget';
const PATH = `/repositories/${encodeURIComponent(FULL_NAME)}`;
const DAY_MS = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString().slice(0, 10);

/** A backfilled history: weekly points two years back, daily for the last year, today the app's own row. */
function backfilledHistory(): MetricPoint[] {
  const points: MetricPoint[] = [];
  for (let days = 728; days > 364; days -= 7)
    points.push({
      day: daysAgo(days),
      stars: 1000 - days,
      forks: null,
      issues: null,
      commits: null,
      contributors: null,
      health_score: null,
    });
  for (let days = 364; days >= 1; days--)
    points.push({
      day: daysAgo(days),
      stars: 2000 - days,
      forks: null,
      issues: null,
      commits: null,
      contributors: null,
      health_score: null,
    });
  points.push({
    day: daysAgo(0),
    stars: 2000,
    forks: 40,
    issues: 7,
    commits: 900,
    contributors: 12,
    health_score: 71,
  });
  return points;
}

const state = (status: HistoryState['status'], extra: Partial<HistoryState> = {}): HistoryState => ({
  status,
  backfilled_at: status === 'done' ? '2026-11-25T10:00:00.000Z' : null,
  message: null,
  ...extra,
});

function open(history: HistoryState, metrics: MetricPoint[] = backfilledHistory(), handlers = {}) {
  signIn();
  return renderWithProviders(<StarHistorySection repository={buildRepository({ id: FULL_NAME })} />, {
    handlers: { [`GET ${PATH}/metrics`]: () => jsonResponse({ metrics, history }), ...handlers },
  });
}

const rows = async () =>
  within(await screen.findByRole('table', { name: 'Stars, forks, issues and health per day' })).getAllByRole(
    'row',
  ).length - 1;

describe('star history ranges and series', () => {
  it('shows every point, then 30 days, 90 days and a year', async () => {
    const { user } = open(state('done'));
    expect(await rows()).toBe(backfilledHistory().length);
    await user.click(screen.getByRole('radio', { name: '30 days' }));
    expect(await rows()).toBe(30);
    await user.click(screen.getByRole('radio', { name: '90 days' }));
    expect(await rows()).toBe(90);
    await user.click(screen.getByRole('radio', { name: '1 year' }));
    expect(await rows()).toBe(365);
    expect(screen.getByText('+364 stars in the last year')).toBeVisible();
  });

  it('gives the week’s growth, and backfilled days without forks as unknown', async () => {
    open(state('done'));
    expect(await screen.findByText('+7 stars this week')).toBeVisible();
    const table = await screen.findByRole('table', { name: 'Stars, forks, issues and health per day' });
    const [, first] = within(table).getAllByRole('row');
    expect(
      within(first as HTMLElement)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual([daysAgo(728), '272', 'unknown', 'unknown', 'unknown']);
    expect(screen.getByText(/Full star history loaded from GitHub/)).toBeVisible();
  });

  it('lets the series be toggled, and asks for one when none is left', async () => {
    const { user } = open(state('done'));
    const series = await screen.findByRole('group', { name: 'Series' });
    const stars = within(series).getByRole('checkbox', { name: 'Stars' });
    const forks = within(series).getByRole('checkbox', { name: 'Forks' });
    expect(stars).toBeChecked();
    expect(within(series).getByRole('checkbox', { name: 'Issues' })).not.toBeChecked();
    expect(within(series).getByRole('checkbox', { name: 'Health' })).not.toBeChecked();
    await user.click(stars);
    await user.click(forks);
    expect(await screen.findByText(NO_SERIES_MESSAGE)).toBeVisible();
  });
});

describe('the health series', () => {
  it('can be drawn, and gives each day’s health score in the table', async () => {
    const { user } = open(state('done'));
    const series = await screen.findByRole('group', { name: 'Series' });
    await user.click(within(series).getByRole('checkbox', { name: 'Health' }));
    expect(within(series).getByRole('checkbox', { name: 'Health' })).toBeChecked();
    const table = await screen.findByRole('table', { name: 'Stars, forks, issues and health per day' });
    expect(within(table).getByRole('columnheader', { name: 'Health score' })).toBeTruthy();
    const last = within(table).getAllByRole('row').at(-1) as HTMLElement;
    expect(
      within(last)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual([daysAgo(0), '2000', '40', '7', '71']);
  });
});

describe('the backfill’s states', () => {
  it('queues a backfill and shows it loading', async () => {
    let status: HistoryState['status'] = 'none';
    const { user, fetchMock } = open(state('none'), backfilledHistory().slice(-1), {
      [`GET ${PATH}/metrics`]: () =>
        jsonResponse({ metrics: backfilledHistory().slice(-1), history: state(status) }),
      [`POST ${PATH}/history/backfill`]: () => {
        status = 'pending';
        return jsonResponse(
          {
            queued: true,
            message: 'The star history of octo/widget will be loaded from GitHub shortly.',
            history: state('pending'),
          },
          { status: 202 },
        );
      },
    });
    await user.click(await screen.findByRole('button', { name: BACKFILL_LABEL }));
    expect(await screen.findByText(/will be loaded from GitHub shortly/)).toBeVisible();
    expect(await screen.findByRole('button', { name: BACKFILLING_LABEL })).toBeDisabled();
    expect(
      fetchMock.mock.calls.some(
        ([input, init]) => String(input).endsWith('/history/backfill') && init?.method === 'POST',
      ),
    ).toBe(true);
  });

  it('says when GitHub has no history, and keeps the action', async () => {
    open(
      state('unavailable', { message: 'GitHub has no star history for this repository (it answered 404).' }),
    );
    expect(await screen.findByText(new RegExp(NOT_AVAILABLE_MESSAGE))).toBeVisible();
    expect(screen.getByRole('button', { name: BACKFILL_LABEL })).toBeEnabled();
  });

  it('shows why it waits or failed, and a refused request', async () => {
    const { user } = open(state('failed', { message: 'GitHub could not be reached.' }), backfilledHistory(), {
      [`POST ${PATH}/history/backfill`]: () =>
        errorResponse(
          400,
          'Loading the star history needs a GitHub token: add yours in Settings → GitHub Access.',
        ),
    });
    expect(await screen.findByText(/failed: GitHub could not be reached/)).toBeVisible();
    await user.click(screen.getByRole('button', { name: BACKFILL_LABEL }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(/needs a GitHub token/));
  });

  it('says what a pending backfill waits for', async () => {
    open(
      state('pending', {
        message: 'Waiting for a GitHub token: GitHub gives the star history only to signed-in callers.',
      }),
    );
    expect(await screen.findByText(/Waiting for a GitHub token/)).toBeVisible();
    expect(screen.getByRole('button', { name: BACKFILLING_LABEL })).toBeDisabled();
  });
});
