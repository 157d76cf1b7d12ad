import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

type Db = Kysely<Database>;

/** What the badges read from a repository's row: the kept counts, no joins. */
const badgeColumns = [
  'repositories.id',
  'repositories.stars',
  'repositories.stars_30d',
  'repositories.health_score',
  'repositories.health_grade',
  'repositories.advisories_critical',
  'repositories.advisories_high',
  'repositories.advisories_medium',
  'repositories.advisories_low',
  'repositories.advisories_unknown',
] as const;

export type BadgeRow = NonNullable<Awaited<ReturnType<typeof findPublicBadgeRow>>>;

/**
 * The public repository by current or former name (any case), or undefined. One statement
 * whatever the answer: the current name and the aliases are both looked up, each limited to
 * `private = 0` in the database, so a private repository and a missing one take the same path
 * and neither is ever read into the process (docs/security.md#badges). A deleted repository's
 * row is gone from `repositories` (its rows wait in the trash), so it is missing here too.
 */
export async function findPublicBadgeRow(db: Db, fullName: string) {
  const lower = fullName.toLowerCase();
  const rows = await db
    .selectFrom('repositories')
    .select([...badgeColumns, sql<number>`0`.as('via_alias')])
    .where(sql`lower(full_name)`, '=', lower)
    .where('repositories.private', '=', 0)
    .unionAll(
      db
        .selectFrom('repository_aliases')
        .innerJoin('repositories', 'repositories.id', 'repository_aliases.repository_id')
        .select([...badgeColumns, sql<number>`1`.as('via_alias')])
        .where('repository_aliases.full_name_lower', '=', lower)
        .where('repositories.private', '=', 0),
    )
    .execute();
  // The current name wins over another repository's former one.
  return rows.find((row) => Number(row.via_alias) === 0) ?? rows[0];
}

/**
 * The latest tracked version's number: the newest release date (a version without one counts
 * on the day it was recorded), the last recorded among equals; undefined when none is tracked.
 */
export async function findLatestVersionNumber(db: Db, repositoryId: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('versions')
    .select('version_number')
    .where('repository_id', '=', repositoryId)
    .orderBy(sql`coalesce(release_date, substr(created_at, 1, 10))`, 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.version_number;
}

/**
 * The repository's ring in the newest published radar edition that holds it as a public entry
 * (docs/product.md#badges): the team's ring becomes public only when an edition is published,
 * and only while its publisher's account is active.
 */
export async function findPublishedRing(db: Db, repositoryId: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('radar_edition_entries')
    .innerJoin('public_pages', 'public_pages.edition_id', 'radar_edition_entries.edition_id')
    .innerJoin('users', 'users.id', 'public_pages.published_by')
    .select('radar_edition_entries.status')
    .where('radar_edition_entries.repository_id', '=', repositoryId)
    .where('radar_edition_entries.private', '=', 0)
    .where('users.is_active', '=', 1)
    .orderBy('radar_edition_entries.edition_id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.status;
}
