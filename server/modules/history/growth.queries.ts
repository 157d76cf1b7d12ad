import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../../db/migration-helpers.ts';
import type { Database } from '../../db/schema.ts';

/**
 * Growth in the list (docs/product.md#catalogue-queries): `stars_7d` and `stars_30d` on the
 * repository's row, kept there so the list sorts and filters by them through an index. Each is
 * the stars of the repository's latest stored day minus those of its latest stored day at or
 * before 7 (30) days earlier — a daily row or a backfilled one — and null when no stored day is
 * that old. The 2026-11-26-0100 migration filled existing rows with a copy of this SQL.
 */

type Db = Kysely<Database>;

const GROWTH_COLUMNS = [
  ['stars_7d', 7],
  ['stars_30d', 30],
] as const;

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

/**
 * Recomputes the growth of one repository from its stored rows. Run in the transaction that
 * wrote them (the day's metrics, or a backfill's rewrite).
 */
export async function recomputeGrowth(db: Db, repositoryId: number): Promise<void> {
  const postgres = isPostgres(db);
  const set = GROWTH_COLUMNS.map(([column, days]) => `${column} = ${growthSql(postgres, days)}`).join(', ');
  await sql`update repositories set ${sql.raw(set)} where id = ${repositoryId}`.execute(db);
}
