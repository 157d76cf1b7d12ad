import { Anchor, Center, Group, Loader, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { lazy, Suspense } from 'react';
import { formatCount } from '../../../../../shared/format.ts';
import type { Repository } from '../../../../../shared/schemas/repositories.ts';
import { SectionError } from '../../../../components/load-states.tsx';
import { describeError } from '../../../../lib/api-errors.ts';
import { useMetrics } from '../../api/get-metrics.ts';

const StarHistoryChart = lazy(() => import('./star-history-chart.tsx'));

export const LITTLE_HISTORY_MESSAGE =
  'Not much history yet: the chart grows by one point per day each time this repository is updated from GitHub.';

/**
 * Star Growth History: a chart of the app's own daily metrics (stars and forks),
 * and a link to star-history.com for public repositories.
 */
export function StarHistorySection({ repository }: { repository: Repository }) {
  const metrics = useMetrics(repository.id);
  const points = metrics.data ?? [];
  const latest = points[points.length - 1];

  return (
    <Stack gap="sm">
      {metrics.isPending ? (
        <Center py="md" role="status">
          <Group gap="xs">
            <Loader size="sm" aria-hidden />
            <Text size="sm">Loading history...</Text>
          </Group>
        </Center>
      ) : metrics.isError ? (
        <SectionError
          message={`Failed to load the star history: ${describeError(metrics.error, 'Request failed')}`}
          onRetry={() => void metrics.refetch()}
        />
      ) : (
        <>
          {points.length >= 2 ? (
            <>
              <Suspense
                fallback={
                  <Center h={260} role="status">
                    <Loader size="sm" aria-label="Loading chart" />
                  </Center>
                }
              >
                <div aria-hidden>
                  <StarHistoryChart metrics={points} />
                </div>
              </Suspense>
              <VisuallyHidden>
                <Table>
                  <caption>Stars and forks per day</caption>
                  <thead>
                    <tr>
                      <th>Day</th>
                      <th>Stars</th>
                      <th>Forks</th>
                    </tr>
                  </thead>
                  <tbody>
                    {points.map((point) => (
                      <tr key={point.day}>
                        <td>{point.day}</td>
                        <td>{point.stars}</td>
                        <td>{point.forks}</td>
                      </tr>
                    ))}
                  </tbody>
                </Table>
              </VisuallyHidden>
            </>
          ) : (
            <Text size="sm" c="dimmed">
              {LITTLE_HISTORY_MESSAGE}
            </Text>
          )}
          {latest && (
            <Text size="sm">
              {`Latest (${latest.day}): ${formatCount(latest.stars)} stars${latest.forks === null ? '' : `, ${formatCount(latest.forks)} forks`}.`}
            </Text>
          )}
        </>
      )}
      {!repository.private && (
        <Anchor
          href={`https://star-history.com/#${repository.id}`}
          target="_blank"
          rel="noopener noreferrer"
          size="sm"
        >
          <Group gap={4} component="span" wrap="nowrap">
            See the full star history on star-history.com
            <IconExternalLink size={14} aria-hidden />
          </Group>
        </Anchor>
      )}
    </Stack>
  );
}
