import { Readable } from 'node:stream';
import type { RepositorySummary } from '#shared/schemas/repositories.ts';

/** The columns a user expects in a spreadsheet, in reading order. */
const COLUMNS: { header: string; value: (repository: RepositorySummary) => string | number }[] = [
  { header: 'id', value: (r) => r.id },
  { header: 'name', value: (r) => r.name },
  { header: 'description', value: (r) => r.description ?? '' },
  { header: 'url', value: (r) => r.url },
  { header: 'language', value: (r) => r.language ?? '' },
  { header: 'license', value: (r) => r.license || 'No License' },
  { header: 'topics', value: (r) => r.topics },
  { header: 'tags', value: (r) => r.tags },
  { header: 'notes', value: (r) => r.notes },
  { header: 'stars', value: (r) => r.stars },
  { header: 'forks', value: (r) => r.forks },
  { header: 'open_issues', value: (r) => r.issues },
  { header: 'commits', value: (r) => r.commits },
  // Empty while the engine is still counting.
  { header: 'contributors', value: (r) => r.contributors ?? '' },
  // Stars gained in the last 7 and 30 days; empty without enough history.
  { header: 'stars_7d', value: (r) => r.growth.stars_7d ?? '' },
  { header: 'stars_30d', value: (r) => r.growth.stars_30d ?? '' },
  { header: 'last_commit', value: (r) => r.last_commit ?? '' },
  { header: 'last_synced', value: (r) => r.last_synced ?? '' },
  { header: 'archived', value: (r) => (r.archived ? 'yes' : 'no') },
  { header: 'private', value: (r) => (r.private ? 'yes' : 'no') },
  { header: 'gone_from_github', value: (r) => (r.gone ? 'yes' : 'no') },
  { header: 'comments', value: (r) => r.comment_count },
  { header: 'versions', value: (r) => r.version_count },
  { header: 'added_at', value: (r) => r.created_at },
];

/**
 * Cells a spreadsheet would run as a formula, ASCII and full-width (OWASP CSV Injection,
 * docs/security.md#f1).
 */
const FORMULA_START = /^[=+\-@\t\r\0＝＋－＠]/;

export function escapeFormula(value: string | number): string | number {
  if (typeof value === 'number') return value;
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** `repositories_YYYY-MM-DD.csv` (docs/product.md#repositories-api). */
export function exportFileName(now: Date): string {
  return `repositories_${now.toISOString().slice(0, 10)}.csv`;
}

/** Rows per chunk written: one chunk per database batch keeps the socket and gzip busy. */
const ROWS_PER_CHUNK = 500;

const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One RFC 4180 record: a cell with a quote, comma or line break is quoted, its quotes doubled;
 * records end in CRLF. Written here rather than with csv-stringify, which spent 7 µs a row
 * against 1 µs and capped the export below 100,000 rows/s (docs/decisions.md, "CSV export").
 */
export function csvRecord(cells: readonly (string | number)[]): string {
  let line = '';
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i];
    const text = typeof cell === 'number' ? String(cell) : (cell ?? '');
    if (i > 0) line += ',';
    line += NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  }
  return `${line}\r\n`;
}

/**
 * An RFC 4180 CSV stream, one row per repository, read as the client takes it (back-pressure
 * reaches the source). Rows go out ROWS_PER_CHUNK to a chunk: a chunk per row made the export
 * five times slower behind gzip (docs/benchmarks.md). Tearing the stream down (a client gone)
 * ends the source iterator too, so an export reading from the database stops.
 */
export function streamCsv(
  repositories: Iterable<RepositorySummary> | AsyncIterable<RepositorySummary>,
): Readable {
  return Readable.from(
    (async function* () {
      let chunk = csvRecord(COLUMNS.map((column) => column.header));
      let rows = 0;
      for await (const repository of repositories) {
        chunk += csvRecord(COLUMNS.map((column) => escapeFormula(column.value(repository))));
        rows += 1;
        if (rows % ROWS_PER_CHUNK === 0) {
          yield Buffer.from(chunk);
          chunk = '';
        }
      }
      if (chunk !== '') yield Buffer.from(chunk);
    })(),
    { objectMode: false },
  );
}
