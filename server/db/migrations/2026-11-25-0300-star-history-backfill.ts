import { type ColumnDefinitionBuilder, type Kysely, sql } from 'kysely';
import { isPostgres } from '../migration-helpers.ts';

/** The metrics GitHub's star history doesn't give: null in the rows rebuilt from it. */
const OTHER_METRICS = ['forks', 'issues', 'commits', 'contributors'] as const;

// Migrations are written against Kysely<any> on purpose: they describe history, not today's types.
// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  // Star history backfilled from GitHub (docs/product.md, "Star history") fills
  // `repository_metrics` with stars only: the other metrics become nullable. The app's own
  // daily rows keep every column, so a row with `forks` null is a backfilled one.
  if (isPostgres(db)) {
    for (const column of OTHER_METRICS)
      await db.schema
        .alterTable('repository_metrics')
        .alterColumn(column, (col) => col.dropNotNull())
        .execute();
  } else {
    await rebuildSqliteMetrics(db, false);
  }

  // Per repository: whether its star history was backfilled, and the engine's schedule for it.
  // No row: never backfilled (the engine takes it when it has nothing more urgent). Data, not
  // derived: backed up, so a restore doesn't ask GitHub for every history again.
  await db.schema
    .createTable('repository_history')
    .addColumn('repository_id', 'integer', (col) =>
      col.primaryKey().references('repositories.id').onDelete('cascade'),
    )
    // pending | done | unavailable | failed
    .addColumn('status', 'varchar(20)', (col) => col.notNull())
    // When the engine may try (next): null once there is nothing to do.
    .addColumn('due_at', 'varchar(40)')
    .addColumn('leased_until', 'varchar(40)')
    .addColumn('lease_owner', 'varchar(200)')
    // The member who pressed "Backfill history" last: their token may be used (else the adder's).
    .addColumn('requested_by', 'integer', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('requested_at', 'varchar(40)')
    .addColumn('backfilled_at', 'varchar(40)')
    .addColumn('failures', 'integer', (col) => col.notNull().defaultTo(0))
    // What the member reads beside the status: why it failed, or what it waits for.
    .addColumn('message', 'varchar(1000)')
    .addColumn('updated_at', 'varchar(40)', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('repository_history_due')
    .on('repository_history')
    .columns(['due_at', 'repository_id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('repository_history').execute();
  // Backfilled rows can't satisfy NOT NULL: they go.
  await db.deleteFrom('repository_metrics').where('forks', 'is', null).execute();
  if (isPostgres(db)) {
    for (const column of OTHER_METRICS)
      await db.schema
        .alterTable('repository_metrics')
        .alterColumn(column, (col) => col.setNotNull())
        .execute();
  } else {
    await rebuildSqliteMetrics(db, true);
  }
}

/**
 * SQLite can't drop NOT NULL in place: `repository_metrics` is rebuilt — a new table with the
 * same columns, primary key and foreign key, every row copied, the old one dropped, the new one
 * renamed — in one transaction. Safe here: no other table references `repository_metrics`, it
 * has no index but its primary key and no trigger, so nothing else needs recreating.
 */
// biome-ignore lint/suspicious/noExplicitAny: see above
async function rebuildSqliteMetrics(db: Kysely<any>, notNull: boolean): Promise<void> {
  const metric = (col: ColumnDefinitionBuilder) => (notNull ? col.notNull() : col);
  await db.transaction().execute(async (trx) => {
    await trx.schema
      .createTable('repository_metrics_rebuilt')
      .addColumn('repository_id', 'integer', (col) =>
        col.notNull().references('repositories.id').onDelete('cascade'),
      )
      .addColumn('day', 'varchar(10)', (col) => col.notNull())
      .addColumn('stars', 'integer', (col) => col.notNull())
      .addColumn('forks', 'integer', metric)
      .addColumn('issues', 'integer', metric)
      .addColumn('commits', 'integer', metric)
      .addColumn('contributors', 'integer', metric)
      .addPrimaryKeyConstraint('repository_metrics_pk', ['repository_id', 'day'])
      .execute();
    await sql`insert into repository_metrics_rebuilt (repository_id, day, stars, forks, issues, commits, contributors)
      select repository_id, day, stars, forks, issues, commits, contributors from repository_metrics`.execute(
      trx,
    );
    await trx.schema.dropTable('repository_metrics').execute();
    await trx.schema.alterTable('repository_metrics_rebuilt').renameTo('repository_metrics').execute();
  });
}
