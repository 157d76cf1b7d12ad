import {
  Anchor,
  Button,
  Center,
  Chip,
  Group,
  Loader,
  SegmentedControl,
  Stack,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { IconCloudDownload, IconExternalLink } from '@tabler/icons-react';
import { lazy, Suspense, useMemo, useState } from 'react';
import { formatCount, formatDateTime } from '#shared/format.ts';
import type { HistoryState } from '#shared/schemas/history.ts';
import type { Repository } from '#shared/schemas/repositories.ts';
import { InlineMessage } from '#web/components/inline-message.tsx';
import { SectionError } from '#web/components/load-states.tsx';
import { describeError } from '#web/lib/api-errors.ts';
import { useMessage } from '#web/lib/hooks/use-message.ts';
import { useBackfillHistory } from '../../api/backfill-history.ts';
import { useMetrics } from '../../api/get-metrics.ts';
import {
  DEFAULT_RANGE,
  DEFAULT_SERIES,
  HISTORY_RANGES,
  HISTORY_SERIES,
  type HistoryRange,
  type HistorySeries,
  pointsInRange,
  rangeGrowth,
  signedCount,
  thinPoints,
  weeklyGrowth,
} from '../../lib/star-history.ts';

const StarHistoryChart = lazy(() => import('./star-history-chart.tsx'));

export const LITTLE_HISTORY_MESSAGE =
  'Not much history yet: the chart grows by one point per day each time this repository is updated from GitHub.';
export const NOT_AVAILABLE_MESSAGE = 'History not available from GitHub.';
export const BACKFILL_LABEL = 'Backfill history';
export const BACKFILLING_LABEL = 'Loading history from GitHub…';
export const NO_SERIES_MESSAGE = 'Choose at least one series to draw.';

const RANGE_LABELS: Record<HistoryRange, string> = {
  '30d': 'in the last 30 days',
  '90d': 'in the last 90 days',
  '1y': 'in the last year',
  all: 'since the first point',
};

/** What the member reads about the star history loaded from GitHub. */
function historyNote(history: HistoryState): { kind: 'info' | 'warning'; text: string } | null {
  switch (history.status) {
    case 'done':
      return {
        kind: 'info',
        text: `Full star history loaded from GitHub${history.backfilled_at ? ` on ${formatDateTime(history.backfilled_at)}` : ''}: a point per day for the last year, per week before.`,
      };
    case 'pending':
      return {
        kind: 'info',
        text:
          history.message ??
          'The full star history is being loaded from GitHub; the chart fills in when it is done.',
      };
    case 'unavailable':
      return { kind: 'warning', text: `${NOT_AVAILABLE_MESSAGE} The app’s own daily points carry on.` };
    case 'failed':
      return {
        kind: 'warning',
        text: `Loading the star history from GitHub failed${history.message ? `: ${history.message}` : '.'}`,
      };
    default:
      return null;
  }
}

/**
 * Star Growth History (docs/product.md#repository-detail): the app's daily metrics and the full
 * star history backfilled from GitHub, with a range, the series to draw, the week's growth, the
 * "Backfill history" action, and a link to star-history.com for public repositories.
 */
export function StarHistorySection({ repository }: { repository: Repository }) {
  const metrics = useMetrics(repository.id);
  const backfill = useBackfillHistory(repository.id);
  const { message, show, clear } = useMessage();
  const [range, setRange] = useState<HistoryRange>(DEFAULT_RANGE);
  const [series, setSeries] = useState<HistorySeries[]>(DEFAULT_SERIES);
  const all = metrics.data?.metrics ?? [];
  const history = metrics.data?.history;
  const today = new Date().toISOString().slice(0, 10);
  const points = useMemo(() => pointsInRange(all, range, today), [all, range, today]);
  const latest = all[all.length - 1];
  const week = weeklyGrowth(all);
  const growth = rangeGrowth(points);
  const pending = history?.status === 'pending';
  const note = history ? historyNote(history) : null;

  const onBackfill = () => {
    clear();
    backfill.mutate(undefined, {
      onSuccess: (answer) => show('info', answer.message, 5000),
      onError: (error) =>
        show('error', `Failed to start loading the star history: ${describeError(error, 'Request failed')}`),
    });
  };

  return (
    <Stack gap="sm" data-section="star-history">
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
          <Group justify="space-between" gap="sm" wrap="wrap">
            <SegmentedControl
              aria-label="Range"
              size="xs"
              value={range}
              onChange={(value) => setRange(value as HistoryRange)}
              data={HISTORY_RANGES.map((option) => ({ value: option.value, label: option.label }))}
            />
            <Chip.Group multiple value={series} onChange={(value) => setSeries(value as HistorySeries[])}>
              <Group gap={6} role="group" aria-label="Series">
                {HISTORY_SERIES.map((option) => (
                  <Chip key={option.value} value={option.value} size="xs" variant="light">
                    {option.label}
                  </Chip>
                ))}
              </Group>
            </Chip.Group>
          </Group>
          {(week !== null || growth !== null) && (
            <Group gap="lg" wrap="wrap">
              {week !== null && (
                <Text size="sm" fw={600}>
                  {`${signedCount(week)} stars this week`}
                </Text>
              )}
              {growth !== null && (
                <Text size="sm" c="dimmed">
                  {`${signedCount(growth)} stars ${RANGE_LABELS[range]}`}
                </Text>
              )}
            </Group>
          )}
          {points.length >= 2 ? (
            series.length === 0 ? (
              <Text size="sm" c="dimmed">
                {NO_SERIES_MESSAGE}
              </Text>
            ) : (
              <>
                <Suspense
                  fallback={
                    <Center h={260} role="status">
                      <Loader size="sm" aria-label="Loading chart" />
                    </Center>
                  }
                >
                  <div aria-hidden>
                    <StarHistoryChart metrics={thinPoints(points)} series={series} />
                  </div>
                </Suspense>
                <VisuallyHidden>
                  <Table>
                    <caption>Stars, forks, issues and health per day</caption>
                    <thead>
                      <tr>
                        <th>Day</th>
                        <th>Stars</th>
                        <th>Forks</th>
                        <th>Issues</th>
                        <th>Health score</th>
                      </tr>
                    </thead>
                    <tbody>
                      {points.map((point) => (
                        <tr key={point.day}>
                          <td>{point.day}</td>
                          <td>{point.stars}</td>
                          <td>{point.forks ?? 'unknown'}</td>
                          <td>{point.issues ?? 'unknown'}</td>
                          <td>{point.health_score ?? 'unknown'}</td>
                        </tr>
                      ))}
                    </tbody>
                  </Table>
                </VisuallyHidden>
              </>
            )
          ) : (
            <Text size="sm" c="dimmed">
              {all.length >= 2 ? 'No points in this range: choose a longer one.' : LITTLE_HISTORY_MESSAGE}
            </Text>
          )}
          {latest && (
            <Text size="sm">
              {`Latest (${latest.day}): ${formatCount(latest.stars)} stars${latest.forks === null ? '' : `, ${formatCount(latest.forks)} forks`}.`}
            </Text>
          )}
          {note && (
            <Text size="sm" c={note.kind === 'warning' ? undefined : 'dimmed'} role="status">
              {note.text}
            </Text>
          )}
          <Group gap="sm">
            <Button
              variant="light"
              size="xs"
              onClick={onBackfill}
              disabled={pending || backfill.isPending}
              leftSection={
                pending ? <Loader size={14} aria-hidden /> : <IconCloudDownload size={16} aria-hidden />
              }
            >
              {pending ? BACKFILLING_LABEL : BACKFILL_LABEL}
            </Button>
          </Group>
          {message && (
            <InlineMessage kind={message.kind} onClose={message.kind === 'error' ? clear : undefined}>
              {message.text}
            </InlineMessage>
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
