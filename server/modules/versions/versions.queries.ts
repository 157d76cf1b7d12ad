import type { Insertable, Kysely } from 'kysely';
import type { Database, VersionsTable } from '../../db/schema.ts';

type Db = Kysely<Database>;

const versionColumns = [
  'id',
  'version_number',
  'release_date',
  'description',
  'created_at',
  'source',
  'release_url',
] as const;

export async function listVersions(db: Db, repositoryId: number) {
  return db
    .selectFrom('versions')
    .select(versionColumns)
    .where('repository_id', '=', repositoryId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function insertVersion(db: Db, version: Insertable<VersionsTable>) {
  return db.insertInto('versions').values(version).returning(versionColumns).executeTakeFirstOrThrow();
}

export async function findVersionSnapshot(db: Db, repositoryId: number, versionId: number) {
  // The query string takes any safe integer, but ids are PostgreSQL `integer`s: one out of that
  // range names no version, and sending it would fail the query ("out of range", a 500).
  // Found by server/fuzz.property.test.ts under TEST_DB=postgres.
  if (!Number.isInteger(versionId) || versionId < 1 || versionId > 2_147_483_647) return undefined;
  return db
    .selectFrom('versions')
    .select(['id', 'snapshot'])
    .where('repository_id', '=', repositoryId)
    .where('id', '=', versionId)
    .executeTakeFirst();
}
