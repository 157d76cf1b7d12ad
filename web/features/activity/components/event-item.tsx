import { Anchor, Group, Stack, Text, ThemeIcon, VisuallyHidden } from '@mantine/core';
import { Link } from 'react-router';
import { describeEvent, describeEventDetail } from '#shared/event-text.ts';
import { formatDateTime } from '#shared/format.ts';
import { encodeRouteId } from '#shared/route-id.ts';
import type { ActivityEvent } from '#shared/schemas/activity.ts';
import { EVENT_PRESENTATION, eventWhen, splitSentence } from '../lib/event-presentation.ts';

export interface EventItemProps {
  event: ActivityEvent;
  now: Date;
  /** Inside a repository's own page the name needn't link to where the reader already is. */
  linkRepository?: boolean;
  compact?: boolean;
}

/** One event: its icon, the sentence with the repository as a link, a detail line, and when. */
export function EventItem({ event, now, linkRepository = true, compact = false }: EventItemProps) {
  const { icon: Icon, color, label } = EVENT_PRESENTATION[event.type];
  const sentence = describeEvent(event);
  const detail = describeEventDetail(event);
  const parts = splitSentence(sentence, event.repository.full_name);
  const to = `/repo/${encodeRouteId(event.repository.id)}`;
  return (
    <Group component="li" gap="sm" wrap="nowrap" align="flex-start" py={compact ? 4 : 'xs'}>
      <ThemeIcon variant="light" color={color} radius="xl" size={compact ? 'md' : 'lg'} aria-hidden>
        <Icon size={compact ? 14 : 18} />
      </ThemeIcon>
      <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          <VisuallyHidden>{`${label}: `}</VisuallyHidden>
          {parts.before}
          {parts.name !== null &&
            (linkRepository ? (
              <Anchor component={Link} to={to} fw={600} inherit>
                {parts.name}
              </Anchor>
            ) : (
              <Text span fw={600} inherit>
                {parts.name}
              </Text>
            ))}
          {parts.after}
          {parts.name === null && linkRepository && (
            <>
              {' ('}
              <Anchor component={Link} to={to} inherit>
                {event.repository.full_name}
              </Anchor>
              {')'}
            </>
          )}
        </Text>
        {event.type === 'release_published' && event.data.url ? (
          <Anchor href={event.data.url} target="_blank" rel="noreferrer" size="xs">
            View the release on GitHub
          </Anchor>
        ) : (
          detail &&
          !compact && (
            <Text size="xs" c="dimmed" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
              {detail}
            </Text>
          )
        )}
        <Text size="xs" c="dimmed">
          <time dateTime={event.occurred_at} title={formatDateTime(event.occurred_at)}>
            {eventWhen(event, now)}
          </time>
        </Text>
      </Stack>
    </Group>
  );
}
