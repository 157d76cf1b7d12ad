import { type BatchedEventType, isBatchedType } from '#shared/event-text.ts';
import type { ActivityEvent } from '#shared/schemas/activity.ts';

/** One row of the feed: an event, or the events of one repository and one sync (newest first). */
export type FeedRow =
  | { kind: 'event'; event: ActivityEvent }
  | { kind: 'batch'; type: BatchedEventType; events: ActivityEvent[] };

function batchKey(event: ActivityEvent): string | null {
  if (!isBatchedType(event.type) || !event.detected_at) return null;
  return `${event.type}\u0000${event.repository.id}\u0000${event.detected_at}`;
}

/**
 * The feed's rows (docs/product.md#activity-screen): neighbouring releases (or star milestones)
 * of one repository recorded by one sync — the same detection time — become one row; the order
 * stays the feed's own.
 */
export function feedRows(events: readonly ActivityEvent[]): FeedRow[] {
  const rows: FeedRow[] = [];
  let previous: string | null = null;
  for (const event of events) {
    const key = batchKey(event);
    const last = rows.at(-1);
    if (key !== null && key === previous && last) {
      if (last.kind === 'batch') last.events.push(event);
      else
        rows[rows.length - 1] = {
          kind: 'batch',
          type: event.type as BatchedEventType,
          events: [last.event, event],
        };
    } else {
      rows.push({ kind: 'event', event });
    }
    previous = key;
  }
  return rows;
}
