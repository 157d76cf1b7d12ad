import '@mantine/charts/styles.css';
import { LineChart, type LineChartProps } from '@mantine/charts';
import { formatCount } from '#shared/format.ts';
import type { MetricPoint } from '#shared/schemas/repositories.ts';
import type { HistorySeries } from '../../lib/star-history.ts';

const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 2 });
const DAY_MS = 86_400_000;
/** Ticks on the time axis: at most this many. */
const MAX_TICKS = 8;

/** Axis ticks: exact below 100,000, else compact with two decimals (so close ticks stay distinct). */
function tick(value: number): string {
  return Math.abs(value) < 100_000 ? formatCount(value) : compact.format(value);
}

const LOOK: Record<HistorySeries, { name: string; color: string }> = {
  stars: { name: 'Stars', color: 'indigo.6' },
  forks: { name: 'Forks', color: 'teal.6' },
  issues: { name: 'Issues', color: 'orange.6' },
  health: { name: 'Health', color: 'grape.6' },
};
const KEY: Record<HistorySeries, 'Stars' | 'Forks' | 'Issues' | 'Health'> = {
  stars: 'Stars',
  forks: 'Forks',
  issues: 'Issues',
  health: 'Health',
};
/** The health score's axis: always the whole scale, so a grade's band reads the same on every chart. */
const HEALTH_DOMAIN: [number, number] = [0, 100];

export interface ChartRow {
  /** The day's midnight, UTC, in milliseconds: the x value, so points sit where their date is. */
  time: number;
  day: string;
  Stars: number;
  Forks: number | null;
  Issues: number | null;
  /** The day's health score, 0–100; null before the repository was assessed. */
  Health: number | null;
}

/** The points as the chart draws them, each placed by its date (daily and weekly alike). */
export function chartRows(metrics: readonly MetricPoint[]): ChartRow[] {
  return metrics.map((point) => ({
    time: Date.parse(`${point.day}T00:00:00Z`),
    day: point.day,
    Stars: point.stars,
    Forks: point.forks,
    Issues: point.issues,
    Health: point.health_score,
  }));
}

/**
 * A value axis's span: its data's own ('auto') when that spans enough to read, else padded
 * around it (at least 10, or 2% of the value), so a flat or nearly flat series — forks moving
 * by 4 out of 28,945 — is drawn as a visible line in the middle, not squeezed onto an edge.
 */
export function axisDomain(values: readonly number[]): [number | 'auto', number | 'auto'] {
  if (values.length === 0) return ['auto', 'auto'];
  const min = Math.min(...values);
  const max = Math.max(...values);
  const needed = Math.max(10, Math.abs(max) * 0.02);
  if (max - min >= needed) return ['auto', 'auto'];
  const pad = (needed - (max - min)) / 2;
  return [Math.max(0, Math.floor(min - pad)), Math.ceil(max + pad)];
}

/** Round dates inside [start, end] for the time axis: New Year's days, firsts of months, or days. */
export function timeTicks(start: number, end: number): number[] {
  const span = end - start;
  const ticks: number[] = [];
  const from = new Date(start);
  if (span > 2 * 365 * DAY_MS) {
    const first = from.getUTCFullYear() + 1;
    const last = new Date(end).getUTCFullYear();
    const step = Math.max(1, Math.ceil((last - first + 1) / MAX_TICKS));
    for (let year = first; year <= last; year += step) ticks.push(Date.UTC(year, 0, 1));
  } else if (span > 60 * DAY_MS) {
    const months: number[] = [];
    for (let month = from.getUTCMonth() + 1; ; month += 1) {
      const at = Date.UTC(from.getUTCFullYear(), month, 1);
      if (at > end) break;
      months.push(at);
    }
    const step = Math.max(1, Math.ceil(months.length / MAX_TICKS));
    ticks.push(...months.filter((_, index) => index % step === 0));
  } else {
    const step = Math.max(1, Math.ceil(span / DAY_MS / MAX_TICKS)) * DAY_MS;
    for (let at = start; at <= end; at += step) ticks.push(at);
  }
  return ticks;
}

/** A tick's label for a span: '2021', 'Mar 2026', or '14 Mar'. */
export function formatTimeTick(value: number, span: number): string {
  const date = new Date(value);
  if (span > 2 * 365 * DAY_MS) return String(date.getUTCFullYear());
  const options: Intl.DateTimeFormatOptions =
    span > 60 * DAY_MS ? { month: 'short', year: 'numeric' } : { day: 'numeric', month: 'short' };
  return date.toLocaleDateString('en-GB', { ...options, timeZone: 'UTC' });
}

