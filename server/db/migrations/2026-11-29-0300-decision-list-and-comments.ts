import { type Kysely, sql } from 'kysely';
import { withIdColumn } from '../migration-helpers.ts';

/**
 * Team decisions in the list (docs/product.md#team-decisions, docs/decisions.md "Decision status
 * on the repository row"): each repository's current status and quadrant copied onto its row,
 * written with `repository_decision_current` by the decisions module, so the list shows, filters
 * (`status=`, through `repositories_decision_status_idx`), counts and exports them without a
 * join, as health's grade. Backfilled from `repository_decision_current`.
 *
 * And the comments members write on proposals: Markdown, one row each, cascading with their
 * proposal and with the repository (its `repository_id`, so they go to the trash with it).
 */

// biome-ignore lint/suspicious/noExplicitAny: migrations describe history, not today's types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('repositories').addColumn('decision_status', 'varchar(10)').execute();
  await db.schema.alterTable('repositories').addColumn('decision_quadrant', 'varchar(40)').execute();
  await sql`update repositories set
    decision_status = (select c.status from repository_decision_current c where c.repository_id = repositories.id),
    decision_quadrant = (select c.quadrant from repository_decision_current c where c.repository_id = repositories.id)
    where id in (select repository_id from repository_decision_current)`.execute(db);
  await sql`create index repositories_decision_status_idx on repositories (decision_status, id)`.execute(db);

  await withIdColumn(db, db.schema.createTable('decision_proposal_comments'))
    .addColumn('proposal_id', 'integer', (col) =>
      col.notNull().references('decision_proposals.id').onDelete('cascade'),
    )
    // Kept with the proposal's rows in the trash.
    .addColumn('repository_id', 'integer', (col) =>
      col.notNull().references('repositories.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'integer', (col) => col.references('users.id').onDelete('set null'))
    // The username when written, kept when the account is deleted.
    .addColumn('username', 'text', (col) => col.notNull())
    .addColumn('body', 'text', (col) => col.notNull())
    .addColumn('created_at', 'varchar(40)', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('decision_proposal_comments_proposal')
    .on('decision_proposal_comments')
    .columns(['proposal_id', 'id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('decision_proposal_comments').execute();
  await sql`drop index repositories_decision_status_idx`.execute(db);
  await db.schema.alterTable('repositories').dropColumn('decision_quadrant').execute();
  await db.schema.alterTable('repositories').dropColumn('decision_status').execute();
}
