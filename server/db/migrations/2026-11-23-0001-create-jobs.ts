import type { Kysely } from 'kysely';
import { withIdColumn } from '../migration-helpers.ts';

// Migrations are written against Kysely<any> on purpose: they describe history, not today's types.
// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  // The durable job queue (server/jobs/job-queue.ts): work done after the answer (mail, Slack
  // messages), claimed by one worker at a time through a row lease. Never backed up.
  await withIdColumn(db, db.schema.createTable('jobs'))
    .addColumn('kind', 'varchar(100)', (col) => col.notNull())
    // JSON; sealed with SECRET_KEY by the producer when it holds secrets (queued mail does).
    .addColumn('payload', 'text', (col) => col.notNull())
    // pending (waiting, or running under a lease), succeeded, failed (no attempts left).
    .addColumn('status', 'varchar(20)', (col) => col.notNull().defaultTo('pending'))
    .addColumn('run_at', 'varchar(40)', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (col) => col.notNull())
    .addColumn('lease_owner', 'varchar(100)')
    .addColumn('lease_until', 'varchar(40)')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'varchar(40)', (col) => col.notNull())
    .addColumn('updated_at', 'varchar(40)', (col) => col.notNull())
    .addColumn('finished_at', 'varchar(40)')
    .execute();
  // The claim's search: pending rows by due time.
  await db.schema.createIndex('jobs_status_run_at_idx').on('jobs').columns(['status', 'run_at']).execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('jobs').execute();
}
