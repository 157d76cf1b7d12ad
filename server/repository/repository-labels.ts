import { type Kysely, sql } from 'kysely';
import { inTransaction } from '../db/database.ts';
import { isPostgres } from '../db/migration-helpers.ts';
import type { Database } from '../db/schema.ts';

/**
 * The catalogue's derived tables (docs/product.md#catalogue-queries): a repository's tags and
 * topics as rows keyed by their lower-cased spelling, and its lower-cased search document
 * (name, description, full id, tags, licence). They are written here only: in step with every
 * write of a repository (repository.queries.ts calls `writeDerivedRows` and `deleteDerivedRows`),
 * and all at once by `rebuildDerivedTables` after a restore or a bulk load. Backups leave them
 * out (`isDerivedTable`).
 */

type Db = Kysely<Database>;

/**
 * The derived tables. `repository_sync_state` (the sync engine's schedule) is rebuilt the same
 * way: after a restore every repository is due, the least recently synced first.
 */
export const DERIVED_TABLES = [
  'repository_tags',
  'repository_topics',
  'repository_search',
  'repository_sync_state',
  'repository_totals',
] as const;

/** The derived tables, and SQLite's FTS5 shadow tables behind `repository_search`. */
export function isDerivedTable(name: string): boolean {
  return (DERIVED_TABLES as readonly string[]).includes(name) || name.startsWith('repository_search_');
}

/** The columns of `repositories` the derived rows are computed from. */
export interface DerivedSource {
  id: number;
  name: string;
  full_name: string;
  description: string | null;
  license: string;
  tags: string;
  topics: string;
}

const SEARCH_COLUMNS: readonly string[] = ['name', 'full_name', 'description', 'tags', 'license'];
const SOURCE_COLUMNS: readonly string[] = [...SEARCH_COLUMNS, 'topics'];

/** Whether an update of these columns changes a derived row. */
export function changesDerivedRows(columns: readonly string[]): boolean {
  return columns.some((column) => SOURCE_COLUMNS.includes(column));
}

/** How a tag, topic or search text is compared: trimmed and lower-cased (full Unicode, as the web does). */
export function labelKey(value: string): string {
  return value.trim().toLowerCase();
}

