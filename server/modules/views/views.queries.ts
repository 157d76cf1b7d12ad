import type { Insertable, Kysely, Updateable } from 'kysely';
import { isPostgres } from '../../db/migration-helpers.ts';
import type { Database } from '../../db/schema.ts';
import type { SavedViewsTable } from '../../db/schema-public-pages.ts';

type Db = Kysely<Database>;

const columns = [
  'saved_views.id',
  'saved_views.user_id',
  'saved_views.name',
  'saved_views.query',
  'saved_views.shared',
  'saved_views.created_at',
  'saved_views.updated_at',
  'users.username',
] as const;

function selectViews(db: Db) {
  return db.selectFrom('saved_views').innerJoin('users', 'users.id', 'saved_views.user_id').select(columns);
}

/** The member's own views and every shared one, by name. */
export function listVisibleViews(db: Db, userId: number) {
  return selectViews(db)
    .where((eb) => eb.or([eb('saved_views.user_id', '=', userId), eb('saved_views.shared', '=', 1)]))
    .orderBy('saved_views.name_lower')
    .orderBy('saved_views.id')
    .execute();
}

export function findView(db: Db, id: number) {
  return selectViews(db).where('saved_views.id', '=', id).executeTakeFirst();
}

/** The member's own views, private and shared. */
export async function countOwnViews(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('saved_views')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Holds the member's row until the transaction ends, so their parallel saves count one after
 * another on PostgreSQL (SQLite serialises writers by itself).
 */
export async function lockMember(trx: Db, userId: number): Promise<void> {
  if (!isPostgres(trx)) return;
  await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
}

export async function insertView(db: Db, row: Insertable<SavedViewsTable>): Promise<number> {
  const inserted = await db.insertInto('saved_views').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

export async function updateView(db: Db, id: number, patch: Updateable<SavedViewsTable>): Promise<void> {
  await db.updateTable('saved_views').set(patch).where('id', '=', id).execute();
}

export async function deleteView(db: Db, id: number): Promise<void> {
  await db.deleteFrom('saved_views').where('id', '=', id).execute();
}

/** Takes a view's public page down (docs/product.md#public-pages). */
export async function deletePublication(db: Db, viewId: number): Promise<void> {
  await db.deleteFrom('public_pages').where('view_id', '=', viewId).execute();
}
