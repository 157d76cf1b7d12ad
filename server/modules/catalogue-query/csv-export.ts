import { Readable } from 'node:stream';
import type { RepositoryExportRow } from '../../db/schema.ts';
import { csvCell, quoteCsv } from '../../lib/csv-cell.ts';

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
  // The health score (empty until assessed or while too little is known) and grade (docs/health.md).
  'health_score',
  'health_grade',
  // Open advisories by severity (docs/product.md#advisories).
  'advisories_critical',
  'advisories_high',
  'advisories_medium',
  'advisories_low',
  'advisories_unknown',
  // The team's decision (docs/product.md#team-decisions): status and quadrant key; empty for none.
  'status',
  'quadrant',
  'last_commit',
  'last_synced',
  'archived',
  'private',
  'gone_from_github',
  'comments',
  'versions',
  'added_at',
] as const;

/** `repositories_YYYY-MM-DD.csv` (docs/product.md#repositories-api). */
export function exportFileName(now: Date): string {
  return `repositories_${now.toISOString().slice(0, 10)}.csv`;
}

/**
 * Bytes a chunk holds before it goes out: large enough to keep the socket and the compressor
 * busy. The export's compressor hands on pieces of the same size (catalogue-query.routes.ts).
 */
export const CSV_CHUNK_BYTES = 128 * 1024;

const COMMA = 0x2c;
const MINUS = 0x2d;
const ZERO = 0x30;
const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;

/**
 * Records written as UTF-8 straight into a buffer, cell by cell: no string per record or per
 * chunk to build and flatten, which at 100,000 rows was most of the export's allocations and
 * so of the server's heap growth (docs/decisions.md, "CSV export").
 */
class RecordWriter {
  #buffer: Buffer;
  #at = 0;
  /** Inside a quoted cell of COPY's output when its last chunk ended (`copied`). */
  #quoted = false;
  rows = 0;

  constructor(bytes = CSV_CHUNK_BYTES) {
    this.#buffer = Buffer.allocUnsafeSlow(bytes);
  }

  get bytes(): number {
    return this.#at;
  }

  /** The records written so far, and a fresh buffer for the next ones. */
  take(): Buffer {
    const full = this.#buffer.subarray(0, this.#at);
    this.#buffer = Buffer.allocUnsafeSlow(CSV_CHUNK_BYTES);
    this.#at = 0;
    this.rows = 0;
    return full;
  }

  /** Room for `bytes` more, in a larger buffer when this one can't hold them. */
  #reserve(bytes: number) {
    if (this.#at + bytes <= this.#buffer.length) return;
    const larger = Buffer.allocUnsafeSlow(Math.max(this.#buffer.length * 2, this.#at + bytes));
    this.#buffer.copy(larger, 0, 0, this.#at);
    this.#buffer = larger;
  }

  /** Text as `csvCell` writes it: formula-escaped, then quoted as needed; empty for none. */
  text(value: string | null | undefined) {
    if (value === null || value === undefined || value === '') return;
    this.#at += this.#buffer.write(csvCell(value), this.#at);
  }

  /**
   * A number as written (never a formula: a negative number stays a number). Whole numbers, all
   * the export has, go in as digits directly: `String()` and `Buffer.write` made a string and
   * crossed into C++ for each of a row's 14 numbers.
   */
  number(value: number | null | undefined) {
    if (value === null || value === undefined) return;
    if (!Number.isSafeInteger(value)) {
      this.#at += this.#buffer.write(String(value), this.#at, 'latin1');
      return;
    }
    const buffer = this.#buffer;
    let rest = value;
    if (rest < 0) {
      buffer[this.#at++] = MINUS;
      rest = -rest;
    }
    let digits = 1;
    for (let scale = 10; scale <= rest; scale *= 10) digits += 1;
    for (let at = this.#at + digits - 1; at >= this.#at; at--) {
      buffer[at] = ZERO + (rest % 10);
      rest = Math.floor(rest / 10);
    }
    this.#at += digits;
  }

  ascii(value: string) {
    this.#at += this.#buffer.write(value, this.#at, 'latin1');
  }

  comma() {
    this.#buffer[this.#at++] = COMMA;
  }

  /**
   * Room for a record: UTF-8 takes at most 3 bytes per UTF-16 unit, doubled quotes and the
   * escape at most twice as many units; numbers, flags and separators fit in `rest`.
   */
  #reserveFor(r: RepositoryExportRow, license: string, rest: number) {
    this.#reserve(
      6 *
        (r.full_name.length +
          r.name.length +
          (r.description?.length ?? 0) +
          r.url.length +
          (r.language?.length ?? 0) +
          license.length +
          r.topics.length +
          r.tags.length +
          r.notes.length +
          (r.last_commit?.length ?? 0) +
          (r.last_synced?.length ?? 0) +
          (r.decision_quadrant?.length ?? 0) +
          r.created_at.length) +
        rest,
    );
  }

  /** The cells before the numbers: id to notes. */
  #leadingText(r: RepositoryExportRow, license: string) {
    this.text(r.full_name);
    this.comma();
    this.text(r.name);
    this.comma();
    this.text(r.description);
    this.comma();
    this.text(r.url);
    this.comma();
    this.text(r.language);
    this.comma();
    this.text(license);
    this.comma();
    this.text(r.topics);
    this.comma();
    this.text(r.tags);
    this.comma();
    this.text(r.notes);
    this.comma();
  }

