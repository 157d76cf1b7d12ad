import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import type { Kysely, Transaction } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import {
  BACKUP_FORMAT,
  type BackupHeader,
  backupHeaderSchema,
  backupRowLineSchema,
} from './backup-format.ts';
import { countRows, latestAppliedMigration, listTablesInOrder, readTableRows } from './backups.queries.ts';

export interface WrittenBackup {
  header: BackupHeader;
  /** Row lines written (the header not counted). */
  rows: number;
}

/**
 * Streams the whole database as one portable backup into `destination`: gzip of JSON lines, a
 * header then `{ table, row }` per row, every table read inside ONE read transaction so the
 * file is one consistent moment. SQLite: a read transaction on the app's own connection;
 * PostgreSQL: REPEATABLE READ, READ ONLY. Memory stays flat (tables are paged, the gzip stream
 * applies back-pressure).
 */
export async function writeBackup(
  db: Kysely<Database>,
  dialect: Dialect,
  created: Date,
  destination: Writable,
): Promise<WrittenBackup> {
  let builder = db.transaction();
  if (dialect === 'postgres')
    builder = builder.setIsolationLevel('repeatable read').setAccessMode('read only');
  return builder.execute(async (trx) => {
    const tables = await listTablesInOrder(trx);
    const schemaVersion = await latestAppliedMigration(trx);
    if (!schemaVersion) throw new Error('The database has no migrations applied: nothing to back up');
    const header: BackupHeader = {
      format: BACKUP_FORMAT,
      schema_version: schemaVersion,
      created: created.toISOString(),
      dialect,
      tables: [],
    };
    for (const table of tables) {
      header.tables.push({
        name: table.name,
        columns: table.columns,
        rows: await countRows(trx, table.name),
      });
    }
    let rows = 0;
    async function* lines(source: Transaction<Database>) {
      yield `${JSON.stringify(header)}\n`;
      for (const table of tables) {
        for await (const batch of readTableRows(source, table)) {
          rows += batch.length;
          yield batch.map((row) => `${JSON.stringify({ table: table.name, row })}\n`).join('');
        }
      }
    }
    await pipeline(Readable.from(lines(trx)), createGzip(), destination);
    return { header, rows };
  });
}

export class BackupFormatError extends Error {}

/** Opens a backup file: its checked header, then its rows one by one, in file order. */
export async function openBackup(file: string): Promise<{
  header: BackupHeader;
  rows: AsyncGenerator<{ table: string; row: Record<string, unknown> }>;
  close(): void;
}> {
  const input = createReadStream(file);
  const gunzip = createGunzip();
  const formatError = (error: unknown): Error => {
    if (error instanceof BackupFormatError || !(error instanceof Error)) return error as Error;
    const code = (error as Error & { code?: string }).code;
    return new BackupFormatError(
      code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR'
        ? `${file} is not a gzip backup file, or it is damaged (${error.message})`
        : `Could not read ${file}: ${error.message}`,
    );
  };
  const failed = new Promise<never>((_, reject) => {
    const fail = (error: Error) => reject(formatError(error));
    input.on('error', fail);
    gunzip.on('error', fail);
  });
  failed.catch(() => {});
  input.pipe(gunzip);
  const reader = createInterface({ input: gunzip, crlfDelay: Number.POSITIVE_INFINITY });
  const iterator = reader[Symbol.asyncIterator]();
  const close = () => {
    reader.close();
    input.destroy();
    gunzip.destroy();
  };

  const next = async (): Promise<string | undefined> => {
    // readline passes the stream's error on too, and which of the two rejects first depends on
    // timing: either way the reader gets the same message.
    try {
      const result = await Promise.race([iterator.next(), failed]);
      return result.done ? undefined : result.value;
    } catch (error) {
      throw formatError(error);
    }
  };

  let header: BackupHeader;
  try {
    const first = await next();
    if (first === undefined) throw new BackupFormatError(`${file} is empty: not a backup file`);
    header = parseHeader(first, file);
  } catch (error) {
    close();
    throw error;
  }

  async function* rows() {
    let lineNumber = 1;
    try {
      for (;;) {
        const line = await next();
        if (line === undefined) return;
        lineNumber += 1;
        if (line.trim() === '') continue;
        let parsed: unknown;
        try {
          parsed = JSON.parse(line);
        } catch {
          throw new BackupFormatError(`${file}: line ${lineNumber} is not valid JSON`);
        }
        const checked = backupRowLineSchema.safeParse(parsed);
        if (!checked.success)
          throw new BackupFormatError(`${file}: line ${lineNumber} is not a { table, row } line`);
        yield checked.data;
      }
    } finally {
      close();
    }
  }

  return { header, rows: rows(), close };
}

function parseHeader(line: string, file: string): BackupHeader {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    throw new BackupFormatError(
      `${file} is not a ${BACKUP_FORMAT} file: its first line is not a JSON header`,
    );
  }
  if (
    typeof parsed !== 'object' ||
    parsed === null ||
    (parsed as { format?: unknown }).format !== BACKUP_FORMAT
  ) {
    throw new BackupFormatError(`${file} is not a ${BACKUP_FORMAT} file: its header names another format`);
  }
  const checked = backupHeaderSchema.safeParse(parsed);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new BackupFormatError(
      `${file} has a damaged header (${issue ? `${issue.path.join('.') || 'header'}: ${issue.message}` : 'invalid'})`,
    );
  }
  return checked.data;
}

/** Reads a whole backup back and checks every table's row count against its header. */
export async function verifyBackup(file: string): Promise<BackupHeader> {
  const { header, rows } = await openBackup(file);
  const counts = new Map<string, number>();
  for await (const { table } of rows) counts.set(table, (counts.get(table) ?? 0) + 1);
  for (const table of header.tables) {
    const found = counts.get(table.name) ?? 0;
    if (found !== table.rows) {
      throw new BackupFormatError(
        `${file}: table ${table.name} has ${found} rows, its header says ${table.rows}`,
      );
    }
    counts.delete(table.name);
  }
  const stray = [...counts.keys()][0];
  if (stray) throw new BackupFormatError(`${file}: rows for table ${stray}, which its header does not list`);
  return header;
}
