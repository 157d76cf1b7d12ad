/**
 * The export's records as PostgreSQL writes them: `COPY (SELECT …) TO STDOUT (FORMAT csv)` over
 * one page of ids, read in list order. COPY's CSV writer is C in the database's own process; the
 * server copies its bytes into the response and only turns its LF record ends into CRLF
 * (`RecordWriter.copied`, csv-export.ts). node-postgres then makes no string or object per row
 * (docs/decisions.md, "CSV export").
 *
 * The cells are what `RecordWriter.row` writes, cell for cell, for COPY to quote as the writer
 * does: a value with a comma, quote, CR or LF is quoted with its quotes doubled (a lone `\.` is
 * quoted only in a one-column COPY); NULL is the empty cell, and an empty text (which COPY would
 * write as `""`) is made NULL. A property test on PostgreSQL pins the bytes to the writer's.
 */

import { FORMULA_STARTS } from '../../lib/csv-cell.ts';

/**
 * The formula starts (`FORMULA_STARTS`, docs/security.md#f1) as SQL: `chr(<code>)` each, folded
 * to constants when the statement is planned. NUL is left out: PostgreSQL's text never holds it.
 */
const SQL_FORMULA_STARTS = FORMULA_STARTS.filter((start) => start !== '\0')
  .map((start) => `chr(${start.charCodeAt(0)})`)
  .join(', ');

/** Text as `RecordWriter.text` writes it (`csvCell`): a formula start escaped with a quote, empty as NULL. */
const text = (value: string) =>
  `nullif(case when left(${value}, 1) in (${SQL_FORMULA_STARTS}) then '''' || ${value} else ${value} end, '')`;
const flag = (column: string) => `case when r.${column} = 1 then 'yes' else 'no' end`;

/** The CSV's columns (csv-export.ts `HEADERS`), in order. Fixed text: no value of a request. */
const CELLS = [
  text('r.full_name'),
  text('r.name'),
  text('r.description'),
  text('r.url'),
  text('r.language'),
  text(`coalesce(nullif(r.license, ''), 'No License')`),
  text('r.topics'),
  text('r.tags'),
  text('r.notes'),
  'r.stars',
  'r.forks',
  'r.issues',
  'r.commits',
  // Empty while the engine is still counting; '500+' when capped.
  `case when r.contributors_pending = 1 then null when r.contributors_capped = 1 ` +
    `then ${text(`r.contributors::text || '+'`)} else r.contributors::text end`,
  'r.stars_7d',
  'r.stars_30d',
  'r.health_score',
  `coalesce(r.health_grade, 'unknown')`,
  'r.advisories_critical',
  'r.advisories_high',
  'r.advisories_medium',
  'r.advisories_low',
  'r.advisories_unknown',
  'r.decision_status',
  text('r.decision_quadrant'),
  text('r.last_commit'),
  text('r.last_synced'),
  flag('archived'),
  flag('private'),
  flag('gone'),
  'r.comment_count',
  'r.version_count',
  text('r.created_at'),
].join(', ');

/**
 * The COPY of these repositories' records, in the order given. The ids are the only values in
 * it, checked to be whole numbers here: they come from the page query that chose the visible,
 * matching rows (with the request's filters as parameters), never from the request.
 */
export function copyRecordsStatement(ids: readonly number[]): string {
  for (const id of ids) if (!Number.isSafeInteger(id)) throw new Error(`not a repository id: ${id}`);
  return (
    `COPY (SELECT ${CELLS} FROM unnest('{${ids.join(',')}}'::bigint[]) WITH ORDINALITY AS page(id, at) ` +
    'JOIN repositories r ON r.id = page.id ORDER BY page.at) TO STDOUT (FORMAT csv)'
  );
}