/** Indexes of values with no value on either side: a line can't show them, a dot does. */
function isolatedIndexes(values: readonly (number | null)[]): Set<number> {
  const isolated = new Set<number>();
  values.forEach((value, index) => {
    if (value !== null && (values[index - 1] ?? null) === null && (values[index + 1] ?? null) === null)
      isolated.add(index);
  });
  return isolated;
}

/**
 * The history chart's props (the component's whole logic, so tests can read what recharts is
 * given: happy-dom lays nothing out). See the component.
 */
export function chartProps(
  metrics: readonly MetricPoint[],
  series: readonly HistorySeries[],
): LineChartProps {
  const data = chartRows(metrics);
  // Two axes when the scales differ: stars on the left, forks and issues on the right; the
  // health score (0–100) takes the right axis whenever a count is drawn with it, the counts then
  // sharing the left.
  const counts = series.filter((name) => name !== 'health');
  const right = series.includes('health')
    ? counts.length > 0
    : counts.some((name) => name !== 'stars') && counts.includes('stars');
  const onRight = (name: HistorySeries) =>
    right && (series.includes('health') ? name === 'health' : name !== 'stars');
  const valuesOf = (names: readonly HistorySeries[]) =>
    data.flatMap((row) => names.map((name) => row[KEY[name]]).filter((value) => value !== null));
  const leftSeries = series.filter((name) => !onRight(name));
  const rightSeries = series.filter(onRight);
  const domainOf = (names: readonly HistorySeries[]) =>
    names.length > 0 && names.every((name) => name === 'health')
      ? HEALTH_DOMAIN
      : axisDomain(valuesOf(names));
  const start = data[0]?.time ?? 0;
  const end = data.at(-1)?.time ?? 0;
  const span = end - start;
  const isolated = new Map(
    series.map((name) => [LOOK[name].name, isolatedIndexes(data.map((row) => row[KEY[name]]))]),
  );
  return {
    h: 260,
    data,
    dataKey: 'time',
    withLegend: true,
    withRightYAxis: right,
    withDots: metrics.length <= 60,
    connectNulls: false,
    curveType: 'monotone',
    valueFormatter: (value) => formatCount(value),
    series: series.map((name) => ({
      ...LOOK[name],
      ...(onRight(name) ? { yAxisId: 'right' } : {}),
    })),
    lineProps: (item) => {
      const alone = isolated.get(item.name);
      if (metrics.length <= 60 || !alone || alone.size === 0) return {};
      return {
        dot: (props: { cx?: number; cy?: number; index?: number; stroke?: string }) => (
          <circle
            key={`${item.name}-${props.index}`}
            cx={props.cx}
            cy={props.cy}
            r={alone.has(props.index ?? -1) ? 2.5 : 0}
            fill={props.stroke}
          />
        ),
      };
    },
    // Growth is the story: each axis spans its own data, not 0 to the maximum.
    yAxisProps: { width: 64, domain: domainOf(leftSeries), tickFormatter: tick },
    rightYAxisProps: { width: 64, domain: domainOf(rightSeries), tickFormatter: tick },
    xAxisProps: {
      type: 'number',
      scale: 'time',
      domain: ['dataMin', 'dataMax'],
      ticks: timeTicks(start, end),
      tickFormatter: (value: number) => formatTimeTick(value, span),
      minTickGap: 24,
    },
    // The tooltip also renders with no point under the pointer (label undefined): no date then.
    tooltipProps: { labelFormatter: (value) => tooltipDay(value) },
    // The numbers are in a table for screen readers; the drawing stays out of the tab order.
    lineChartProps: { accessibilityLayer: false },
  };
}

/** The tooltip's heading: the point's day, or nothing when the label is not a time. */
export function tooltipDay(value: unknown): string {
  const time = typeof value === 'number' || typeof value === 'string' ? Number(value) : Number.NaN;
  return value !== '' && Number.isFinite(time) ? new Date(time).toISOString().slice(0, 10) : '';
}

/**
 * The history as a line chart on a time axis: each point at its date (a year of daily points
 * and the weekly ones before take the room their dates do), stars on the left axis, forks and
 * issues on the right (they differ by an order of magnitude), the health score on the right
 * (0–100) when it is drawn with counts. Days without a value (forks and
 * issues of the star history rebuilt from GitHub) are gaps, never drawn as zero; a value alone
 * between gaps is a dot. Loaded lazily: recharts stays out of every other screen.
 */
export default function StarHistoryChart({
  metrics,
  series,
}: {
  metrics: MetricPoint[];
  series: readonly HistorySeries[];
}) {
  return <LineChart {...chartProps(metrics, series)} />;
}
