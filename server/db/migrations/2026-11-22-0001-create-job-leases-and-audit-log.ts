import type { Kysely } from 'kysely';
import { withIdColumn } from '../migration-helpers.ts';

// Migrations are written against Kysely<any> on purpose: they describe history, not today's types.
// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  // One row per scheduled job: whoever holds an unexpired lease runs it, so a job runs once
  // per schedule across several instances.
  await db.schema
    .createTable('job_leases')
    .addColumn('name', 'varchar(100)', (col) => col.primaryKey())
    .addColumn('holder', 'varchar(100)', (col) => col.notNull())
    .addColumn('expires_at', 'varchar(40)', (col) => col.notNull())
    .execute();

  // Security events and admin changes (docs/security.md#d3, #g4).
  await withIdColumn(db, db.schema.createTable('audit_log'))
    .addColumn('actor_id', 'integer')
    .addColumn('action', 'varchar(100)', (col) => col.notNull())
    .addColumn('target', 'varchar(200)')
    .addColumn('detail', 'text')
    .addColumn('created_at', 'varchar(40)', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('audit_log_created_at_idx').on('audit_log').column('created_at').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('audit_log').execute();
  await db.schema.dropTable('job_leases').execute();
}
