import { type ActivityEvent, type EventType, eventDataSchemas } from '#shared/schemas/activity.ts';
import type { EventRow } from './events.queries.ts';

/** A stored row as the API shows it; a row whose details don't parse is left out, not a 500. */
export function presentEvent(row: EventRow): ActivityEvent | null {
  let data: unknown;
  try {
    data = JSON.parse(row.data);
  } catch {
    return null;
  }
  const parsed = eventDataSchemas[row.type as EventType]?.safeParse(data);
  if (!parsed?.success) return null;
  const name = [row.actor_first_name, row.actor_last_name].filter(Boolean).join(' ').trim();
  return {
    id: row.id,
    type: row.type,
    occurred_at: row.occurred_at,
    detected_at: row.detected_at,
    repository: { id: row.full_name, full_name: row.full_name, name: row.name },
    data: parsed.data,
    ...(row.user_id !== null && row.actor_username !== null
      ? { actor: { id: row.user_id, name: name || row.actor_username } }
      : {}),
  } as ActivityEvent;
}
