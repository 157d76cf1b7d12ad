import { Anchor, Button, Group, Stack, Text, ThemeIcon, VisuallyHidden } from '@mantine/core';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { batchLabel, describeBatchAction } from '#shared/event-text.ts';
import { formatDateTime } from '#shared/format.ts';
import { encodeRouteId } from '#shared/route-id.ts';
import type { ActivityEvent } from '#shared/schemas/activity.ts';
import { type FeedRow, feedRows } from '../lib/event-groups.ts';
import { EVENT_PRESENTATION, eventWhen } from '../lib/event-presentation.ts';
import { EventItem } from './event-item.tsx';

export interface EventRowsProps {
  events: readonly ActivityEvent[];
  now: Date;
  linkRepository?: boolean;
  compact?: boolean;
}

/** The feed's list items: an event each, the releases (or milestones) of one sync as one row. */
export function EventRows({ events, now, linkRepository = true, compact = false }: EventRowsProps) {
  return feedRows(events).map((row) =>
    row.kind === 'event' ? (
      <EventItem
        key={row.event.id}
        event={row.event}
        now={now}
        linkRepository={linkRepository}
        compact={compact}
      />
    ) : (
      <BatchItem
        key={row.events[0]?.id}
        row={row}
        now={now}
        linkRepository={linkRepository}
        compact={compact}
      />
    ),
  );
}

function BatchItem({
  row,
  now,
  linkRepository,
  compact,
}: {
  row: Extract<FeedRow, { kind: 'batch' }>;
  now: Date;
  linkRepository: boolean;
  compact: boolean;
}) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const newest = row.events[0] as ActivityEvent;
  const oldestFirst = [...row.events].sort((a, b) => a.id - b.id);
  const { icon: Icon, color, label } = EVENT_PRESENTATION[row.type];
  const action = describeBatchAction(
    row.type,
    oldestFirst.map((event) => batchLabel(row.type, event.data)),
  );
  const name = newest.repository.full_name;
  const noun = row.type === 'release_published' ? 'release' : 'milestone';
  return (
    <Group component="li" gap="sm" wrap="nowrap" align="flex-start" py={compact ? 4 : 'xs'}>
      <ThemeIcon variant="light" color={color} radius="xl" size={compact ? 'md' : 'lg'} aria-hidden>
        <Icon size={compact ? 14 : 18} />
      </ThemeIcon>
      <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          <VisuallyHidden>{`${label}: `}</VisuallyHidden>
          {linkRepository ? (
            <Anchor component={Link} to={`/repo/${encodeRouteId(newest.repository.id)}`} fw={600} inherit>
              {name}
            </Anchor>
          ) : (
            <Text span fw={600} inherit>
              {name}
            </Text>
          )}
          {` ${action}`}
        </Text>
        <Group gap="xs">
          <Text size="xs" c="dimmed">
            <time dateTime={newest.occurred_at} title={formatDateTime(newest.occurred_at)}>
              {eventWhen(newest, now)}
            </time>
          </Text>
          <Button
            variant="subtle"
            size="compact-xs"
            aria-expanded={open}
            aria-controls={listId}
            onClick={() => setOpen((value) => !value)}
          >
            {open ? `Hide each ${noun}` : `Show each ${noun} (${row.events.length})`}
          </Button>
        </Group>
        {open && (
          <Stack
            component="ul"
            id={listId}
            gap={0}
            aria-label={`${name}: each ${noun}`}
            style={{ listStyle: 'none', margin: 0, padding: 0 }}
          >
            {oldestFirst.map((event) => (
              <EventItem key={event.id} event={event} now={now} linkRepository={false} compact />
            ))}
          </Stack>
        )}
      </Stack>
    </Group>
  );
}
