import '@mantine/charts/styles.css';
import { LineChart } from '@mantine/charts';
import { formatCount } from '../../../../../shared/format.ts';

const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 2 });

/** Axis ticks: exact below 100,000, else compact with two decimals (so close ticks stay distinct). */
function tick(value: number): string {
  return Math.abs(value) < 100_000 ? formatCount(value) : compact.format(value);
}

import type { MetricPoint } from '../../../../../shared/schemas/repositories.ts';

/**
 * The stored daily metrics as a line chart: stars on the left axis, forks on the right (they
 * differ by an order of magnitude). Loaded lazily: recharts stays out of every other screen.
 */
export default function StarHistoryChart({ metrics }: { metrics: MetricPoint[] }) {
  const data = metrics.map((point) => ({ day: point.day, Stars: point.stars, Forks: point.forks }));
  return (
    <LineChart
      h={260}
      data={data}
      dataKey="day"
      withLegend
      withRightYAxis
      curveType="monotone"
      valueFormatter={(value) => formatCount(value)}
      series={[
        { name: 'Stars', color: 'indigo.6' },
        { name: 'Forks', color: 'teal.6', yAxisId: 'right' },
      ]}
      // Growth is the story: each axis spans its own data, not 0 to the maximum.
      yAxisProps={{ width: 64, domain: ['auto', 'auto'], tickFormatter: tick }}
      rightYAxisProps={{ width: 64, domain: ['auto', 'auto'], tickFormatter: tick }}
      // The numbers are in a table for screen readers; the drawing stays out of the tab order.
      lineChartProps={{ accessibilityLayer: false }}
    />
  );
}
