import type { Kysely } from 'kysely';

/**
 * The health score kept daily with the metrics (docs/health.md): the History chart's Health
 * series. Written on the day's row when a repository's health is assessed; null on days before,
 * and on star-history rows.
 */

// biome-ignore lint/suspicious/noExplicitAny: migrations describe history, not today's types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('repository_metrics').addColumn('health_score', 'integer').execute();
}
