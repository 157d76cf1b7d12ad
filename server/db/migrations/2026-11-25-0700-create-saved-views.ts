import type { Kysely } from 'kysely';
import { withIdColumn } from '../migration-helpers.ts';

// Migrations are written against Kysely<any> on purpose: they describe history, not today's types.
// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  // Named list views (docs/product.md#saved-views): the list's address query, private or shared.
  await withIdColumn(db, db.schema.createTable('saved_views'))
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'varchar(60)', (col) => col.notNull())
    // Lower-cased name: one view of a name per member.
    .addColumn('name_lower', 'varchar(60)', (col) => col.notNull())
    .addColumn('query', 'varchar(2000)', (col) => col.notNull())
    .addColumn('shared', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(40)', (col) => col.notNull())
    .addColumn('updated_at', 'varchar(40)', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('saved_views_owner_name')
    .on('saved_views')
    .columns(['user_id', 'name_lower'])
    .unique()
    .execute();
  await db.schema.createIndex('saved_views_shared').on('saved_views').columns(['shared', 'id']).execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('saved_views').execute();
}
