import type { Kysely } from 'kysely';

// Migrations are written against Kysely<any> on purpose: they describe history, not today's types.
// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  // At most one row, ever (its primary key is the constant 1): the first-admin path of sign-up
  // is taken by inserting it in the registering account's transaction. Of simultaneous first
  // registrations only one insert succeeds; the "no users yet" check alone was not atomic
  // (server/modules/auth/auth.queries.ts, claimFirstAdmin).
  await db.schema
    .createTable('instance_bootstrap')
    .addColumn('id', 'integer', (col) => col.primaryKey())
    // Informational: the account that became the first admin (none for an instance upgraded
    // with users already in it).
    .addColumn('user_id', 'integer')
    .addColumn('claimed_at', 'varchar(40)', (col) => col.notNull())
    .execute();
  // An instance that already has users has had its first admin.
  const now = new Date().toISOString();
  const existing = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (existing) {
    await db.insertInto('instance_bootstrap').values({ id: 1, user_id: null, claimed_at: now }).execute();
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('instance_bootstrap').execute();
}
