import { type Kysely, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { EventType, NewEvent } from '#shared/schemas/activity.ts';
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

// ---- reading -----------------------------------------------------------------------------------

type Db = Kysely<Database>;

/** The star milestones already recorded for a repository (through the `(repository_id, id)` index). */
export async function listFiredMilestones(db: Db, repositoryId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('repository_events')
    .select('data')
    .where('repository_id', '=', repositoryId)
    .where('type', '=', 'star_milestone')
    .execute();
  return rows.flatMap((row) => {
    const milestone = parseData(row.data).milestone;
    return typeof milestone === 'number' ? [milestone] : [];
  });
}

/** The `last_commit` of the newest stale event of a repository; undefined when there is none. */
export async function findLastStaleCommit(db: Db, repositoryId: number): Promise<string | null | undefined> {
  const row = await db
    .selectFrom('repository_events')
    .select('data')
    .where('repository_id', '=', repositoryId)
    .where('type', '=', 'stale')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row) return undefined;
  const lastCommit = parseData(row.data).last_commit;
  return typeof lastCommit === 'string' ? lastCommit : null;
}

export interface EventFilters {
  types: readonly EventType[] | null;
  /** Lower-cased tag (repository_tags.tag_lower). */
  tag: string | null;
  repositoryId: number | null;
  /** Keyset: only events older (smaller id) than this. */
  beforeId: number | null;
  limit: number;
}

export interface EventRow {
  id: number;
  type: EventType;
  occurred_at: string;
  /** When the event was recorded (`created_at`): every event of one sync or add shares it. */
  detected_at: string;
  data: string;
  user_id: number | null;
  repository_id: number;
  full_name: string;
  name: string;
  actor_first_name: string | null;
  actor_last_name: string | null;
  actor_username: string | null;
}

/**
 * Events of the repositories the viewer may see, newest first, narrowed by the filters. `visible`
 * is the catalogue's own rule applied to a `repositories` query; the events are joined to it.
 * Newest first is the primary key backwards (or `(repository_id, id)` / `(type, id)` when
 * filtered), so a page reads about `limit` rows, never the table.
 */
export async function listEvents(
  visible: SelectQueryBuilder<Database, 'repositories', object>,
  filters: EventFilters,
): Promise<EventRow[]> {
  return eventsQuery(visible, filters).execute();
}

/** The query of `listEvents`, apart so tests can read the database's plan for it. */
export function eventsQuery(
  visible: SelectQueryBuilder<Database, 'repositories', object>,
  filters: EventFilters,
) {
  let query = visible
    .innerJoin('repository_events', 'repository_events.repository_id', 'repositories.id')
    .leftJoin('users', 'users.id', 'repository_events.user_id')
    .select([
      'repository_events.id',
      'repository_events.type',
      'repository_events.occurred_at',
      'repository_events.created_at as detected_at',
      'repository_events.data',
      'repository_events.user_id',
      'repository_events.repository_id',
      'repositories.full_name',
      'repositories.name',
      'users.first_name as actor_first_name',
      'users.last_name as actor_last_name',
      'users.username as actor_username',
    ]);
  if (filters.types) query = query.where('repository_events.type', 'in', [...filters.types]);
  if (filters.repositoryId !== null)
    query = query.where('repository_events.repository_id', '=', filters.repositoryId);
  if (filters.tag !== null) {
    // Joined, so the database starts from the tag's repositories and reads each one's events
    // through `(repository_id, id)`, instead of walking every event looking for them.
    const tag = filters.tag;
    query = query.innerJoin('repository_tags', (join) =>
      join
        .onRef('repository_tags.repository_id', '=', 'repository_events.repository_id')
        .on('repository_tags.tag_lower', '=', tag),
    );
  }
  if (filters.beforeId !== null) query = query.where('repository_events.id', '<', filters.beforeId);
  return query.orderBy('repository_events.id', 'desc').limit(filters.limit);
}

function parseData(json: string): Record<string, unknown> {
  try {
    const value = JSON.parse(json) as unknown;
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

// ---- feed tokens -------------------------------------------------------------------------------

export async function findFeedTokenOwner(
  db: Db,
  tokenHash: string,
): Promise<{ user_id: number; is_admin: number; is_active: number } | undefined> {
  return db
    .selectFrom('feed_tokens')
    .innerJoin('users', 'users.id', 'feed_tokens.user_id')
    .select(['feed_tokens.user_id', 'users.is_admin', 'users.is_active'])
    .where('feed_tokens.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export async function findFeedToken(db: Db, userId: number) {
  return db
    .selectFrom('feed_tokens')
    .select(['created_at', 'last_used_at'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** One token per member: a new one replaces the old, in one transaction. */
export async function replaceFeedToken(
  db: Db,
  userId: number,
  tokenHash: string,
  now: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('feed_tokens').where('user_id', '=', userId).execute();
    await trx
      .insertInto('feed_tokens')
      .values({ user_id: userId, token_hash: tokenHash, created_at: now, last_used_at: null })
      .execute();
  });
}

export async function deleteFeedToken(db: Db, userId: number): Promise<void> {
  await db.deleteFrom('feed_tokens').where('user_id', '=', userId).execute();
}

export async function touchFeedToken(db: Db, tokenHash: string, now: string): Promise<void> {
  await db
    .updateTable('feed_tokens')
    .set({ last_used_at: now })
    .where('token_hash', '=', tokenHash)
    .execute();
}

/**
 * The newest events of these public repositories, of these types only, with no member named (a
 * public page's Atom): newest first by the primary key, the repositories' own index narrowing it.
 */
export function listPublicEvents(
  db: Kysely<Database>,
  repositoryIds: readonly number[],
  types: readonly EventType[],
  limit: number,
): Promise<EventRow[]> {
  if (repositoryIds.length === 0) return Promise.resolve([]);
  return (
    db
      .selectFrom('repository_events')
      .innerJoin('repositories', 'repositories.id', 'repository_events.repository_id')
      .select([
        'repository_events.id',
        'repository_events.type',
        'repository_events.occurred_at',
        'repository_events.created_at as detected_at',
        'repository_events.data',
        sql<null>`null`.as('user_id'),
        'repository_events.repository_id',
        'repositories.full_name',
        'repositories.name',
        sql<null>`null`.as('actor_first_name'),
        sql<null>`null`.as('actor_last_name'),
        sql<null>`null`.as('actor_username'),
      ])
      .where('repository_events.repository_id', 'in', [...repositoryIds])
      .where('repository_events.type', 'in', [...types])
      // Unary plus: a condition on the private flag SQLite could answer from its index made it read
      // every public repository instead of these few (the caller's ids are public rows already).
      .where(sql<SqlBool>`+repositories.private = 0`)
      .orderBy('repository_events.id', 'desc')
      .limit(limit)
      .execute()
  );
}
