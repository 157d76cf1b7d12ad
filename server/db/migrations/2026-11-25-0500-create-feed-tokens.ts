import type { Kysely } from 'kysely';
import { withIdColumn } from '../migration-helpers.ts';

// Migrations are written against Kysely<any> on purpose: they describe history, not today's types.
// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  // The Atom feed's token (docs/product.md#activity-feed): one per member, random, stored only as
  // its SHA-256 like refresh tokens, so a database or backup reader can't follow anyone's feed.
  // Regenerating replaces the row; revoking deletes it.
  await withIdColumn(db, db.schema.createTable('feed_tokens'))
    .addColumn('user_id', 'integer', (col) =>
      col.notNull().unique().references('users.id').onDelete('cascade'),
    )
    .addColumn('token_hash', 'varchar(64)', (col) => col.notNull().unique())
    .addColumn('created_at', 'varchar(40)', (col) => col.notNull())
    // When a feed reader last fetched the feed with it, shown in Settings.
    .addColumn('last_used_at', 'varchar(40)')
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('feed_tokens').execute();
}
