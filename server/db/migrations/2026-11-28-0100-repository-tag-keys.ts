import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../migration-helpers.ts';

/**
 * The tag filter as one index probe on PostgreSQL (docs/decisions.md, "Tag filter on
 * PostgreSQL"): each repository's lower-cased tag keys as an array beside its search document
 * (`repository_search.tag_keys`, a derived row like the document), with a GIN index, so
 * `tag_keys @> '{frontend,web}'` intersects the tags' posting lists inside the index and the
 * planner estimates the match from the array's element statistics. Before, every tag was an
 * INTERSECT of `repository_tags` rows (all rows of each tag hashed) whose size the planner
 * guessed three times too high, and the page joined it against a scan of every repository.
 *
 * SQLite keeps its intersect (its search index is an FTS5 table). This migration fills the
 * keys from `repository_tags` (the same lower-cased keys), so it keeps describing history
 * when the application's code moves on.
 */

// biome-ignore lint/suspicious/noExplicitAny: migrations describe history, not today's types
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`alter table repository_search add column tag_keys text[] not null default '{}'`.execute(db);
  await sql`update repository_search s set tag_keys = keys.tag_keys
    from (select repository_id, array_agg(tag_lower order by tag_lower) as tag_keys
          from repository_tags group by repository_id) keys
    where keys.repository_id = s.repository_id`.execute(db);
  await sql`create index repository_search_tag_keys_idx on repository_search using gin (tag_keys)`.execute(
    db,
  );
}

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`drop index repository_search_tag_keys_idx`.execute(db);
  await sql`alter table repository_search drop column tag_keys`.execute(db);
}
