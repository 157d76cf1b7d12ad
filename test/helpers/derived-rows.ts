import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../../server/db/migration-helpers.ts';
import type { Database } from '../../server/db/schema.ts';
import { labelEntries, searchDocument } from '../../server/repository/repository-labels.ts';

/** The derived tables' contents in a fixed order, as plain values. */
export interface DerivedRows {
  tags: { repository_id: number; tag: string; tag_lower: string }[];
  topics: { repository_id: number; topic: string; topic_lower: string }[];
  documents: { repository_id: number; document: string }[];
  /** `repository_totals`: public (0) and private (1) rows, as the triggers keep them. */
  totals: { private: number; total: number }[];
}

const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function sorted(rows: DerivedRows): DerivedRows {
  return {
    tags: [...rows.tags].sort(
      (a, b) => a.repository_id - b.repository_id || byCodeUnits(a.tag_lower, b.tag_lower),
    ),
    topics: [...rows.topics].sort(
      (a, b) => a.repository_id - b.repository_id || byCodeUnits(a.topic_lower, b.topic_lower),
    ),
    documents: [...rows.documents].sort((a, b) => a.repository_id - b.repository_id),
    totals: rows.totals
      .map((row) => ({ private: Number(row.private), total: Number(row.total) }))
      .sort((a, b) => a.private - b.private),
  };
}

/** What the derived tables hold (SQLite's search table keyed by rowid). */
export async function readDerivedRows(db: Kysely<Database>): Promise<DerivedRows> {
  const tags = await db.selectFrom('repository_tags').select(['repository_id', 'tag', 'tag_lower']).execute();
  const topics = await db
    .selectFrom('repository_topics')
    .select(['repository_id', 'topic', 'topic_lower'])
    .execute();
  const documents = isPostgres(db)
    ? (
        await sql<{
          id: number;
          document: string;
        }>`select repository_id as id, document from repository_search`.execute(db)
      ).rows
    : (
        await sql<{
          id: number;
          document: string;
        }>`select rowid as id, document from repository_search`.execute(db)
      ).rows;
  const totals = await db.selectFrom('repository_totals').select(['private', 'total']).execute();
  return sorted({
    tags,
    topics,
    documents: documents.map((row) => ({ repository_id: Number(row.id), document: row.document })),
    totals,
  });
}

/** What the derived tables must hold, computed from the repositories' own columns. */
export async function expectedDerivedRows(db: Kysely<Database>): Promise<DerivedRows> {
  const repositories = await db
    .selectFrom('repositories')
    .select(['id', 'name', 'full_name', 'description', 'license', 'tags', 'topics', 'private'])
    .execute();
  return sorted({
    tags: repositories.flatMap((row) =>
      labelEntries(row.tags).map((entry) => ({
        repository_id: row.id,
        tag: entry.value,
        tag_lower: entry.lower,
      })),
    ),
    topics: repositories.flatMap((row) =>
      labelEntries(row.topics).map((entry) => ({
        repository_id: row.id,
        topic: entry.value,
        topic_lower: entry.lower,
      })),
    ),
    documents: repositories.map((row) => ({ repository_id: row.id, document: searchDocument(row) })),
    totals: [0, 1].map((value) => ({
      private: value,
      total: repositories.filter((row) => row.private === value).length,
    })),
  });
}
