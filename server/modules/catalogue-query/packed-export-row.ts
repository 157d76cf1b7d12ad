import { type RawBuilder, sql } from 'kysely';
import type { RepositoryExportRow } from '../../db/schema.ts';

/** The columns PostgreSQL sends as they are, beside the two it joins: the id and the text cells. */
export const PACKED_TEXT_COLUMNS = [
  'id',
  'full_name',
  'name',
  'description',
  'url',
  'language',
  'license',
  'topics',
  'tags',
  'notes',
  'decision_quadrant',
  'last_commit',
  'last_synced',
  'created_at',
] as const;

/**
 * The export's row as PostgreSQL reads it: the text cells as they are, the number, flag and
 * enum cells — which never need quotes or a formula escape — joined into two cells by the
 * database, in its own process. node-postgres then parses 15 values a row instead of 36, and
 * no integers (docs/decisions.md, "CSV export").
 */
export type PackedExportRow = Pick<RepositoryExportRow, (typeof PACKED_TEXT_COLUMNS)[number]> & {
  /** stars … decision_status: the cells between notes and the quadrant, comma-separated. */
  counts: string;
  /** archived … version_count: the cells between last_synced and added_at, comma-separated. */
  flags: string;
};

const number = (column: string) => `coalesce(${column}::text, '')`;
const flag = (column: string) => `case when ${column} = 1 then 'yes' else 'no' end`;

/** Cell for cell what `RecordWriter.row` (csv-export.ts) writes for these columns. */
const COUNTS = [
  number('stars'),
  number('forks'),
  number('issues'),
  number('commits'),
  // Empty while the engine is still counting; '500+' when capped (text: a negative count would
  // be formula-escaped, as the writer does).
  `case when contributors_pending = 1 then '' when contributors_capped = 1 ` +
    `then case when contributors < 0 then '''' else '' end || contributors::text || '+' ` +
    `else contributors::text end`,
  number('stars_7d'),
  number('stars_30d'),
  number('health_score'),
  `coalesce(health_grade, 'unknown')`,
  number('advisories_critical'),
  number('advisories_high'),
  number('advisories_medium'),
  number('advisories_low'),
  number('advisories_unknown'),
  `coalesce(decision_status, '')`,
].join(` || ',' || `);

const FLAGS = [
  flag('archived'),
  flag('private'),
  flag('gone'),
  number('comment_count'),
  number('version_count'),
].join(` || ',' || `);

/** The two joined cells. Fixed text: no value of a request goes into them. */
export function packedCells(): [RawBuilder<string>, RawBuilder<string>] {
  return [sql.raw<string>(`(${COUNTS})`), sql.raw<string>(`(${FLAGS})`)];
}
