import '@mantine/charts/styles.css';
import { BarChart, DonutChart } from '@mantine/charts';
import { Group, Paper, Progress, SimpleGrid, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { formatCount } from '#shared/format.ts';
import type { LicenseCount } from '#shared/stats.ts';
import classes from './stats.module.css';

const PALETTE = [
  'indigo.6',
  'teal.6',
  'orange.6',
  'grape.6',
  'cyan.6',
  'lime.7',
  'pink.6',
  'yellow.6',
  'blue.6',
  'red.6',
];
const MAX_SLICES = 8;

export interface StatsChartsProps {
  licenses: LicenseCount[];
  topics: LicenseCount[];
  stars: { range: string; count: number }[];
}

/** A chart's numbers as a table for screen readers (the drawing itself is hidden from them). */
function DataTable({
  caption,
  rows,
  label,
}: {
  caption: string;
  rows: { name: string; count: number }[];
  label: string;
}) {
  return (
    <VisuallyHidden>
      <Table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th>{label}</th>
            <th>Repositories</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.name}>
              <td>{row.name}</td>
              <td>{row.count}</td>
            </tr>
          ))}
        </tbody>
      </Table>
    </VisuallyHidden>
  );
}

/**
 * The most used topics, each with its full name (long ones wrap), its count and a bar relative to
 * the first. Mantine's BarsList wrote the name inside the bar, clipping long names, and its
 * light fill stayed light in dark mode; Progress follows the colour scheme.
 */
function TopTopics({ topics }: { topics: LicenseCount[] }) {
  const most = topics[0]?.count ?? 0;
  return (
    <Stack component="ol" gap={8} aria-label="Top topics" className={classes.topicList}>
      {topics.map((topic) => (
        <li key={topic.name}>
          <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
            <Text size="sm" className={classes.topicName}>
              {topic.name}
            </Text>
            <Text size="sm" fw={600} aria-label={`${formatCount(topic.count)} repositories`}>
              {formatCount(topic.count)}
            </Text>
          </Group>
          <Progress value={most > 0 ? (topic.count / most) * 100 : 0} color="indigo" size="sm" aria-hidden />
        </li>
      ))}
    </Stack>
  );
}

/** The charts of the Statistics page, loaded lazily with recharts. */
export default function StatsCharts({ licenses, topics, stars }: StatsChartsProps) {
  const slices = licenses.slice(0, MAX_SLICES);
  const rest = licenses.slice(MAX_SLICES).reduce((sum, entry) => sum + entry.count, 0);
  const donut = [
    ...slices.map((entry, index) => ({
      name: entry.name,
      value: entry.count,
      color: PALETTE[index % PALETTE.length] as string,
    })),
    ...(rest > 0 ? [{ name: 'Others', value: rest, color: 'gray.5' }] : []),
  ];

  return (
    <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
      <Paper withBorder radius="md" p="md">
        <Stack gap="sm">
          <Title order={3} size="h4">
            Licenses
          </Title>
          {donut.length === 0 ? (
            <Text size="sm" c="dimmed">
              No data.
            </Text>
          ) : (
            <>
              {/* Inert: recharts leaves focusable parts in the donut; the legend and table below carry the numbers. */}
              <div inert style={{ display: 'flex', justifyContent: 'center' }}>
                <DonutChart
                  data={donut}
                  withTooltip
                  withLabelsLine={false}
                  size={180}
                  thickness={28}
                  tooltipDataSource="segment"
                />
              </div>
              <Stack gap={2} aria-hidden>
                {donut.map((slice) => (
                  <Text key={slice.name} size="xs">
                    <span
                      style={{
                        display: 'inline-block',
                        width: 10,
                        height: 10,
                        borderRadius: 2,
                        marginInlineEnd: 6,
                        background: `var(--mantine-color-${slice.color.replace('.', '-')})`,
                      }}
                    />
                    {slice.name}: {slice.value}
                  </Text>
                ))}
              </Stack>
              <DataTable caption="Repositories per license" label="License" rows={licenses} />
            </>
          )}
        </Stack>
      </Paper>
      <Paper withBorder radius="md" p="md">
        <Stack gap="sm">
          <Title order={3} size="h4">
            Top topics
          </Title>
          {topics.length === 0 ? (
            <Text size="sm" c="dimmed">
              No topics.
            </Text>
          ) : (
            <TopTopics topics={topics} />
          )}
        </Stack>
      </Paper>
      <Paper withBorder radius="md" p="md">
        <Stack gap="sm">
          <Title order={3} size="h4">
            Stars distribution
          </Title>
          <div aria-hidden>
            <BarChart
              h={220}
              data={stars}
              dataKey="range"
              series={[{ name: 'count', label: 'Repositories', color: 'indigo.6' }]}
              tickLine="y"
              withTooltip
              xAxisProps={{ interval: 0, angle: -30, textAnchor: 'end', height: 50 }}
              barChartProps={{ accessibilityLayer: false }}
              yAxisProps={{ allowDecimals: false }}
            />
          </div>
          <DataTable
            caption="Repositories per star range"
            label="Stars"
            rows={stars.map((bucket) => ({ name: bucket.range, count: bucket.count }))}
          />
        </Stack>
      </Paper>
    </SimpleGrid>
  );
}
