import type { Kysely } from 'kysely';
import { withIdColumn } from '../migration-helpers.ts';

// Migrations are written against Kysely<any> on purpose: they describe history, not today's types.
// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  // Releases become versions (docs/product.md, "Releases"). Existing versions were all recorded
  // by members: 'manual'. A version made from (or linked to) a GitHub release keeps its address.
  await db.schema
    .alterTable('versions')
    .addColumn('source', 'varchar(20)', (col) => col.notNull().defaultTo('manual'))
    .execute();
  await db.schema.alterTable('versions').addColumn('release_url', 'text').execute();

  // Per repository: the members' settings and what the sync engine learnt. No row = defaults,
  // never read (rows are written on the first read or the first save).
  await db.schema
    .createTable('repository_release_tracking')
    .addColumn('repository_id', 'integer', (col) =>
      col.primaryKey().references('repositories.id').onDelete('cascade'),
    )
    .addColumn('include_prereleases', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('tag_pattern', 'varchar(200)', (col) => col.notNull().defaultTo(''))
    // 'releases', 'tags' (the project has none: its tags are followed), or null before a read.
    .addColumn('follows', 'varchar(20)')
    // The first read sets it: only then is a release "new" (the first read takes only the latest).
    .addColumn('checked_at', 'varchar(40)')
    .addColumn('updated_at', 'varchar(40)', (col) => col.notNull())
    .execute();

  // Every published release (or tag) seen, so a later read knows which are new. Rows stay when
  // GitHub deletes the release (`deleted_at`), and so does the version made from it.
  await withIdColumn(db, db.schema.createTable('repository_releases'))
    .addColumn('repository_id', 'integer', (col) =>
      col.notNull().references('repositories.id').onDelete('cascade'),
    )
    // 'release' or 'tag'.
    .addColumn('kind', 'varchar(10)', (col) => col.notNull())
    .addColumn('tag', 'varchar(255)', (col) => col.notNull())
    .addColumn('name', 'text')
    .addColumn('published_at', 'varchar(40)')
    .addColumn('prerelease', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('url', 'text')
    // The version it became or was linked to; null when filtered out, or seen on the first read.
    .addColumn('version_id', 'integer', (col) => col.references('versions.id').onDelete('set null'))
    .addColumn('seen_at', 'varchar(40)', (col) => col.notNull())
    .addColumn('deleted_at', 'varchar(40)')
    .execute();
  await db.schema
    .createIndex('repository_releases_tag')
    .on('repository_releases')
    .columns(['repository_id', 'kind', 'tag'])
    .unique()
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('repository_releases').execute();
  await db.schema.dropTable('repository_release_tracking').execute();
  await db.schema.alterTable('versions').dropColumn('release_url').execute();
  await db.schema.alterTable('versions').dropColumn('source').execute();
}
