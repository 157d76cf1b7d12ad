import type { MetricPoint } from '#shared/schemas/repositories.ts';

/** The history chart's ranges (docs/product.md#repository-detail). */
export const HISTORY_RANGES = [
  { value: '30d', label: '30 days', days: 30 },
  { value: '90d', label: '90 days', days: 90 },
  { value: '1y', label: '1 year', days: 365 },
  { value: 'all', label: 'All', days: null },
] as const;
export type HistoryRange = (typeof HISTORY_RANGES)[number]['value'];
export const DEFAULT_RANGE: HistoryRange = 'all';

/**
 * The series a member can show; forks, issues and the health score (0–100, docs/health.md) exist
 * only on the app's own daily rows.
 */
export const HISTORY_SERIES = [
  { value: 'stars', label: 'Stars' },
  { value: 'forks', label: 'Forks' },
  { value: 'issues', label: 'Issues' },
  { value: 'health', label: 'Health' },
] as const;
export type HistorySeries = (typeof HISTORY_SERIES)[number]['value'];
export const DEFAULT_SERIES: HistorySeries[] = ['stars', 'forks'];

const DAY_MS = 86_400_000;
const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** The points of the last `days` days up to `today` (`YYYY-MM-DD`, UTC), today included; all for 'all'. */
export function pointsInRange(
  points: readonly MetricPoint[],
  range: HistoryRange,
  today: string,
): MetricPoint[] {
  const days = HISTORY_RANGES.find((option) => option.value === range)?.days ?? null;
  if (days === null) return [...points];
  const from = new Date(dayMs(today) - (days - 1) * DAY_MS).toISOString().slice(0, 10);
  return points.filter((point) => point.day >= from);
}

/**
 * Stars gained in the seven days up to the newest point: its count minus that of the newest
 * point at least a week older. Null without such a point (less than a week of history).
 */
export function weeklyGrowth(points: readonly MetricPoint[]): number | null {
  const latest = points[points.length - 1];
  if (!latest) return null;
  const weekAgo = new Date(dayMs(latest.day) - 7 * DAY_MS).toISOString().slice(0, 10);
  for (let index = points.length - 2; index >= 0; index--) {
    const point = points[index];
    if (point && point.day <= weekAgo) return latest.stars - point.stars;
  }
  return null;
}

/** Stars gained from the first to the last point shown; null under two points. */
export function rangeGrowth(points: readonly MetricPoint[]): number | null {
  const first = points[0];
  const last = points[points.length - 1];
  return first && last && points.length >= 2 ? last.stars - first.stars : null;
}

/** "+1,234", "−12" or "0", for growth texts. */
export function signedCount(value: number): string {
  const formatted = new Intl.NumberFormat('en-US').format(Math.abs(value));
  return value > 0 ? `+${formatted}` : value < 0 ? `−${formatted}` : '0';
}

/** The most points the chart draws; the screen-reader table lists them all. */
export const MAX_CHART_POINTS = 400;

/**
 * Every k-th point so that at most `max` are drawn, the newest always kept: years of weekly
 * points plus a daily year stay quick to draw, and their shape doesn't change at chart size.
 */
export function thinPoints<T>(points: readonly T[], max = MAX_CHART_POINTS): T[] {
  if (points.length <= max) return [...points];
  const step = Math.ceil(points.length / max);
  const kept = points.filter((_, index) => (points.length - 1 - index) % step === 0);
  return kept;
}
