import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../migration-helpers.ts';

/**
 * Growth in the list (docs/product.md#catalogue-queries): the stars a repository gained in the
 * last 7 and 30 days, kept on its row so the list sorts and filters by them through an index
 * (`repositories_sort_growth_7d_idx` on `stars_7d, id`, and the 30-day one, as the other sorts). Null while no stored day is old
 * enough. The history module recomputes them whenever a day's metrics are written or the star
 * history is backfilled (server/modules/history/growth.queries.ts); this migration fills them
 * for the rows already there with a copy of that SQL, so it keeps describing history when the
 * application's code moves on.
 */

/** Column, days, and the sort that uses its index (`repositories_sort_<sort>_idx`). */
const GROWTH_COLUMNS = [
  ['stars_7d', 7, 'growth_7d'],
  ['stars_30d', 30, 'growth_30d'],
] as const;

// biome-ignore lint/suspicious/noExplicitAny: migrations describe history, not today's types
export async function up(db: Kysely<any>): Promise<void> {
  for (const [column] of GROWTH_COLUMNS) {
    await db.schema.alterTable('repositories').addColumn(column, 'integer').execute();
  }
  const postgres = isPostgres(db);
  await sql
    .raw(
      `update repositories set ${GROWTH_COLUMNS.map(
        ([column, days]) => `${column} = ${growthSql(postgres, days)}`,
      ).join(', ')}`,
    )
    .execute(db);
  for (const [column, , sort] of GROWTH_COLUMNS) {
    await sql.raw(`create index repositories_sort_${sort}_idx on repositories (${column}, id)`).execute(db);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function down(db: Kysely<any>): Promise<void> {
  for (const [column, , sort] of GROWTH_COLUMNS) {
    await db.schema.dropIndex(`repositories_sort_${sort}_idx`).execute();
    await db.schema.alterTable('repositories').dropColumn(column).execute();
  }
}

/**
 * Stars on the repository's latest stored day minus stars on its latest stored day at or
 * before `days` days earlier; null when there is none that old.
 */
function growthSql(postgres: boolean, days: number): string {
  const before = postgres
    ? `to_char(cast(latest.day as date) - ${days}, 'YYYY-MM-DD')`
    : `date(latest.day, '-${days} days')`;
  return `(select latest.stars - earlier.stars
    from repository_metrics latest
    join repository_metrics earlier on earlier.repository_id = latest.repository_id
    where latest.repository_id = repositories.id
      and latest.day = (select max(m.day) from repository_metrics m where m.repository_id = repositories.id)
      and earlier.day = (select max(m.day) from repository_metrics m
        where m.repository_id = repositories.id and m.day <= ${before}))`;
}