  /** The quadrant to the last sync: the text cells between the numbers and the flags. */
  #middleText(r: RepositoryExportRow) {
    this.text(r.decision_quadrant);
    this.comma();
    this.text(r.last_commit);
    this.comma();
    this.text(r.last_synced);
    this.comma();
  }

  /**
   * Records as PostgreSQL's COPY wrote them (copy-export.ts), in chunks cut anywhere: copied as
   * they are, each record's LF turned into CRLF. A line break inside a quoted cell is the
   * cell's own and stays; a doubled quote closes and reopens the cell, which leaves it quoted.
   */
  copied(chunk: Buffer) {
    this.#reserve(2 * chunk.length);
    const buffer = this.#buffer;
    let from = 0;
    // The next quote at or after `from` (-1: none left in this chunk), looked up again only
    // once passed: a search per record would rescan the chunk's quoteless rest each time.
    let quote = chunk.indexOf(QUOTE);
    while (from < chunk.length) {
      if (quote !== -1 && quote < from) quote = chunk.indexOf(QUOTE, from);
      if (this.#quoted) {
        const end = quote === -1 ? chunk.length : quote + 1;
        this.#at += chunk.copy(buffer, this.#at, from, end);
        from = end;
        if (quote !== -1) this.#quoted = false;
        continue;
      }
      const lf = chunk.indexOf(LF, from);
      if (quote !== -1 && (lf === -1 || quote < lf)) {
        this.#at += chunk.copy(buffer, this.#at, from, quote + 1);
        from = quote + 1;
        this.#quoted = true;
        continue;
      }
      const end = lf === -1 ? chunk.length : lf;
      this.#at += chunk.copy(buffer, this.#at, from, end);
      from = end;
      if (lf === -1) continue;
      buffer[this.#at++] = CR;
      buffer[this.#at++] = LF;
      from = lf + 1;
      this.rows += 1;
    }
  }

  /** One repository's record, its cells as `presentSummary` shows them. */
  row(r: RepositoryExportRow) {
    const license = r.license || 'No License';
    this.#reserveFor(r, license, 512);
    this.#leadingText(r, license);
    this.number(r.stars);
    this.comma();
    this.number(r.forks);
    this.comma();
    this.number(r.issues);
    this.comma();
    this.number(r.commits);
    this.comma();
    // Empty while the engine is still counting; '500+' (text) when capped.
    if (r.contributors_pending !== 1) {
      if (r.contributors_capped === 1) this.text(`${r.contributors}+`);
      else this.number(r.contributors);
    }
    this.comma();
    this.number(r.stars_7d);
    this.comma();
    this.number(r.stars_30d);
    this.comma();
    this.number(r.health_score);
    this.comma();
    this.ascii(r.health_grade ?? 'unknown');
    this.comma();
    this.number(r.advisories_critical);
    this.comma();
    this.number(r.advisories_high);
    this.comma();
    this.number(r.advisories_medium);
    this.comma();
    this.number(r.advisories_low);
    this.comma();
    this.number(r.advisories_unknown);
    this.comma();
    if (r.decision_status !== null) this.ascii(r.decision_status);
    this.comma();
    this.#middleText(r);
    this.ascii(r.archived === 1 ? 'yes,' : 'no,');
    this.ascii(r.private === 1 ? 'yes,' : 'no,');
    this.ascii(r.gone === 1 ? 'yes,' : 'no,');
    this.number(r.comment_count);
    this.comma();
    this.number(r.version_count);
    this.comma();
    this.text(r.created_at);
    this.ascii('\r\n');
    this.rows += 1;
  }
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
    line += quoteCsv(text);
  }
  return `${line}\r\n`;
}

/** One repository's record as text (what the export writes for it). */
export function csvRow(row: RepositoryExportRow): string {
  const writer = new RecordWriter(1024);
  writer.row(row);
  return writer.take().toString('utf8');
}

/** Records as PostgreSQL's COPY writes them for the export (copy-export.ts): CSV with LF record ends. */
export interface CopiedRecords {
  copied: readonly Buffer[];
}

/** A database read's worth of the export: rows as lists read them, or records COPY wrote. */
export type ExportBatch = readonly RepositoryExportRow[] | CopiedRecords;

/**
 * An RFC 4180 CSV stream of repository rows, given in batches (a database read each), pulled
 * as the client takes it: back-pressure reaches the source, so at most a batch or two is held
 * whatever the export's size. Records go out about CSV_CHUNK_BYTES to a chunk: a chunk per row
 * made the export five times slower behind gzip (docs/benchmarks.md). Tearing the stream down
 * (a client gone) ends the source iterator too, so an export reading from the database stops.
 * `report` hears how many rows went out, and whether all did, once the stream ends or is torn
 * down.
 */
export function streamCsv(
  batches: Iterable<ExportBatch> | AsyncIterable<ExportBatch>,
  report?: (rows: number, complete: boolean) => void,
): Readable {
  return Readable.from(
    (async function* () {
      const writer = new RecordWriter();
      writer.ascii(csvRecord(HEADERS));
      let sent = 0;
      let complete = false;
      try {
        for await (const batch of batches) {
          if (!Array.isArray(batch)) {
            for (const chunk of (batch as CopiedRecords).copied) {
              // A chunk grows by at most its own length (a CR per LF): the buffer goes out
              // first when that might not fit, instead of growing.
              if (writer.bytes > 0 && writer.bytes + 2 * chunk.length > CSV_CHUNK_BYTES) {
                const rows = writer.rows;
                yield writer.take();
                sent += rows;
              }
              writer.copied(chunk);
            }
            continue;
          }
          for (const row of batch as readonly RepositoryExportRow[]) {
            writer.row(row);
            if (writer.bytes >= CSV_CHUNK_BYTES) {
              const rows = writer.rows;
              yield writer.take();
              sent += rows;
            }
          }
        }
        const rows = writer.rows;
        if (writer.bytes > 0) yield writer.take();
        sent += rows;
        complete = true;
      } finally {
        report?.(sent, complete);
      }
    })(),
    { objectMode: false },
  );
}
