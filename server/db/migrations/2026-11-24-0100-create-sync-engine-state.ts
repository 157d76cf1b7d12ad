import { type Kysely, sql } from 'kysely';

// Migrations are written against Kysely<any> on purpose: they describe history, not today's types.
// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  // A repository imported over GraphQL has every field but its contributor count (REST only),
  // which the sync engine fills within the token's pace: 1 while counting, and the API answers
  // `contributors: null`. A flag rather than a nullable `contributors`: on SQLite making a
  // column nullable means rebuilding `repositories`, whose search triggers and cascading
  // foreign keys make that unsafe inside a migration (docs/decisions.md, "Counting state").
  await db.schema
    .alterTable('repositories')
    .addColumn('contributors_pending', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('repositories_contributors_pending')
    .on('repositories')
    .columns(['contributors_pending', 'id'])
    .execute();

  // The sync engine's schedule: one row per repository (docs/product.md, "Background sync").
  // Derived: left out of backups and rebuilt (everything due) after a restore.
  await db.schema
    .createTable('repository_sync_state')
    .addColumn('repository_id', 'integer', (col) =>
      col.primaryKey().references('repositories.id').onDelete('cascade'),
    )
    // ISO-8601 UTC, as every other timestamp here: text order is time order.
    .addColumn('due_at', 'varchar(40)', (col) => col.notNull())
    .addColumn('leased_until', 'varchar(40)')
    .addColumn('lease_owner', 'varchar(200)')
    // ok | not_modified | renamed | gone | failed
    .addColumn('last_result', 'varchar(20)')
    .addColumn('last_error', 'varchar(1000)')
    .addColumn('last_attempt_at', 'varchar(40)')
    .addColumn('failures', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('repository_sync_state_due')
    .on('repository_sync_state')
    .columns(['due_at', 'repository_id'])
    .execute();
  const now = new Date().toISOString();
  await db
    .insertInto('repository_sync_state')
    .columns(['repository_id', 'due_at', 'failures'])
    .expression(
      db.selectFrom('repositories').select(['id', sql.lit(now).as('due_at'), sql.lit(0).as('failures')]),
    )
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('repository_sync_state').execute();
  await db.schema.dropIndex('repositories_contributors_pending').execute();
  await db.schema.alterTable('repositories').dropColumn('contributors_pending').execute();
}
