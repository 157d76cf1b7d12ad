import type { Kysely } from 'kysely';
import { withIdColumn } from '../migration-helpers.ts';

// Migrations are written against Kysely<any> on purpose: they describe history, not today's types.
// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  // Published pages (docs/product.md#public-pages): a shared view or a radar edition at an
  // unguessable slug. One page per view and per edition (re-publishing replaces the slug); gone
  // with its view, edition or publisher.
  await withIdColumn(db, db.schema.createTable('public_pages'))
    .addColumn('slug', 'varchar(64)', (col) => col.notNull().unique())
    .addColumn('kind', 'varchar(10)', (col) => col.notNull())
    .addColumn('view_id', 'integer', (col) => col.unique().references('saved_views.id').onDelete('cascade'))
    .addColumn('edition_id', 'integer', (col) =>
      col.unique().references('radar_editions.id').onDelete('cascade'),
    )
    // A view's fields, comma-separated (docs/product.md#public-pages); '' for an edition.
    .addColumn('fields', 'varchar(200)', (col) => col.notNull())
    .addColumn('include_rationales', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('published_by', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('published_at', 'varchar(40)', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('public_pages_published_by_idx')
    .on('public_pages')
    .column('published_by')
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('public_pages').execute();
}