/** Trimmed, non-empty entries of a comma list, one per lower-cased spelling (the first one met). */
export function labelEntries(list: string): { value: string; lower: string }[] {
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

/**
 * What `q` searches, lower-cased. Fields are joined by a newline, which a search can't contain
 * (control characters are refused), so a match never spans two fields.
 */
export function searchDocument(row: DerivedSource): string {
  return [row.name, row.description ?? '', row.full_name, row.tags, row.license].join('\n').toLowerCase();
}

/**
 * Brings one repository's derived rows in step with it. `changed` names the columns a write
 * touched (an update); without it every derived row is rewritten (an insert).
 */
export async function writeDerivedRows(
  db: Db,
  row: DerivedSource,
  changed?: readonly string[],
): Promise<void> {
  const touched = (columns: readonly string[]) =>
    !changed || changed.some((column) => columns.includes(column));
  if (touched(['tags'])) {
    await db.deleteFrom('repository_tags').where('repository_id', '=', row.id).execute();
    await insertTags(db, [row]);
  }
  if (touched(['topics'])) {
    await db.deleteFrom('repository_topics').where('repository_id', '=', row.id).execute();
    await insertTopics(db, [row]);
  }
  if (touched(SEARCH_COLUMNS)) {
    await deleteSearchDocument(db, row.id);
    await insertSearchDocuments(db, [row]);
  }
}

/** Before a repository is deleted. PostgreSQL's foreign keys would cascade; SQLite's FTS5 table has none. */
export async function deleteDerivedRows(db: Db, repositoryId: number): Promise<void> {
  await db.deleteFrom('repository_tags').where('repository_id', '=', repositoryId).execute();
  await db.deleteFrom('repository_topics').where('repository_id', '=', repositoryId).execute();
  await deleteSearchDocument(db, repositoryId);
}

const REBUILD_BATCH = 1000;

/**
 * Recomputes every derived row from `repositories`, in one transaction (the caller's when it
 * has one): after a restore, and for anything that writes repositories in bulk without the
 * service (a benchmark seeder). The one path that fills these tables wholesale.
 */
export async function rebuildDerivedTables(db: Db, at: Date): Promise<{ repositories: number }> {
  return inTransaction(db, async (trx) => {
    await trx.deleteFrom('repository_tags').execute();
    await trx.deleteFrom('repository_topics').execute();
    await sql`delete from repository_search`.execute(trx);
    await trx.deleteFrom('repository_sync_state').execute();
    // Kept by triggers as rows come and go; counted again here like every derived row.
    await trx.deleteFrom('repository_totals').execute();
    await sql`insert into repository_totals (private, total)
      select 0, (select count(*) from repositories where private = 0)
      union all select 1, (select count(*) from repositories where private = 1)`.execute(trx);
    // Kept by triggers as comments and versions come and go: a restore wrote rows that already
    // had their counts, then their comments and versions, so counted again here.
    await sql`update repositories set
      comment_count = (select count(*) from comments c where c.repository_id = repositories.id),
      version_count = (select count(*) from versions v where v.repository_id = repositories.id)`.execute(trx);
    // The current decision's copy on the row (migration 2026-11-29-0300): a backup made before
    // that migration restores rows without it.
    await sql`update repositories set
      decision_status = (select c.status from repository_decision_current c where c.repository_id = repositories.id),
      decision_quadrant = (select c.quadrant from repository_decision_current c where c.repository_id = repositories.id)`.execute(
      trx,
    );
    const now = at.toISOString();
    let lastId = 0;
    let count = 0;
    for (;;) {
      const rows = await trx
        .selectFrom('repositories')
        .select(['id', 'name', 'full_name', 'description', 'license', 'tags', 'topics', 'last_synced'])
        .where('id', '>', lastId)
        .orderBy('id')
        .limit(REBUILD_BATCH)
        .execute();
      if (rows.length === 0) break;
      await insertTags(trx, rows);
      await insertTopics(trx, rows);
      await insertSearchDocuments(trx, rows);
      for (const chunk of inChunks(rows)) {
        await trx
          .insertInto('repository_sync_state')
          .values(
            chunk.map((row) => ({
              repository_id: row.id,
              due_at: minIso(row.last_synced, now),
              failures: 0,
            })),
          )
          .execute();
      }
      count += rows.length;
      lastId = rows[rows.length - 1]?.id ?? lastId;
    }
    // A bulk load leaves FTS5 with many small segments; merging them keeps searches fast. On
    // PostgreSQL the planner needs statistics of what was just loaded, or it picks scans meant
    // for empty tables until autovacuum comes by.
    if (!isPostgres(trx)) {
      await sql`insert into repository_search (repository_search) values ('optimize')`.execute(trx);
    } else {
      await sql`analyze repositories, repository_tags, repository_topics, repository_search, repository_access`.execute(
        trx,
      );
    }
    return { repositories: count };
  });
}

/** The earlier of two ISO timestamps (a missing one counts as the other). */
function minIso(value: string | null, other: string): string {
  return value !== null && value < other ? value : other;
}

/** Rows per multi-row INSERT: well within both databases' bound-parameter limits. */
const ROWS_PER_INSERT = 500;

/** `values` in slices of ROWS_PER_INSERT, one multi-row INSERT each. */
function* inChunks<T>(values: readonly T[]): Generator<T[]> {
  for (let start = 0; start < values.length; start += ROWS_PER_INSERT) {
    yield values.slice(start, start + ROWS_PER_INSERT);
  }
}

async function insertTags(db: Db, rows: readonly DerivedSource[]) {
  const values = rows.flatMap((row) =>
    labelEntries(row.tags).map(({ value, lower }) => ({
      repository_id: row.id,
      tag: value,
      tag_lower: lower,
    })),
  );
  for (const chunk of inChunks(values)) await db.insertInto('repository_tags').values(chunk).execute();
}

async function insertTopics(db: Db, rows: readonly DerivedSource[]) {
  const values = rows.flatMap((row) =>
    labelEntries(row.topics).map(({ value, lower }) => ({
      repository_id: row.id,
      topic: value,
      topic_lower: lower,
    })),
  );
  for (const chunk of inChunks(values)) await db.insertInto('repository_topics').values(chunk).execute();
}

/**
 * The search documents; on PostgreSQL each beside the repository's tag keys (`tag_keys`, the
 * `tag_lower` values of its `repository_tags` rows), which the tag filter probes through a GIN
 * index (migration 2026-11-28-0100).
 */
async function insertSearchDocuments(db: Db, rows: readonly DerivedSource[]) {
  for (const chunk of inChunks(rows)) {
    if (isPostgres(db)) {
      const values = sql.join(
        chunk.map(
          (row) =>
            sql`(${row.id}, ${searchDocument(row)}, ${labelEntries(row.tags).map((entry) => entry.lower)})`,
        ),
      );
      await sql`insert into repository_search (repository_id, document, tag_keys) values ${values}`.execute(
        db,
      );
    } else {
      const values = sql.join(chunk.map((row) => sql`(${row.id}, ${searchDocument(row)})`));
      await sql`insert into repository_search (rowid, document) values ${values}`.execute(db);
    }
  }
}

async function deleteSearchDocument(db: Db, repositoryId: number) {
  if (isPostgres(db)) {
    await db.deleteFrom('repository_search').where('repository_id', '=', repositoryId).execute();
  } else {
    await sql`delete from repository_search where rowid = ${repositoryId}`.execute(db);
  }
}
