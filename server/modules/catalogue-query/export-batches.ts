import type { Kysely } from 'kysely';
import type { CatalogueExportQuery } from '#shared/schemas/catalogue.ts';
import type { CopyOut, Dialect } from '../../db/database.ts';
import type { Database, RepositoryExportRow } from '../../db/schema.ts';
import type { Viewer } from '../../repository/access-policy.ts';
import { type NormalizedFilters, normalizeFilters } from './catalogue-filters.ts';
import {
  countMatching,
  fetchPage,
  type IdSetUse,
  idSetUseFor,
  type Position,
  resolveSort,
  type SortChoice,
} from './catalogue-query.queries.ts';
import { copyRecordsStatement } from './copy-export.ts';
import type { CopiedRecords, ExportBatch } from './csv-export.ts';
import type { RowColumns } from './repository-list.queries.ts';

/**
 * Rows per database read (docs/decisions.md, "CSV export"). SQLite reads rows on this thread,
 * when the writer wants them: reading ahead only keeps two batches alive, and a batch of 500
 * rows dies young — 2,000 rows held across collections grew a fresh server's RSS by up to
 * 88 MiB on its first export of 100,000 rows, 500 by at most 45 (10% slower). PostgreSQL reads
 * in its own processes and hands over bytes, so it reads ahead, and a larger page is fewer
 * round trips (5,000 against 2,000: about 8% faster).
 */
const EXPORT_BATCH_SIZE: Record<Dialect, number> = { sqlite: 500, postgres: 5000 };

export interface ExportReads {
  db: Kysely<Database>;
  dialect: Dialect;
  /** PostgreSQL: `DatabaseHandle.copyOut`, which reads a page's records. */
  copyOut?: CopyOut;
  /** Rows per database read instead of the dialect's (tests: a small one). */
  batchSize?: number;
}

/** One export's query, resolved once: what every page read repeats. */
interface ExportQuery {
  db: Kysely<Database>;
  viewer: Viewer;
  filters: NormalizedFilters;
  sort: SortChoice;
  use: IdSetUse;
  batchSize: number;
}

/**
 * Every matching repository in list order, a batch per database read: rows as lists read them
 * on SQLite; on PostgreSQL the records COPY writes for each page of ids chosen as lists choose
 * them. Returning early (a client gone) stops the reads.
 */
export async function* exportBatches(
  { db, dialect, copyOut, batchSize }: ExportReads,
  viewer: Viewer,
  query: CatalogueExportQuery,
): AsyncGenerator<ExportBatch> {
  const filters = normalizeFilters(query);
  const use = idSetUseFor(filters, await countMatching(db, viewer, filters));
  const reads = {
    db,
    viewer,
    filters,
    sort: resolveSort(query),
    use,
    batchSize: batchSize ?? EXPORT_BATCH_SIZE[dialect],
  };
  if (dialect === 'sqlite') {
    yield* sqliteBatches(reads);
    return;
  }
  if (!copyOut) throw new Error('the export on PostgreSQL reads through DatabaseHandle.copyOut');
  yield* copiedBatches(reads, copyOut);
}

/** The export's query, one page from `position`, with the columns a dialect's reads need. */
function readPage<C extends RowColumns>(q: ExportQuery, position: Position | null, columns: C) {
  return fetchPage(q.db, q.viewer, q.filters, q.sort, q.batchSize, position, q.use, columns);
}

/** SQLite: a page of rows at a time, read when the writer has written the last. */
async function* sqliteBatches(q: ExportQuery): AsyncGenerator<readonly RepositoryExportRow[]> {
  let position: Position | null = null;
  do {
    const page: { rows: RepositoryExportRow[]; next: Position | null } = await readPage(
      q,
      position,
      'export',
    );
    if (page.rows.length > 0) yield page.rows;
    position = page.next;
  } while (position);
}

interface CopiedPage {
  ids: Promise<{ count: number; next: Position | null }>;
  records: Promise<CopiedRecords>;
}

/**
 * PostgreSQL: two pipelines on two connections. Each page's ids are read after the last page's
 * ids, and its COPY is sent as soon as they arrive, so the database reads the next page's ids
 * while it writes this page's records, and both while the server sends the page before. At
 * most one page is read ahead of the one being written.
 */
async function* copiedBatches(q: ExportQuery, copyOut: CopyOut): AsyncGenerator<CopiedRecords> {
  const read = (position: Position | null): CopiedPage => {
    const page = readPage(q, position, 'ids');
    const records = page.then(async (found) => ({
      copied:
        found.rows.length > 0 ? await copyOut(copyRecordsStatement(found.rows.map((row) => row.id))) : [],
    }));
    const ids = page.then((found) => ({ count: found.rows.length, next: found.next }));
    // Handled when awaited below; until then (or if the consumer stops first), a failed read
    // must not count as an unhandled rejection.
    records.catch(() => {});
    ids.catch(() => {});
    return { ids, records };
  };
  let current: CopiedPage | null = read(null);
  while (current) {
    const { count, next }: { count: number; next: Position | null } = await current.ids;
    const following: CopiedPage | null = next ? read(next) : null;
    const records = await current.records;
    if (count > 0) yield records;
    current = following;
  }
}
