import { Anchor, Group, Loader, Progress, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconCheck, IconClock, IconHourglass, IconPlayerSkipForward, IconX } from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useId, useRef } from 'react';
import { Link } from 'react-router';
import { formatTime } from '#shared/format.ts';
import { encodeRouteId } from '#shared/route-id.ts';
import type { BatchCounts, BatchItem } from '../../lib/batch-items.ts';
import tones from '../tones.module.css';
import classes from './add.module.css';

const ROW_HEIGHT = 44;

const STATUS_TEXT = {
  pending: 'Pending',
  processing: 'Processing...',
  success: 'Added',
  skipped: 'Already in the catalogue',
  queued: 'Queued',
  error: 'Failed',
} as const;

/** The line under a row's name: its status, with the error or the ETA where there is one. */
function statusLine(item: BatchItem): string {
  if (item.status === 'error' && item.error) return `${STATUS_TEXT.error}: ${item.error}`;
  if (item.status === 'queued' && item.eta)
    return `Queued: GitHub asks us to slow down, added by ${formatTime(item.eta)}`;
  return STATUS_TEXT[item.status];
}

/**
 * The per-item progress list. Virtualised in its own scroll box, so a 500-line paste
 * updates continuously without re-rendering 500 rows per streamed result; it follows the item
 * being processed unless the member scrolls away.
 */
export function BatchProgress({
  items,
  counts,
  running,
}: {
  items: BatchItem[];
  counts: BatchCounts;
  running: boolean;
}) {
  const scrollRef = useRef<HTMLElement>(null);
  const labelId = useId();
  const follow = useRef(true);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
  });
  const processing = items.findIndex((item) => item.status === 'processing');

  useEffect(() => {
    if (running) follow.current = true;
  }, [running]);

  useEffect(() => {
    if (processing >= 0 && follow.current) virtualizer.scrollToIndex(processing, { align: 'auto' });
  }, [processing, virtualizer]);

  const percent = counts.total === 0 ? 0 : Math.round((counts.finished / counts.total) * 100);

  return (
    <Stack gap="xs">
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={600} id={labelId}>
          {running
            ? `Processing ${counts.finished} of ${counts.total}...`
            : `Processed ${counts.finished} of ${counts.total}`}
        </Text>
        <Text size="sm" c="dimmed">
          {[
            `${counts.succeeded} added`,
            counts.skipped > 0 ? `${counts.skipped} already there` : null,
            counts.queued > 0 ? `${counts.queued} queued` : null,
            `${counts.failed} failed`,
          ]
            .filter(Boolean)
            .join(' · ')}
        </Text>
      </Group>
      <Progress
        value={percent}
        aria-label={`${counts.finished} of ${counts.total} processed`}
        animated={running}
      />
      <section
        ref={scrollRef}
        className={classes.progressScroll}
        onWheel={() => {
          follow.current = false;
        }}
        onTouchMove={() => {
          follow.current = false;
        }}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the scroll box must be reachable by keyboard
        tabIndex={0}
        aria-label="Progress of each repository"
      >
        <ul
          className={classes.progressList}
          style={{ height: virtualizer.getTotalSize() }}
          aria-label="Repositories being added"
        >
          {virtualizer.getVirtualItems().map((row) => {
            const item = items[row.index];
            if (!item) return null;
            return (
              <ProgressRow
                key={item.position}
                item={item}
                index={row.index}
                start={row.start}
                measureRef={virtualizer.measureElement}
              />
            );
          })}
        </ul>
      </section>
    </Stack>
  );
}

const ProgressRow = memo(function ProgressRow({
  item,
  index,
  start,
  measureRef,
}: {
  item: BatchItem;
  index: number;
  start: number;
  measureRef: (element: HTMLLIElement | null) => void;
}) {
  return (
    <li
      ref={measureRef}
      data-index={index}
      data-status={item.status}
      className={classes.progressRow}
      style={{ transform: `translateY(${start}px)` }}
    >
      <StatusIcon status={item.status} />
      <div className={classes.progressText}>
        <Text size="sm" className={classes.line}>
          {(item.status === 'success' || item.status === 'skipped') && item.repository ? (
            <Anchor component={Link} to={`/repo/${encodeRouteId(item.repository.id)}`}>
              {item.line}
            </Anchor>
          ) : (
            item.line
          )}
        </Text>
        <Text
          size="xs"
          c={item.status === 'error' ? undefined : 'dimmed'}
          className={item.status === 'error' ? tones.errorText : undefined}
        >
          {statusLine(item)}
        </Text>
      </div>
    </li>
  );
});

function StatusIcon({ status }: { status: BatchItem['status'] }) {
  if (status === 'processing') return <Loader size={18} aria-hidden />;
  const look = {
    pending: { color: 'gray', icon: IconClock },
    success: { color: 'green', icon: IconCheck },
    skipped: { color: 'gray', icon: IconPlayerSkipForward },
    queued: { color: 'yellow', icon: IconHourglass },
    error: { color: 'red', icon: IconX },
  }[status];
  const Icon = look.icon;
  return (
    <ThemeIcon size={20} radius="xl" variant="light" color={look.color} aria-hidden>
      <Icon size={14} />
    </ThemeIcon>
  );
}
