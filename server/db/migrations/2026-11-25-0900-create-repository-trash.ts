import type { Kysely } from 'kysely';
import { withIdColumn } from '../migration-helpers.ts';

// Migrations are written against Kysely<any> on purpose: they describe history, not today's types.
// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  // A deleted repository's rows for the 30 s its deletion can be undone (docs/product.md#undo-delete).
  // Transient: never backed up, and purged once expired.
  await withIdColumn(db, db.schema.createTable('repository_trash'))
    .addColumn('repository_id', 'integer', (col) => col.notNull())
    .addColumn('full_name_lower', 'varchar(201)', (col) => col.notNull())
    .addColumn('deleted_by', 'integer', (col) => col.references('users.id').onDelete('cascade'))
    .addColumn('deleted_at', 'varchar(40)', (col) => col.notNull())
    .addColumn('expires_at', 'varchar(40)', (col) => col.notNull())
    // JSON: { table: rows[] } of the repository and every row that belongs to it.
    .addColumn('rows', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('repository_trash_name')
    .on('repository_trash')
    .columns(['full_name_lower', 'id'])
    .execute();
  await db.schema
    .createIndex('repository_trash_expiry')
    .on('repository_trash')
    .column('expires_at')
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('repository_trash').execute();
}
