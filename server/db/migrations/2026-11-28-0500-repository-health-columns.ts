import { type Kysely, sql } from 'kysely';

/**
 * Health in the list (docs/health.md, docs/product.md#repository-health): each repository's
 * score and grade kept on its row, written with its health, so the list sorts by health through
 * an index (`repositories_sort_health_idx` on `health_score, id`, as the other sorts) and filters
 * by grade without a join. Null until first assessed.
 */

// biome-ignore lint/suspicious/noExplicitAny: migrations describe history, not today's types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('repositories').addColumn('health_score', 'integer').execute();
  await db.schema.alterTable('repositories').addColumn('health_grade', 'text').execute();
  await sql`update repositories set
    health_score = (select h.score from repository_health h where h.repository_id = repositories.id),
    health_grade = (select h.grade from repository_health h where h.repository_id = repositories.id)`.execute(
    db,
  );
  await sql`create index repositories_sort_health_idx on repositories (health_score, id)`.execute(db);
  await sql`create index repositories_health_grade_idx on repositories (health_grade, id)`.execute(db);
}
