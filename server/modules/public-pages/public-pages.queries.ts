import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { PublicPagesTable } from '../../db/schema-public-pages.ts';

type Db = Kysely<Database>;
export type PublicPageRow = Selectable<PublicPagesTable>;
export type NewPublicPage = Omit<PublicPageRow, 'id'>;

export function findByView(db: Db, viewId: number) {
  return db.selectFrom('public_pages').selectAll().where('view_id', '=', viewId).executeTakeFirst();
}

export function findByEdition(db: Db, editionId: number) {
  return db.selectFrom('public_pages').selectAll().where('edition_id', '=', editionId).executeTakeFirst();
}

/**
 * A published page by its slug, with what decides whether it still stands: a view's sharing and
 * its owner's and the publisher's accounts being active.
 */
export function findBySlug(db: Db, slug: string) {
  return db
    .selectFrom('public_pages')
    .innerJoin('users as publisher', 'publisher.id', 'public_pages.published_by')
    .leftJoin('saved_views', 'saved_views.id', 'public_pages.view_id')
    .leftJoin('users as owner', 'owner.id', 'saved_views.user_id')
    .leftJoin('radar_editions', 'radar_editions.id', 'public_pages.edition_id')
    .selectAll('public_pages')
    .select([
      'publisher.is_active as publisher_active',
      'saved_views.name as view_name',
      'saved_views.query as view_query',
      'saved_views.shared as view_shared',
      'owner.is_active as owner_active',
      'radar_editions.name as edition_name',
    ])
    .where('public_pages.slug', '=', slug)
    .executeTakeFirst();
}

/** A new page, or the page of the same view or edition under a new slug (the old address dies). */
export async function replacePage(db: Db, page: NewPublicPage): Promise<PublicPageRow> {
  return db.transaction().execute(async (trx) => {
    if (page.view_id !== null)
      await trx.deleteFrom('public_pages').where('view_id', '=', page.view_id).execute();
    if (page.edition_id !== null)
      await trx.deleteFrom('public_pages').where('edition_id', '=', page.edition_id).execute();
    return trx.insertInto('public_pages').values(page).returningAll().executeTakeFirstOrThrow();
  });
}

export async function deleteByView(db: Db, viewId: number): Promise<number> {
  const result = await db.deleteFrom('public_pages').where('view_id', '=', viewId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function deleteByEdition(db: Db, editionId: number): Promise<number> {
  const result = await db.deleteFrom('public_pages').where('edition_id', '=', editionId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function deleteById(db: Db, id: number): Promise<number> {
  const result = await db.deleteFrom('public_pages').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Pages that no longer stand: a view made private, or whose owner or publisher was deactivated
 * (a deleted view, edition or account takes its pages with it by foreign key).
 */
export async function deleteFallen(db: Db): Promise<void> {
  const inactive = db.selectFrom('users').select('id').where('is_active', '=', 0);
  await db
    .deleteFrom('public_pages')
    .where((eb) =>
      eb.or([
        eb('published_by', 'in', inactive),
        eb(
          'view_id',
          'in',
          eb
            .selectFrom('saved_views')
            .select('saved_views.id')
            .where((inner) => inner.or([inner('shared', '=', 0), inner('user_id', 'in', inactive)])),
        ),
      ]),
    )
    .execute();
}

/** Everything published, newest first, with the view's or edition's name and the publisher. */
export function listPages(db: Db) {
  return db
    .selectFrom('public_pages')
    .innerJoin('users', 'users.id', 'public_pages.published_by')
    .leftJoin('saved_views', 'saved_views.id', 'public_pages.view_id')
    .leftJoin('radar_editions', 'radar_editions.id', 'public_pages.edition_id')
    .selectAll('public_pages')
    .select(['users.username', 'saved_views.name as view_name', 'radar_editions.name as edition_name'])
    .orderBy('public_pages.id', 'desc')
    .execute();
}

/** The latest tracked version of each repository (the newest release date, the last recorded among equals). */
export async function latestVersions(
  db: Db,
  repositoryIds: readonly number[],
): Promise<Map<number, { version: string; date: string | null }>> {
  if (repositoryIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('versions')
    .select(['repository_id', 'version_number', 'release_date', 'created_at', 'id'])
    .where('repository_id', 'in', [...repositoryIds])
    .execute();
  const latest = new Map<number, { version: string; date: string | null; key: string; id: number }>();
  for (const row of rows) {
    const key = row.release_date ?? row.created_at.slice(0, 10);
    const held = latest.get(row.repository_id);
    if (!held || key > held.key || (key === held.key && row.id > held.id))
      latest.set(row.repository_id, { version: row.version_number, date: row.release_date, key, id: row.id });
  }
  return new Map([...latest].map(([id, { version, date }]) => [id, { version, date }]));
}

/** A published edition's entries of public repositories, in blip order. */
export function publicEditionEntries(db: Db, editionId: number) {
  return db
    .selectFrom('radar_edition_entries')
    .select(['full_name', 'quadrant', 'quadrant_name', 'status', 'rationale'])
    .where('edition_id', '=', editionId)
    .where('private', '=', 0)
    .orderBy('id')
    .execute();
}

export function editionQuadrants(db: Db, editionId: number) {
  return db
    .selectFrom('radar_edition_quadrants')
    .select(['key', 'name'])
    .where('edition_id', '=', editionId)
    .orderBy('position')
    .execute();
}
