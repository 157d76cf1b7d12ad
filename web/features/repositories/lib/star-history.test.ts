import { describe, expect, it } from 'vitest';
import type { MetricPoint } from '#shared/schemas/repositories.ts';
import { pointsInRange, rangeGrowth, signedCount, thinPoints, weeklyGrowth } from './star-history.ts';

const point = (day: string, stars: number, forks: number | null = null): MetricPoint => ({
  day,
  stars,
  forks,
  issues: forks,
  commits: forks,
  contributors: forks,
  health_score: null,
});

// Weekly points before the last year, daily ones after, as a backfill stores them.
const points = [
  point('2024-06-02', 100),
  point('2024-06-09', 120),
  point('2025-11-26', 900),
  point('2026-08-28', 1500),
  point('2026-10-27', 1800),
  point('2026-11-18', 1950),
  point('2026-11-19', 1960),
  point('2026-11-24', 1990, 40),
  point('2026-11-25', 2000, 41),
];

describe('the history chart’s ranges and growth', () => {
  it('keeps the days of the range, today included', () => {
    expect(pointsInRange(points, '30d', '2026-11-25').map((p) => p.day)).toEqual([
      '2026-10-27',
      '2026-11-18',
      '2026-11-19',
      '2026-11-24',
      '2026-11-25',
    ]);
    expect(pointsInRange(points, '90d', '2026-11-25')[0]?.day).toBe('2026-08-28');
    expect(pointsInRange(points, '1y', '2026-11-25')[0]?.day).toBe('2025-11-26');
    expect(pointsInRange(points, 'all', '2026-11-25')).toHaveLength(points.length);
  });

  it('counts the week’s growth from the newest point a week older', () => {
    expect(weeklyGrowth(points)).toBe(2000 - 1950);
    expect(weeklyGrowth(points.slice(-2))).toBeNull();
    expect(weeklyGrowth([])).toBeNull();
  });

  it('counts the range’s growth and signs it', () => {
    expect(rangeGrowth(pointsInRange(points, '30d', '2026-11-25'))).toBe(200);
    expect(rangeGrowth([point('2026-11-25', 3)])).toBeNull();
    expect(signedCount(1234)).toBe('+1,234');
    expect(signedCount(-12)).toBe('−12');
    expect(signedCount(0)).toBe('0');
  });

  it('thins a long history for the chart, keeping the newest point', () => {
    const many = Array.from({ length: 1001 }, (_, index) => index);
    const thinned = thinPoints(many, 400);
    expect(thinned.length).toBeLessThanOrEqual(400);
    expect(thinned[thinned.length - 1]).toBe(1000);
    expect(thinPoints([1, 2, 3], 400)).toEqual([1, 2, 3]);
  });
});
