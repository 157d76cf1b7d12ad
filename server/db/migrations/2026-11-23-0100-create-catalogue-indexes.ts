import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../migration-helpers.ts';

/**
 * The catalogue queried by the database (docs/product.md#catalogue-queries):
 *
 * - `repository_tags` and `repository_topics`: one row per tag or topic of a repository, with
 *   the lower-cased spelling as key, so tag and topic filters and counts are indexed joins.
 * - `repository_search`: one lower-cased search document per repository (name, description,
 *   full id, tags, licence), indexed for substring search: an FTS5 table with the trigram
 *   tokenizer on SQLite (rowid = repository id), a pg_trgm GIN index on PostgreSQL.
 * - one index per sort column, with id as the tie-breaker.
 * - PostgreSQL: the sorted text columns compare in "C" (code point) order, as SQLite's BINARY
 *   does, so both databases sort and lower-case (ASCII only) alike whatever the cluster's locale.
 *
 * The three tables are derived: left out of backups and rebuilt from `repositories` after a
 * restore. This migration fills them from the rows already there, with its own copy of the
 * derivation, so that it keeps describing history when the application's code moves on.
 */

/** Expression indexes; the catalogue query uses these exact expressions. */
const SORT_INDEXES: readonly [string, string][] = [
  ['repositories_sort_name_idx', 'lower(name), id'],
  ['repositories_sort_description_idx', "nullif(substr(lower(trim(description)), 1, 200), ''), id"],
  ['repositories_sort_license_idx', "nullif(lower(trim(license)), ''), id"],
  ['repositories_sort_stars_idx', 'stars, id'],
  ['repositories_sort_forks_idx', 'forks, id'],
  ['repositories_sort_issues_idx', 'issues, id'],
  ['repositories_sort_commits_idx', 'commits, id'],
  ['repositories_sort_last_commit_idx', 'last_commit, id'],
  ['repositories_sort_last_synced_idx', 'last_synced, id'],
  ['repositories_sort_created_at_idx', 'created_at, id'],
  ['repositories_sort_updated_at_idx', 'updated_at, id'],
  ['repositories_language_idx', 'lower(language), id'],
  // Small enough to scan instead of the table when counting what a member may see.
  ['repositories_private_idx', 'private, id'],
  // Every column the statistics cards sum: they scan this instead of the wide rows.
  ['repositories_stats_idx', 'private, license, stars, forks, issues, commits, contributors, last_commit'],
];

/** PostgreSQL columns moved to "C" collation, with their types. */
const C_COLLATED: readonly [string, string][] = [
  ['name', 'varchar(100)'],
  ['description', 'text'],
  ['license', 'varchar(100)'],
  ['language', 'varchar(100)'],
  ['last_commit', 'varchar(40)'],
  ['last_synced', 'varchar(40)'],
  ['created_at', 'varchar(40)'],
  ['updated_at', 'varchar(40)'],
];

const LABEL_TABLES = [
  { table: 'repository_tags', source: 'tags', column: 'tag' },
  { table: 'repository_topics', source: 'topics', column: 'topic' },
] as const;

// biome-ignore lint/suspicious/noExplicitAny: migrations describe history, not today's types
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  const text = postgres ? sql`text collate "C"` : sql`text`;

  if (postgres) {
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql
      .raw(
        `alter table repositories ${C_COLLATED.map(
          ([column, type]) => `alter column ${column} type ${type} collate "C"`,
        ).join(', ')}`,
      )
      .execute(db);
  }

  for (const { table, column } of LABEL_TABLES) {
    await db.schema
      .createTable(table)
      .addColumn('repository_id', 'integer', (col) =>
        col.notNull().references('repositories.id').onDelete('cascade'),
      )
      .addColumn(column, text, (col) => col.notNull())
      .addColumn(`${column}_lower`, text, (col) => col.notNull())
      .addPrimaryKeyConstraint(`${table}_pk`, ['repository_id', `${column}_lower`])
      .execute();
    // Covering: filters read the ids, counts read the spelling, neither touches the table.
    await db.schema
      .createIndex(`${table}_${column}_idx`)
      .on(table)
      .columns([`${column}_lower`, column, 'repository_id'])
      .execute();
  }

  if (postgres) {
    await db.schema
      .createTable('repository_search')
      .addColumn('repository_id', 'integer', (col) =>
        col.primaryKey().references('repositories.id').onDelete('cascade'),
      )
      .addColumn('document', text, (col) => col.notNull())
      .execute();
    await sql`create index repository_search_document_trgm_idx on repository_search using gin (document gin_trgm_ops)`.execute(
      db,
    );
  } else {
    // The document is lower-cased before it is stored, so the index can stay case-sensitive.
    await sql`create virtual table repository_search using fts5(document, tokenize = 'trigram case_sensitive 1')`.execute(
      db,
    );
  }

  for (const [name, expression] of SORT_INDEXES) {
    await sql.raw(`create index ${name} on repositories (${expression})`).execute(db);
  }

  await backfill(db, postgres);
}

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function down(db: Kysely<any>): Promise<void> {
  for (const [name] of SORT_INDEXES) await db.schema.dropIndex(name).execute();
  await db.schema.dropTable('repository_search').execute();
  for (const { table } of LABEL_TABLES) await db.schema.dropTable(table).execute();
  if (isPostgres(db)) {
    await sql
      .raw(
        `alter table repositories ${C_COLLATED.map(
          ([column, type]) => `alter column ${column} type ${type} collate "default"`,
        ).join(', ')}`,
      )
      .execute(db);
  }
}

interface SourceRow {
  id: number;
  name: string;
  full_name: string;
  description: string | null;
  license: string;
  tags: string;
  topics: string;
}

/** Trimmed, non-empty entries, one per lower-cased spelling (the first one met). */
function entries(list: string): { value: string; lower: string }[] {
  const seen = new Set<string>();
  const result: { value: string; lower: string }[] = [];
  for (const raw of list.split(',')) {
    const value = raw.trim();
    const lower = value.toLowerCase();
    if (!value || seen.has(lower)) continue;
    seen.add(lower);
    result.push({ value, lower });
  }
  return result;
}

// biome-ignore lint/suspicious/noExplicitAny: see above
async function backfill(db: Kysely<any>, postgres: boolean): Promise<void> {
  let lastId = 0;
  for (;;) {
    const rows: SourceRow[] = await db
      .selectFrom('repositories')
      .select(['id', 'name', 'full_name', 'description', 'license', 'tags', 'topics'])
      .where('id', '>', lastId)
      .orderBy('id')
      .limit(500)
      .execute();
    if (rows.length === 0) return;
    lastId = rows[rows.length - 1]?.id ?? lastId;
    for (const { table, source, column } of LABEL_TABLES) {
      const values = rows.flatMap((row) =>
        entries(row[source]).map((entry) => ({
          repository_id: row.id,
          [column]: entry.value,
          [`${column}_lower`]: entry.lower,
        })),
      );
      for (let start = 0; start < values.length; start += 500) {
        await db
          .insertInto(table)
          .values(values.slice(start, start + 500))
          .execute();
      }
    }
    const documents = rows.map((row) => ({
      id: row.id,
      document: [row.name, row.description ?? '', row.full_name, row.tags, row.license]
        .join('\n')
        .toLowerCase(),
    }));
    if (postgres) {
      await db
        .insertInto('repository_search')
        .values(documents.map(({ id, document }) => ({ repository_id: id, document })))
        .execute();
    } else {
      const values = sql.join(documents.map(({ id, document }) => sql`(${id}, ${document})`));
      await sql`insert into repository_search (rowid, document) values ${values}`.execute(db);
    }
  }
}
