import { type Kysely, sql } from 'kysely';

/**
 * The ten recent commits a sync stores for each repository move out of `repositories` into a
 * table of their own (docs/decisions.md, "Stored commits in their own table"). They are about
 * 1.7 KB a row that no list, page of the catalogue or export reads, and they made the 100,000-row
 * table 390 MB instead of 167: every list read in list order touched more than twice the pages.
 * Only the detail screen, the commits call and the sync engine read them.
 *
 * Backups made before this migration still restore: into an empty database they are restored at
 * their own version and this migration moves their commits; into a database already past it, the
 * restore moves the `recent_commits` column's values here (modules/backups/legacy-columns.ts).
 */

// biome-ignore lint/suspicious/noExplicitAny: migrations describe history, not today's types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('repository_commits')
    .addColumn('repository_id', 'integer', (col) =>
      col.primaryKey().references('repositories.id').onDelete('cascade'),
    )
    .addColumn('commits', 'text', (col) => col.notNull())
    .execute();
  await sql`insert into repository_commits (repository_id, commits)
    select id, recent_commits from repositories where recent_commits <> '[]'`.execute(db);
  await db.schema.alterTable('repositories').dropColumn('recent_commits').execute();
}
