import { type Kysely, sql } from 'kysely';
import { withIdColumn } from '../migration-helpers.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations describe history, not today's types
export async function up(db: Kysely<any>): Promise<void> {
  // Flags are 0/1 integers on both databases so rows and backups look the same everywhere.
  await withIdColumn(db, db.schema.createTable('users'))
    .addColumn('username', 'varchar(20)', (col) => col.notNull())
    .addColumn('email', 'varchar(254)', (col) => col.notNull())
    .addColumn('first_name', 'varchar(100)', (col) => col.notNull())
    .addColumn('last_name', 'varchar(100)', (col) => col.notNull())
    .addColumn('password_hash', 'varchar(255)', (col) => col.notNull())
    .addColumn('is_active', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('is_verified', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('is_admin', 'integer', (col) => col.notNull().defaultTo(0))
    // Bumped to invalidate every access token of the user at once (deactivation, reset).
    .addColumn('token_version', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(40)', (col) => col.notNull())
    .addColumn('updated_at', 'varchar(40)', (col) => col.notNull())
    .addColumn('last_login_at', 'varchar(40)')
    .addColumn('github_token_enc', 'text')
    .addColumn('github_token_last_four', 'varchar(4)')
    .addColumn('github_token_set_at', 'varchar(40)')
    .addColumn('slack_webhook_enc', 'text')
    .addColumn('slack_webhook_set_at', 'varchar(40)')
    .execute();
  // Case-insensitive uniqueness; the stored spelling is what the user typed.
  await db.schema
    .createIndex('users_username_lower_idx')
    .on('users')
    .unique()
    .expression(sql`lower(username)`)
    .execute();
  await db.schema
    .createIndex('users_email_lower_idx')
    .on('users')
    .unique()
    .expression(sql`lower(email)`)
    .execute();

  // Refresh tokens: only a SHA-256 of the token is kept. One row per issued token; a family is
  // one sign-in and its rotations, sharing the absolute expiry of that sign-in.
  await withIdColumn(db, db.schema.createTable('refresh_tokens'))
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('family_id', 'varchar(36)', (col) => col.notNull())
    .addColumn('token_hash', 'varchar(64)', (col) => col.notNull().unique())
    .addColumn('remember_me', 'integer', (col) => col.notNull())
    .addColumn('expires_at', 'varchar(40)', (col) => col.notNull())
    .addColumn('created_at', 'varchar(40)', (col) => col.notNull())
    .addColumn('used_at', 'varchar(40)')
    .addColumn('revoked_at', 'varchar(40)')
    .execute();
  await db.schema.createIndex('refresh_tokens_family_idx').on('refresh_tokens').column('family_id').execute();
  await db.schema.createIndex('refresh_tokens_user_idx').on('refresh_tokens').column('user_id').execute();

  // One-time e-mail tokens (verification, password reset), hashed and single use.
  await withIdColumn(db, db.schema.createTable('email_tokens'))
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'varchar(20)', (col) => col.notNull())
    .addColumn('token_hash', 'varchar(64)', (col) => col.notNull().unique())
    .addColumn('expires_at', 'varchar(40)', (col) => col.notNull())
    .addColumn('created_at', 'varchar(40)', (col) => col.notNull())
    .addColumn('used_at', 'varchar(40)')
    .execute();
  await db.schema
    .createIndex('email_tokens_user_purpose_idx')
    .on('email_tokens')
    .columns(['user_id', 'purpose'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('email_tokens').execute();
  await db.schema.dropTable('refresh_tokens').execute();
  await db.schema.dropTable('users').execute();
}
