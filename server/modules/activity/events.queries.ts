import type { Kysely } from 'kysely';
import type { NewEvent } from '../../../shared/schemas/activity.ts';
import type { Database } from '../../db/schema.ts';

/**
 * Records events (docs/product.md#activity). Pass the transaction that wrote the change, so an
 * event exists exactly when its change does. `occurred_at` defaults to `now`.
 */
export async function insertEvents(
  db: Kysely<Database>,
  events: readonly NewEvent[],
  now: string,
): Promise<void> {
  if (events.length === 0) return;
  await db
    .insertInto('repository_events')
    .values(
      events.map((event) => ({
        repository_id: event.repository_id,
        type: event.type,
        occurred_at: event.occurred_at ?? now,
        user_id: event.user_id ?? null,
        data: JSON.stringify(event.data),
        created_at: now,
      })),
    )
    .execute();
}
