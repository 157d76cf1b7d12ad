import { Readable } from 'node:stream';
import type { RepositoryListRow } from '../../db/schema.ts';

/**
 * The columns a user expects in a spreadsheet, in reading order. Each row is written straight
 * from the list row (`csvRow` below), cell for cell what `presentSummary` shows: no presented
 * object, no array of cells per row (docs/decisions.md, "CSV export").
 */
const HEADERS = [
  'id',
  'name',
  'description',
  'url',
  'language',
  'license',
  'topics',
  'tags',
  'notes',
  'stars',
  'forks',
  'open_issues',
  'commits',
  // Empty while the engine is still counting; '500+' when capped.
  'contributors',
  // Stars gained in the last 7 and 30 days; empty without enough history.
  'stars_7d',
  'stars_30d',
  'last_commit',
  'last_synced',
  'archived',
  'private',
  'gone_from_github',
  'comments',
  'versions',
  'added_at',
] as const;

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

/** Rows per chunk written at least: one chunk per database batch keeps the socket and gzip busy. */
const ROWS_PER_CHUNK = 500;

const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One RFC 4180 cell: a number as written, text formula-escaped, then quoted (its quotes
 * doubled) when it holds a quote, comma or line break.
 */
function cell(value: string | number | null | undefined): string {
  if (typeof value === 'number') return String(value);
  if (value === null || value === undefined || value === '') return '';
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A cell that is never a formula nor needs quotes: a number, or empty for null. */
function plain(value: number | null | undefined): string {
  return value === null || value === undefined ? '' : String(value);
}

/**
 * One RFC 4180 record: a cell with a quote, comma or line break is quoted, its quotes doubled;
 * records end in CRLF. Written here rather than with csv-stringify, which spent 7 µs a row
 * against 1 µs and capped the export below 100,000 rows/s (docs/decisions.md, "CSV export").
 */
export function csvRecord(cells: readonly (string | number)[]): string {
  let line = '';
  for (let i = 0; i < cells.length; i++) {
    const value = cells[i];
    const text = typeof value === 'number' ? String(value) : (value ?? '');
    if (i > 0) line += ',';
    line += NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  }
  return `${line}\r\n`;
}

/** One repository's record, its cells as `presentSummary` shows them. */
export function csvRow(r: RepositoryListRow): string {
  const contributors =
    r.contributors_pending === 1
      ? ''
      : r.contributors_capped === 1
        ? cell(`${r.contributors}+`)
        : cell(r.contributors);
  return `${cell(r.full_name)},${cell(r.name)},${cell(r.description)},${cell(r.url)},${cell(r.language)},${cell(
    r.license || 'No License',
  )},${cell(r.topics)},${cell(r.tags)},${cell(r.notes)},${cell(r.stars)},${cell(r.forks)},${cell(r.issues)},${cell(
    r.commits,
  )},${contributors},${plain(r.stars_7d)},${plain(r.stars_30d)},${cell(r.last_commit)},${cell(r.last_synced)},${
    r.archived === 1 ? 'yes' : 'no'
  },${r.private === 1 ? 'yes' : 'no'},${r.gone === 1 ? 'yes' : 'no'},${cell(r.comment_count)},${cell(
    r.version_count,
  )},${cell(r.created_at)}\r\n`;
}

/**
 * An RFC 4180 CSV stream of repository rows, given in batches (a database read each), pulled
 * as the client takes it: back-pressure reaches the source, so at most a batch or two is held
 * whatever the export's size. Rows go out ROWS_PER_CHUNK to a chunk: a chunk per row made the
 * export five times slower behind gzip (docs/benchmarks.md). Tearing the stream down (a client
 * gone) ends the source iterator too, so an export reading from the database stops. `report`
 * hears how many rows went out, and whether all did, once the stream ends or is torn down.
 */
export function streamCsv(
  batches: Iterable<readonly RepositoryListRow[]> | AsyncIterable<readonly RepositoryListRow[]>,
  report?: (rows: number, complete: boolean) => void,
): Readable {
  return Readable.from(
    (async function* () {
      let chunk = csvRecord(HEADERS);
      let pending = 0;
      let sent = 0;
      let complete = false;
      try {
        for await (const batch of batches) {
          for (const row of batch) {
            chunk += csvRow(row);
            pending += 1;
            if (pending === ROWS_PER_CHUNK) {
              yield Buffer.from(chunk);
              sent += pending;
              chunk = '';
              pending = 0;
            }
          }
        }
        if (chunk !== '') yield Buffer.from(chunk);
        sent += pending;
        complete = true;
      } finally {
        report?.(sent, complete);
      }
    })(),
    { objectMode: false },
  );
}
