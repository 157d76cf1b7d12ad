import type { Kysely } from 'kysely';

/**
 * A repository's health (docs/health.md, docs/architecture.md#repository-health): the inputs
 * its signals were measured from (raw values and their dates, so a new formula version scores
 * every repository again without asking GitHub), the signals and score of the formula that
 * computed them, when GitHub's health query is next due, and the team's "finished" override.
 */

// biome-ignore lint/suspicious/noExplicitAny: migrations describe history, not today's types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('repository_health')
    .addColumn('repository_id', 'integer', (col) =>
      col.primaryKey().references('repositories.id').onDelete('cascade'),
    )
    .addColumn('score', 'integer')
    .addColumn('grade', 'text', (col) => col.notNull())
    .addColumn('formula_version', 'integer', (col) => col.notNull())
    .addColumn('inputs', 'text', (col) => col.notNull())
    .addColumn('signals', 'text', (col) => col.notNull())
    .addColumn('computed_at', 'text', (col) => col.notNull())
    .addColumn('github_read_at', 'text')
    .addColumn('due_at', 'text', (col) => col.notNull())
    .addColumn('failures', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('override_reason', 'text')
    .addColumn('override_by', 'integer', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('override_at', 'text')
    .execute();
  await db.schema.createIndex('repository_health_due_idx').on('repository_health').column('due_at').execute();
}
