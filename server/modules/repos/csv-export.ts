import { pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { RepositorySummary } from '../../../shared/schemas/repositories.ts';

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

/**
 * An RFC 4180 CSV stream (CRLF, quoted where needed), one row per repository, built row by row
 * as the reader takes them (back-pressure reaches the source). Tearing the returned stream
 * down (a client gone) ends the source iterator too, so an export reading from the database
 * stops.
 */
export function streamCsv(
  repositories: Iterable<RepositorySummary> | AsyncIterable<RepositorySummary>,
): Readable {
  const stringifier = stringify({
    header: true,
    columns: COLUMNS.map((column) => column.header),
    record_delimiter: '\r\n',
    quoted_match: /[",\r\n]/,
  });
  const rows = Readable.from(
    (async function* () {
      for await (const repository of repositories)
        yield COLUMNS.map((column) => escapeFormula(column.value(repository)));
    })(),
  );
  // An error of either side destroys both; the reply reports it. Nothing more to do here.
  pipeline(rows, stringifier, () => {});
  return stringifier;
}
