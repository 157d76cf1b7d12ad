import type { Kysely } from 'kysely';
import { withIdColumn } from '../migration-helpers.ts';

/**
 * Team decisions (docs/product.md#team-decisions, docs/architecture.md#modules): the four radar
 * quadrants an admin names, every decision record (never edited or deleted), the current status
 * and quadrant per repository (a small table of its own, indexed by status for the list's later
 * filter), proposals and their votes (one per member). Everything of a repository cascades with
 * it and goes to the trash with it (its `repository_id` column).
 */

const DEFAULT_QUADRANTS = [
  { key: 'languages', name: 'Languages & Frameworks', position: 0 },
  { key: 'libraries', name: 'Libraries', position: 1 },
  { key: 'tools', name: 'Tools', position: 2 },
  { key: 'platforms', name: 'Platforms', position: 3 },
];

// biome-ignore lint/suspicious/noExplicitAny: migrations describe history, not today's types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('decision_quadrants')
    .addColumn('key', 'varchar(40)', (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('position', 'integer', (col) => col.notNull())
    .execute();
  await db.insertInto('decision_quadrants').values(DEFAULT_QUADRANTS).execute();

  await withIdColumn(db, db.schema.createTable('decision_proposals'))
    .addColumn('repository_id', 'integer', (col) =>
      col.notNull().references('repositories.id').onDelete('cascade'),
    )
    // open, accepted or declined.
    .addColumn('state', 'varchar(10)', (col) => col.notNull())
    .addColumn('status', 'varchar(10)')
    .addColumn('quadrant', 'varchar(40)')
    .addColumn('rationale', 'text', (col) => col.notNull())
    // JSON array of http(s) URLs.
    .addColumn('links', 'text', (col) => col.notNull().defaultTo('[]'))
    .addColumn('review_by', 'varchar(10)')
    .addColumn('proposed_by', 'integer', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('proposed_by_name', 'text', (col) => col.notNull())
    .addColumn('proposed_at', 'varchar(40)', (col) => col.notNull())
    .addColumn('resolved_by', 'integer', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('resolved_by_name', 'text')
    .addColumn('resolved_at', 'varchar(40)')
    .addColumn('decline_reason', 'text')
    // The record an acceptance wrote (no foreign key: the record names the proposal).
    .addColumn('decision_id', 'integer')
    .execute();
  await db.schema
    .createIndex('decision_proposals_state')
    .on('decision_proposals')
    .columns(['state', 'id'])
    .execute();
  await db.schema
    .createIndex('decision_proposals_repository')
    .on('decision_proposals')
    .columns(['repository_id', 'id'])
    .execute();

  await withIdColumn(db, db.schema.createTable('repository_decisions'))
    .addColumn('repository_id', 'integer', (col) =>
      col.notNull().references('repositories.id').onDelete('cascade'),
    )
    .addColumn('from_status', 'varchar(10)')
    .addColumn('to_status', 'varchar(10)')
    .addColumn('from_quadrant', 'varchar(40)')
    .addColumn('to_quadrant', 'varchar(40)')
    .addColumn('rationale', 'text', (col) => col.notNull())
    .addColumn('links', 'text', (col) => col.notNull().defaultTo('[]'))
    .addColumn('decided_by', 'integer', (col) => col.references('users.id').onDelete('set null'))
    // The username when decided, kept when the account is deleted.
    .addColumn('decided_by_name', 'text', (col) => col.notNull())
    .addColumn('decided_at', 'varchar(40)', (col) => col.notNull())
    // YYYY-MM-DD; the decision is due for review from that day.
    .addColumn('review_by', 'varchar(10)')
    .addColumn('proposal_id', 'integer', (col) =>
      col.references('decision_proposals.id').onDelete('set null'),
    )
    // When its review_due event was recorded (once per decision, across instances).
    .addColumn('review_notified_at', 'varchar(40)')
    .execute();
  await db.schema
    .createIndex('repository_decisions_repository')
    .on('repository_decisions')
    .columns(['repository_id', 'id'])
    .execute();
  await db.schema
    .createIndex('repository_decisions_review')
    .on('repository_decisions')
    .columns(['review_by', 'id'])
    .execute();

  await db.schema
    .createTable('repository_decision_current')
    .addColumn('repository_id', 'integer', (col) =>
      col.primaryKey().references('repositories.id').onDelete('cascade'),
    )
    .addColumn('status', 'varchar(10)')
    .addColumn('quadrant', 'varchar(40)')
    .addColumn('decision_id', 'integer', (col) =>
      col.notNull().references('repository_decisions.id').onDelete('cascade'),
    )
    .execute();
  await db.schema
    .createIndex('repository_decision_current_status')
    .on('repository_decision_current')
    .columns(['status', 'repository_id'])
    .execute();

  await db.schema
    .createTable('decision_votes')
    .addColumn('proposal_id', 'integer', (col) =>
      col.notNull().references('decision_proposals.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    // Kept with the proposal's rows in the trash.
    .addColumn('repository_id', 'integer', (col) =>
      col.notNull().references('repositories.id').onDelete('cascade'),
    )
    .addColumn('value', 'integer', (col) => col.notNull())
    .addColumn('voted_at', 'varchar(40)', (col) => col.notNull())
    .addPrimaryKeyConstraint('decision_votes_pk', ['proposal_id', 'user_id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'decision_votes',
    'repository_decision_current',
    'repository_decisions',
    'decision_proposals',
    'decision_quadrants',
  ])
    await db.schema.dropTable(table).execute();
}
