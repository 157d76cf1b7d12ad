import { describe, expect, it } from 'vitest';
import type { MetricPoint } from '#shared/schemas/repositories.ts';
import { axisDomain, chartProps, formatTimeTick, timeTicks, tooltipDay } from './star-history-chart.tsx';

/**
 * Issue 23 item 6: the History chart's time axis places points by date (a year of daily points
 * and the weekly ones before take the room their dates do), and a nearly flat forks series gets
 * an axis it shows on. What recharts is given is read (chartProps): happy-dom lays nothing out,
 * so a drawn chart would have nothing to measure.
 */
const DAY = 86_400_000;
function point(day: string, stars: number, forks: number | null = null): MetricPoint {
  return { day, stars, forks, issues: null, commits: null, contributors: null, health_score: null };
}

// Eight years of weekly points, then a year of daily ones (the last few days the app's own, with forks).
const weekly = Array.from({ length: 8 * 52 }, (_, index) =>
  point(new Date(Date.UTC(2017, 0, 1) + index * 7 * DAY).toISOString().slice(0, 10), 1000 + index * 10),
);
const daily = Array.from({ length: 365 }, (_, index) => {
  const day = new Date(Date.UTC(2025, 0, 1) + index * DAY).toISOString().slice(0, 10);
  return point(day, 6000 + index * 20, index >= 360 ? 28_945 + (index - 360) : null);
});
const metrics = [...weekly, ...daily];

describe('StarHistoryChart', () => {
  it('places every point at its date on a numeric time axis', () => {
    const { data, dataKey, xAxisProps } = chartProps(metrics, ['stars', 'forks']) as unknown as {
      data: Record<string, number | string | null>[];
      dataKey: string;
      xAxisProps: {
        type: string;
        scale: string;
        domain: unknown;
        ticks: number[];
        tickFormatter: (v: number) => string;
      };
    };
    expect(xAxisProps).toMatchObject({ type: 'number', scale: 'time', domain: ['dataMin', 'dataMax'] });
    const x = data.map((row) => Number(row[dataKey]));
    // Proportional to dates: a year of daily points spans a year, eight years of weekly ones eight.
    const first = x[0] as number;
    const seam = x[weekly.length] as number;
    const last = x.at(-1) as number;
    expect((last - seam) / (last - first)).toBeCloseTo(364 / (last / DAY - first / DAY), 5);
    expect((seam - first) / (last - seam)).toBeGreaterThan(7.5);
    expect(x).toEqual(metrics.map((entry) => Date.parse(`${entry.day}T00:00:00Z`)));
    // Years on an eight-year axis.
    expect(xAxisProps.ticks[0]).toBe(Date.UTC(2018, 0, 1));
    expect(xAxisProps.tickFormatter(Date.UTC(2021, 0, 1))).toBe('2021');
  });

  it('gives a nearly flat forks series an axis wide enough to show it', () => {
    const { rightYAxisProps, yAxisProps } = chartProps(metrics, ['stars', 'forks']) as unknown as {
      rightYAxisProps: { domain: [number, number] };
      yAxisProps: { domain: unknown };
    };
    const [low, high] = rightYAxisProps.domain;
    expect(low).toBeLessThan(28_945 - 100);
    expect(high).toBeGreaterThan(28_949 + 100);
    // Stars span thousands: their axis is their data's own.
    expect(yAxisProps.domain).toEqual(['auto', 'auto']);
  });

  it('words the helpers’ edges', () => {
    expect(axisDomain([])).toEqual(['auto', 'auto']);
    expect(axisDomain([3, 3])).toEqual([0, 8]);
    expect(axisDomain([100, 5000])).toEqual(['auto', 'auto']);
    const start = Date.UTC(2026, 0, 15);
    expect(timeTicks(start, start + 200 * DAY).slice(0, 2)).toEqual([
      Date.UTC(2026, 1, 1),
      Date.UTC(2026, 2, 1),
    ]);
    expect(formatTimeTick(Date.UTC(2026, 2, 1), 200 * DAY)).toBe('Mar 2026');
    expect(formatTimeTick(Date.UTC(2026, 2, 14), 30 * DAY)).toBe('14 Mar');
  });
});

describe('the tooltip heading', () => {
  it('reads the point’s day, and nothing (no crash) when the tooltip has no point', () => {
    expect(tooltipDay(Date.UTC(2026, 6, 4))).toBe('2026-07-04');
    expect(tooltipDay(String(Date.UTC(2026, 6, 4)))).toBe('2026-07-04');
    // 'Invalid time value' took the whole History tab down to the error screen.
    expect(tooltipDay(undefined)).toBe('');
    expect(tooltipDay('')).toBe('');
    expect(tooltipDay(Number.NaN)).toBe('');
  });

  it('draws the health score on its own 0–100 axis beside counts, and alone on the left', () => {
    const scored = metrics.map((entry, index) => ({ ...entry, health_score: index % 2 === 0 ? 70 : 72 }));
    type Props = {
      withRightYAxis: boolean;
      series: { name: string; yAxisId?: string }[];
      yAxisProps: { domain: unknown };
      rightYAxisProps: { domain: unknown };
      data: Record<string, number | string | null>[];
    };
    const withCounts = chartProps(scored, ['stars', 'forks', 'health']) as unknown as Props;
    expect(withCounts.withRightYAxis).toBe(true);
    expect(withCounts.series).toEqual([
      { name: 'Stars', color: 'indigo.6' },
      { name: 'Forks', color: 'teal.6' },
      { name: 'Health', color: 'grape.6', yAxisId: 'right' },
    ]);
    expect(withCounts.rightYAxisProps.domain).toEqual([0, 100]);
    expect(withCounts.data.map((row) => row.Health).slice(-2)).toEqual([72, 70]);

    const alone = chartProps(scored, ['health']) as unknown as Props;
    expect(alone.withRightYAxis).toBe(false);
    expect(alone.series).toEqual([{ name: 'Health', color: 'grape.6' }]);
    expect(alone.yAxisProps.domain).toEqual([0, 100]);

    // Without health, as before: forks on the right beside stars.
    const before = chartProps(scored, ['stars', 'forks']) as unknown as Props;
    expect(before.series[1]).toEqual({ name: 'Forks', color: 'teal.6', yAxisId: 'right' });
  });
});
