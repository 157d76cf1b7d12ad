import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type {
  Database,
  NotificationChannelsTable,
  NotificationDeliveriesTable,
  NotificationRulesTable,
} from '../../db/schema.ts';

type Db = Kysely<Database>;
export type ChannelRow = Selectable<NotificationChannelsTable>;
export type RuleRow = Selectable<NotificationRulesTable>;
export type DeliveryRow = Selectable<NotificationDeliveriesTable>;

/** The dispatcher's row in `notification_cursors`. */
export const DISPATCH_CURSOR = 'dispatch';
/** Ids per `IN (…)` list: well under SQLite's and PostgreSQL's parameter limits. */
const CHUNK = 500;

// ---- channels -------------------------------------------------------------------------------

export function listChannels(db: Db, userId: number): Promise<ChannelRow[]> {
  return db
    .selectFrom('notification_channels')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
}

export function findChannel(db: Db, id: number): Promise<ChannelRow | undefined> {
  return db.selectFrom('notification_channels').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function countChannels(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('notification_channels')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

export function insertChannel(db: Db, row: Insertable<NotificationChannelsTable>): Promise<ChannelRow> {
  return db.insertInto('notification_channels').values(row).returningAll().executeTakeFirstOrThrow();
}

export function updateChannel(
  db: Db,
  id: number,
  changes: Updateable<NotificationChannelsTable>,
): Promise<ChannelRow | undefined> {
  return db
    .updateTable('notification_channels')
    .set(changes)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteChannel(db: Db, id: number): Promise<void> {
  await db.deleteFrom('notification_channels').where('id', '=', id).execute();
}

/** One more failure in a row, counted in the database so concurrent sends can't lose one. */
export async function countChannelFailure(db: Db, id: number, error: string, now: string): Promise<number> {
  const row = await db
    .updateTable('notification_channels')
    .set((eb) => ({ failures: eb('failures', '+', 1), last_error: error, updated_at: now }))
    .where('id', '=', id)
    .returning('failures')
    .executeTakeFirst();
  return row?.failures ?? 0;
}

// ---- rules ----------------------------------------------------------------------------------

export function listRules(db: Db, userId: number): Promise<RuleRow[]> {
  return db
    .selectFrom('notification_rules')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
}

export function findRule(db: Db, id: number): Promise<RuleRow | undefined> {
  return db.selectFrom('notification_rules').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function countRules(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('notification_rules')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

export function insertRule(db: Db, row: Insertable<NotificationRulesTable>): Promise<RuleRow> {
  return db.insertInto('notification_rules').values(row).returningAll().executeTakeFirstOrThrow();
}

export function updateRule(
  db: Db,
  id: number,
  changes: Updateable<NotificationRulesTable>,
): Promise<RuleRow | undefined> {
  return db
    .updateTable('notification_rules')
    .set(changes)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteRule(db: Db, id: number): Promise<void> {
  await db.deleteFrom('notification_rules').where('id', '=', id).execute();
}

/** The rules that can fire: on, their channel on, their member active. */
export function listLiveRules(db: Db) {
  return db
    .selectFrom('notification_rules')
    .innerJoin('notification_channels', 'notification_channels.id', 'notification_rules.channel_id')
    .innerJoin('users', 'users.id', 'notification_rules.user_id')
    .select([
      'notification_rules.id',
      'notification_rules.user_id',
      'notification_rules.channel_id',
      'notification_rules.event_types',
      'notification_rules.tags',
      'notification_rules.min_severity',
      'notification_rules.cadence',
      'users.is_admin',
    ])
    .where('notification_rules.enabled', '=', 1)
    .where('notification_channels.enabled', '=', 1)
    .where('users.is_active', '=', 1)
    .orderBy('notification_rules.id')
    .execute();
}

// ---- events (read only: the activity module writes them) -----------------------------------

export interface EventRow {
  id: number;
  repository_id: number;
  type: string;
  occurred_at: string;
  /** When it was recorded: the events one sync (or add) writes share it. */
  detected_at: string;
  data: string;
  full_name: string;
  url: string;
}

function eventsWithRepository(db: Db) {
  return db
    .selectFrom('repository_events')
    .innerJoin('repositories', 'repositories.id', 'repository_events.repository_id')
    .select([
      'repository_events.id',
      'repository_events.repository_id',
      'repository_events.type',
      'repository_events.occurred_at',
      'repository_events.created_at as detected_at',
      'repository_events.data',
      'repositories.full_name',
      'repositories.url',
    ]);
}

/** The next events after the cursor, oldest first. */
export function listEventsAfter(db: Db, afterId: number, limit: number): Promise<EventRow[]> {
  return eventsWithRepository(db)
    .where('repository_events.id', '>', afterId)
    .orderBy('repository_events.id')
    .limit(limit)
    .execute();
}

/** The events of a delivery that still exist (a removed repository takes its events along). */
export async function findEvents(db: Db, ids: number[]): Promise<EventRow[]> {
  const rows: EventRow[] = [];
  for (let start = 0; start < ids.length; start += CHUNK) {
    const chunk = ids.slice(start, start + CHUNK);
    rows.push(...(await eventsWithRepository(db).where('repository_events.id', 'in', chunk).execute()));
  }
  return rows.sort((a, b) => a.id - b.id);
}

/** The tags of each repository, lower-cased (the catalogue's derived tag rows). */
export async function tagKeysOf(db: Db, repositoryIds: number[]): Promise<Map<number, Set<string>>> {
  const tags = new Map<number, Set<string>>();
  for (let start = 0; start < repositoryIds.length; start += CHUNK) {
    const rows = await db
      .selectFrom('repository_tags')
      .select(['repository_id', 'tag_lower'])
      .where('repository_id', 'in', repositoryIds.slice(start, start + CHUNK))
      .execute();
    for (const row of rows) {
      const set = tags.get(row.repository_id) ?? new Set<string>();
      set.add(row.tag_lower);
      tags.set(row.repository_id, set);
    }
  }
  return tags;
}

// ---- the dispatcher's cursor ---------------------------------------------------------------

/** The cursor's event id; `now` stamps the row when it has to be created. */
export async function readCursor(db: Db, name: string, now: string): Promise<number> {
  const row = await db
    .selectFrom('notification_cursors')
    .select('event_id')
    .where('name', '=', name)
    .executeTakeFirst();
  if (row) return Number(row.event_id);
  // The migration creates the row; a restore empties the table (work in flight, not data):
  // start after the events there are, so nothing restored is announced again.
  const latest = await db
    .selectFrom('repository_events')
    .select((eb) => eb.fn.max('id').as('max_id'))
    .executeTakeFirst();
  const start = Number(latest?.max_id ?? 0);
  await db
    .insertInto('notification_cursors')
    .values({ name, event_id: start, updated_at: now })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
  return readCursor(db, name, now);
}

/**
 * Moves the cursor from `from` to `to`; false when another dispatcher moved it first (their
 * transaction committed, ours must not record the same events again).
 */
export async function advanceCursor(db: Db, name: string, from: number, to: number, now: string) {
  const result = await db
    .updateTable('notification_cursors')
    .set({ event_id: to, updated_at: now })
    .where('name', '=', name)
    .where('event_id', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

// ---- digests --------------------------------------------------------------------------------

export async function addDigestItems(
  db: Db,
  items: { rule_id: number; event_id: number }[],
  now: string,
): Promise<void> {
  for (let start = 0; start < items.length; start += CHUNK) {
    await db
      .insertInto('notification_digest_items')
      .values(items.slice(start, start + CHUNK).map((item) => ({ ...item, created_at: now })))
      .onConflict((conflict) => conflict.columns(['rule_id', 'event_id']).doNothing())
      .execute();
  }
}

/** Digest rules of these cadences with events waiting. */
export function listWaitingDigestRules(db: Db, cadences: readonly ('daily' | 'weekly')[]) {
  return db
    .selectFrom('notification_rules')
    .select(['id', 'user_id', 'channel_id', 'cadence'])
    .where('cadence', 'in', cadences)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('notification_digest_items')
          .select('notification_digest_items.rule_id')
          .whereRef('notification_digest_items.rule_id', '=', 'notification_rules.id'),
      ),
    )
    .orderBy('id')
    .execute();
}

/** Takes a rule's waiting events (ids, oldest first) out of the digest. */
export async function takeDigestItems(db: Db, ruleId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('notification_digest_items')
    .select('event_id')
    .where('rule_id', '=', ruleId)
    .orderBy('event_id')
    .execute();
  const ids = rows.map((row) => Number(row.event_id));
  for (let start = 0; start < ids.length; start += CHUNK) {
    await db
      .deleteFrom('notification_digest_items')
      .where('rule_id', '=', ruleId)
      .where('event_id', 'in', ids.slice(start, start + CHUNK))
      .execute();
  }
  return ids;
}

export async function countDigestItems(db: Db, ruleId: number): Promise<number> {
  const row = await db
    .selectFrom('notification_digest_items')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('rule_id', '=', ruleId)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

// ---- deliveries -----------------------------------------------------------------------------

export function insertDelivery(db: Db, row: Insertable<NotificationDeliveriesTable>): Promise<DeliveryRow> {
  return db.insertInto('notification_deliveries').values(row).returningAll().executeTakeFirstOrThrow();
}

export function findDelivery(db: Db, id: number): Promise<DeliveryRow | undefined> {
  return db.selectFrom('notification_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function updateDelivery(
  db: Db,
  id: number,
  changes: Updateable<NotificationDeliveriesTable>,
): Promise<void> {
  await db.updateTable('notification_deliveries').set(changes).where('id', '=', id).execute();
}

/** Deliveries still pending since before `before`, oldest first. */
export function listStalePendingDeliveries(db: Db, before: string, limit: number): Promise<DeliveryRow[]> {
  return db
    .selectFrom('notification_deliveries')
    .selectAll()
    .where('status', '=', 'pending')
    .where('updated_at', '<', before)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** The job rows of one delivery (any status), newest first. */
export function findDeliveryJobs(db: Db, kind: string, deliveryId: number) {
  return db
    .selectFrom('jobs')
    .select(['status', 'last_error'])
    .where('kind', '=', kind)
    .where('payload', '=', JSON.stringify({ delivery_id: deliveryId }))
    .orderBy('id', 'desc')
    .execute();
}

export function listDeliveries(db: Db, userId: number, limit: number): Promise<DeliveryRow[]> {
  return db
    .selectFrom('notification_deliveries')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
