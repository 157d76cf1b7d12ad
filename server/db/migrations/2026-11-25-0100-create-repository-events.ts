import type { Kysely } from 'kysely';
import { withIdColumn } from '../migration-helpers.ts';

// Migrations are written against Kysely<any> on purpose: they describe history, not today's types.
// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  // What changed, per repository (docs/product.md, "Activity"): written by the sync engine and
  // the add path, read by the activity feed, the Atom feed and the notification dispatcher.
  // Data, not derived: backed up and restored with the repositories they belong to.
  await withIdColumn(db, db.schema.createTable('repository_events'))
    .addColumn('repository_id', 'integer', (col) =>
      col.notNull().references('repositories.id').onDelete('cascade'),
    )
    // One of EVENT_TYPES in shared/schemas/activity.ts.
    .addColumn('type', 'varchar(40)', (col) => col.notNull())
    // ISO-8601 UTC: when it happened on GitHub where known (a release's publication), else when seen.
    .addColumn('occurred_at', 'varchar(40)', (col) => col.notNull())
    // The member whose action it was (an add), else null (seen by the sync engine).
    .addColumn('user_id', 'integer', (col) => col.references('users.id').onDelete('set null'))
    // JSON object of the type's details (EventData in shared/schemas/activity.ts).
    .addColumn('data', 'text', (col) => col.notNull().defaultTo('{}'))
    .addColumn('created_at', 'varchar(40)', (col) => col.notNull())
    .execute();
  // The feed pages newest first by id (ids grow with time of recording), per repository and type.
  await db.schema
    .createIndex('repository_events_repository')
    .on('repository_events')
    .columns(['repository_id', 'id'])
    .execute();
  await db.schema
    .createIndex('repository_events_type')
    .on('repository_events')
    .columns(['type', 'id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('repository_events').execute();
}
