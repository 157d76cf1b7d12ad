import '@mantine/charts/styles.css';
import { LineChart } from '@mantine/charts';
import { formatCount } from '#shared/format.ts';
import type { MetricPoint } from '#shared/schemas/repositories.ts';
import type { HistorySeries } from '../../lib/star-history.ts';

const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 2 });

/** Axis ticks: exact below 100,000, else compact with two decimals (so close ticks stay distinct). */
function tick(value: number): string {
  return Math.abs(value) < 100_000 ? formatCount(value) : compact.format(value);
}

const LOOK: Record<HistorySeries, { name: string; color: string }> = {
  stars: { name: 'Stars', color: 'indigo.6' },
  forks: { name: 'Forks', color: 'teal.6' },
  issues: { name: 'Issues', color: 'orange.6' },
};

/**
 * The history as a line chart: stars on the left axis, forks and issues on the right (they
 * differ by an order of magnitude). Days without a value (forks and issues of the star history
 * rebuilt from GitHub) are gaps, never drawn as zero. Loaded lazily: recharts stays out of
 * every other screen.
 */
export default function StarHistoryChart({
  metrics,
  series,
}: {
  metrics: MetricPoint[];
  series: readonly HistorySeries[];
}) {
  const data = metrics.map((point) => ({
    day: point.day,
    Stars: point.stars,
    Forks: point.forks,
    Issues: point.issues,
  }));
  const right = series.some((name) => name !== 'stars') && series.includes('stars');
  return (
    <LineChart
      h={260}
      data={data}
      dataKey="day"
      withLegend
      withRightYAxis={right}
      withDots={metrics.length <= 60}
      connectNulls={false}
      curveType="monotone"
      valueFormatter={(value) => formatCount(value)}
      series={series.map((name) => ({
        ...LOOK[name],
        ...(right && name !== 'stars' ? { yAxisId: 'right' } : {}),
      }))}
      // Growth is the story: each axis spans its own data, not 0 to the maximum.
      yAxisProps={{ width: 64, domain: ['auto', 'auto'], tickFormatter: tick }}
      rightYAxisProps={{ width: 64, domain: ['auto', 'auto'], tickFormatter: tick }}
      xAxisProps={{ minTickGap: 24 }}
      // The numbers are in a table for screen readers; the drawing stays out of the tab order.
      lineChartProps={{ accessibilityLayer: false }}
    />
  );
}
