import type { Kysely } from 'kysely';
import { withIdColumn } from '../migration-helpers.ts';

// Migrations are written against Kysely<any> on purpose: they describe history, not today's types.
// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  // Single sign-on (docs/product.md#single-sign-on, docs/security.md#oidc-sign-in). Accounts made
  // by single sign-on have no password anyone knows: `password_set` 0 until a reset sets one.
  await db.schema
    .alterTable('users')
    .addColumn('password_set', 'integer', (col) => col.notNull().defaultTo(1))
    .execute();

  // A provider's identity linked to an account, by issuer and subject (never by e-mail).
  await withIdColumn(db, db.schema.createTable('user_identities'))
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('issuer', 'varchar(500)', (col) => col.notNull())
    .addColumn('subject', 'varchar(255)', (col) => col.notNull())
    .addColumn('email', 'varchar(254)')
    .addColumn('created_at', 'varchar(40)', (col) => col.notNull())
    .addColumn('last_sign_in_at', 'varchar(40)')
    .addUniqueConstraint('user_identities_issuer_subject_key', ['issuer', 'subject'])
    .execute();
  await db.schema
    .createIndex('user_identities_user_id_idx')
    .on('user_identities')
    .column('user_id')
    .execute();

  // A sign-in in flight (start → provider → callback), shared by every instance through the
  // database: the state's hash, the browser binding's hash, nonce and PKCE verifier sealed.
  // Spent by the callback; expired rows are swept by the next start (docs/decisions.md).
  await withIdColumn(db, db.schema.createTable('oidc_sign_in_states'))
    .addColumn('state_hash', 'varchar(64)', (col) => col.notNull().unique())
    .addColumn('browser_hash', 'varchar(64)', (col) => col.notNull())
    .addColumn('secrets_enc', 'text', (col) => col.notNull())
    .addColumn('created_at', 'varchar(40)', (col) => col.notNull())
    .addColumn('expires_at', 'varchar(40)', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('oidc_sign_in_states_expires_at_idx')
    .on('oidc_sign_in_states')
    .column('expires_at')
    .execute();

  // One-time codes the callback hands the app (`session`: sign in; `link`: prove the password
  // first), stored as SHA-256, short-lived, spent once; the payload (ID token …) sealed.
  await withIdColumn(db, db.schema.createTable('oidc_exchange_codes'))
    .addColumn('code_hash', 'varchar(64)', (col) => col.notNull().unique())
    .addColumn('purpose', 'varchar(10)', (col) => col.notNull())
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('payload_enc', 'text', (col) => col.notNull())
    .addColumn('created_at', 'varchar(40)', (col) => col.notNull())
    .addColumn('expires_at', 'varchar(40)', (col) => col.notNull())
    .addColumn('used_at', 'varchar(40)')
    .execute();
  await db.schema
    .createIndex('oidc_exchange_codes_expires_at_idx')
    .on('oidc_exchange_codes')
    .column('expires_at')
    .execute();

  // The ID token of a session that came from single sign-on, sealed, for the provider's sign-out.
  await db.schema
    .createTable('oidc_sessions')
    .addColumn('family_id', 'varchar(36)', (col) => col.primaryKey())
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('id_token_enc', 'text', (col) => col.notNull())
    .addColumn('created_at', 'varchar(40)', (col) => col.notNull())
    .addColumn('expires_at', 'varchar(40)', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('oidc_sessions_user_id_idx').on('oidc_sessions').column('user_id').execute();

  // The admin "Sign-in" section's recent events (failures and notices), capped on insert.
  await withIdColumn(db, db.schema.createTable('sign_in_events'))
    .addColumn('at', 'varchar(40)', (col) => col.notNull())
    .addColumn('reason', 'varchar(40)', (col) => col.notNull())
    .addColumn('detail', 'varchar(500)', (col) => col.notNull())
    .addColumn('user_id', 'integer', (col) => col.references('users.id').onDelete('set null'))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sign_in_events').execute();
  await db.schema.dropTable('oidc_sessions').execute();
  await db.schema.dropTable('oidc_exchange_codes').execute();
  await db.schema.dropTable('oidc_sign_in_states').execute();
  await db.schema.dropTable('user_identities').execute();
  await db.schema.alterTable('users').dropColumn('password_set').execute();
}
