import { type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import type {
  Database,
  RepositoryReleasesTable,
  RepositoryReleaseTrackingTable,
  VersionsTable,
} from '../../db/schema.ts';

type Db = Kysely<Database>;

export type TrackingRow = Selectable<RepositoryReleaseTrackingTable>;
export type SeenReleaseRow = Selectable<RepositoryReleasesTable>;

export async function findTracking(db: Db, repositoryId: number): Promise<TrackingRow | undefined> {
  return db
    .selectFrom('repository_release_tracking')
    .selectAll()
    .where('repository_id', '=', repositoryId)
    .executeTakeFirst();
}

/** Writes the row, creating it with the defaults for the fields not given. */
export async function upsertTracking(
  db: Db,
  repositoryId: number,
  changes: Partial<Omit<TrackingRow, 'repository_id'>> & { updated_at: string },
): Promise<void> {
  await db
    .insertInto('repository_release_tracking')
    .values({
      repository_id: repositoryId,
      include_prereleases: 0,
      tag_pattern: '',
      follows: null,
      checked_at: null,
      ...changes,
    })
    .onConflict((oc) => oc.column('repository_id').doUpdateSet(changes))
    .execute();
}

/** Lower-case names of the given repositories whose tags are followed (they have no release). */
export async function listFollowingTags(db: Db, repositoryIds: number[]): Promise<string[]> {
  if (repositoryIds.length === 0) return [];
  const rows = await db
    .selectFrom('repository_release_tracking as t')
    .innerJoin('repositories as r', 'r.id', 't.repository_id')
    .select('r.full_name')
    .where('t.repository_id', 'in', repositoryIds)
    .where('t.follows', '=', 'tags')
    .where('t.checked_at', 'is not', null)
    .execute();
  return rows.map((row) => row.full_name.toLowerCase());
}

export async function listSeen(
  db: Db,
  repositoryId: number,
  kind: 'release' | 'tag',
): Promise<SeenReleaseRow[]> {
  return db
    .selectFrom('repository_releases')
    .selectAll()
    .where('repository_id', '=', repositoryId)
    .where('kind', '=', kind)
    .execute();
}

export async function insertSeen(db: Db, row: Insertable<RepositoryReleasesTable>): Promise<void> {
  await db.insertInto('repository_releases').values(row).execute();
}

export async function markDeleted(db: Db, ids: number[], at: string | null): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('repository_releases').set({ deleted_at: at }).where('id', 'in', ids).execute();
}

/** A version whose number is the tag, spaces around and case aside. */
export async function findVersionByNumber(
  db: Db,
  repositoryId: number,
  versionNumber: string,
): Promise<{ id: number; release_url: string | null } | undefined> {
  return db
    .selectFrom('versions')
    .select(['id', 'release_url'])
    .where('repository_id', '=', repositoryId)
    .where(sql<string>`lower(trim(version_number))`, '=', versionNumber.trim().toLowerCase())
    .orderBy('id')
    .executeTakeFirst();
}

export async function insertVersion(db: Db, version: Insertable<VersionsTable>): Promise<number> {
  const row = await db.insertInto('versions').values(version).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function setVersionReleaseUrl(db: Db, versionId: number, url: string): Promise<void> {
  await db
    .updateTable('versions')
    .set({ release_url: url })
    .where('id', '=', versionId)
    .where('release_url', 'is', null)
    .execute();
}
