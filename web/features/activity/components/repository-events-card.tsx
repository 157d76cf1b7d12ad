import { Anchor, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconActivity } from '@tabler/icons-react';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { SectionError } from '#web/components/load-states.tsx';
import { describeError } from '#web/lib/api-errors.ts';
import { useRepositoryEvents } from '../api/get-activity.ts';
import { EventRows } from './event-rows.tsx';

/** How many of its latest events the repository page shows; the rest are a click away. */
export const REPOSITORY_EVENTS_CARD_LIMIT = 5;

/**
 * A repository's own latest events (docs/product.md#repository-detail), self-contained: it loads
 * its own data from `GET /activity?repository=`, so it can sit in a card today and a tab later.
 */
export function RepositoryEventsCard({ fullName }: { fullName: string }) {
  const events = useRepositoryEvents(fullName, REPOSITORY_EVENTS_CARD_LIMIT);
  // biome-ignore lint/correctness/useExhaustiveDependencies: ages are relative to the last load
  const now = useMemo(() => new Date(), [events.dataUpdatedAt]);
  const titleId = `repository-events-${fullName}`;
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby={titleId}>
      <Stack gap="xs">
        <Group justify="space-between" gap="xs">
          <Group gap="xs">
            <IconActivity size={18} aria-hidden />
            <Title order={2} size="h5" id={titleId}>
              Recent activity
            </Title>
          </Group>
          {events.data && events.data.events.length > 0 && (
            <Anchor component={Link} to={`/activity?repository=${encodeURIComponent(fullName)}`} size="sm">
              See all activity
            </Anchor>
          )}
        </Group>
        {events.isPending ? (
          <Group gap="xs">
            <Loader size="xs" aria-hidden />
            <Text size="sm" role="status">
              Loading activity...
            </Text>
          </Group>
        ) : events.isError ? (
          <SectionError
            message={describeError(events.error, 'The activity could not be loaded.')}
            onRetry={() => void events.refetch()}
            retrying={events.isRefetching}
          />
        ) : events.data.events.length === 0 ? (
          <Text size="sm" c="dimmed">
            No events yet. Changes the sync sees on GitHub will show here.
          </Text>
        ) : (
          <Stack
            component="ul"
            gap={0}
            aria-label="Recent events"
            style={{ listStyle: 'none', margin: 0, padding: 0 }}
          >
            <EventRows events={events.data.events} now={now} linkRepository={false} compact />
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
