import type { Kysely } from 'kysely';
import { withIdColumn } from '../migration-helpers.ts';

// Migrations are written against Kysely<any> on purpose: they describe history, not today's types.
// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  // Personal API tokens (docs/product.md#api-tokens, docs/security.md#c8): stored only as their
  // SHA-256 like refresh and feed tokens, with a visible prefix to recognise them; deleted with
  // their member, on revocation and on deactivation.
  await withIdColumn(db, db.schema.createTable('api_tokens'))
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'varchar(60)', (col) => col.notNull())
    .addColumn('scope', 'varchar(10)', (col) => col.notNull())
    .addColumn('token_hash', 'varchar(64)', (col) => col.notNull().unique())
    .addColumn('prefix', 'varchar(16)', (col) => col.notNull())
    .addColumn('created_at', 'varchar(40)', (col) => col.notNull())
    .addColumn('expires_at', 'varchar(40)')
    .addColumn('last_used_at', 'varchar(40)')
    .addColumn('last_used_ip', 'varchar(64)')
    .execute();
  await db.schema.createIndex('api_tokens_user_id_idx').on('api_tokens').column('user_id').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('api_tokens').execute();
}
