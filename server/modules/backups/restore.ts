import { basename } from 'node:path';
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import type { DatabaseHandle } from '../../db/database.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { migrations } from '../../db/migrations/index.ts';
import { writeAudit } from '../../lib/audit.ts';
import { type Clock, isoNow, systemClock } from '../../lib/clock.ts';
import { rebuildDerivedTables } from '../../repository/repository-labels.ts';
import { type BackupHeader, type MovedColumn, movedColumnsOf } from './backup-format.ts';
import { BackupFormatError, openBackup } from './backup-stream.ts';
import {
  countRows,
  deleteAllRows,
  insertRows,
  listTablesInOrder,
  listTransientTables,
  type Row,
  resetIdentitySequence,
} from './backups.queries.ts';

export class RestoreError extends Error {}

export interface RestoreResult {
  header: BackupHeader;
  /** Rows inserted per table, in restore order. */
  tables: { name: string; rows: number }[];
}

/** Rows per INSERT: within SQLite's 32,766 and PostgreSQL's 65,535 bound parameters. */
const MAX_PARAMETERS = 30_000;
const MAX_ROWS_PER_INSERT = 500;

const knownMigrations = () => Object.keys(migrations).sort();

/** Refuses a backup this code can't read: a schema version newer than (or unknown to) it. */
export function checkSchemaVersion(version: string): void {
  const known = knownMigrations();
  const latest = known[known.length - 1] ?? '';
  if (known.includes(version)) return;
  if (version > latest) {
    throw new RestoreError(
      `This backup was made by a newer version of the app (schema ${version}); this version knows schemas up to ${latest}. Upgrade the app, then restore.`,
    );
  }
  throw new RestoreError(
    `This backup has schema version ${version}, which this version of the app does not know.`,
  );
}

/**
 * Tables whose rows alone are not a team's data: leases and the audit trail, and the default
 * radar quadrants every migrated database starts with (renaming them takes an admin account,
 * which is data).
 */
const NOT_DATA: readonly string[] = ['job_leases', 'audit_log', 'decision_quadrants'];

/** True when the database holds accounts or catalogue data (restore then asks before replacing it). */
export async function databaseHasData(handle: DatabaseHandle): Promise<boolean> {
  if (!(await hasAppliedMigrations(handle))) return false;
  for (const table of await listTablesInOrder(handle.db)) {
    if (NOT_DATA.includes(table.name)) continue;
    if ((await countRows(handle.db, table.name)) > 0) return true;
  }
  return false;
}

async function hasAppliedMigrations(handle: DatabaseHandle): Promise<boolean> {
  const state = await new Migrator({
    db: handle.db,
    provider: { getMigrations: async () => migrations },
  }).getMigrations();
  return state.some((migration) => migration.executedAt !== undefined);
}

/**
 * Replaces everything in the database with a backup's rows: SQLite → PostgreSQL
 * and back. The schema is brought up first (an empty database is migrated to the backup's own
 * version, so later migrations then transform its rows exactly as they would have); then ONE
 * transaction deletes every row, inserts the backup's rows table by table in dependency order,
 * checks each table's count against the header and, on PostgreSQL, moves identity sequences
 * past the highest id. Any failure rolls the whole restore back.
 */
export async function restoreBackup(
  handle: DatabaseHandle,
  file: string,
  options: { onTable?: (name: string, rows: number) => void; clock?: Clock } = {},
): Promise<RestoreResult> {
  let backup: Awaited<ReturnType<typeof openBackup>> | undefined;
  try {
    backup = await openBackup(file);
    const { header, rows } = backup;
    checkSchemaVersion(header.schema_version);
    const latest = knownMigrations().at(-1);
    const fresh = !(await hasAppliedMigrations(handle));
    if (fresh && header.schema_version !== latest) {
      await migrateTo(handle, header.schema_version);
    } else {
      await migrateToLatest(handle.db);
    }

    const tables = await listTablesInOrder(handle.db);
    const transient = await listTransientTables(handle.db);
    const target = new Map(tables.map((table) => [table.name, table]));
    // What each of the backup's tables restores: its columns, less those moved since (MOVED_COLUMNS).
    const expected = new Map<string, { columns: string[]; moved: MovedColumn[] }>();
    for (const table of header.tables) {
      const existing = target.get(table.name);
      if (!existing)
        throw new RestoreError(`The backup has a table "${table.name}" this database doesn't have.`);
      const moved = movedColumnsOf(table.name, table.columns, existing.columns);
      const columns = table.columns.filter((column) => !moved.some((m) => m.column === column));
      const missing = columns.find((column) => !existing.columns.includes(column));
      if (missing) {
        throw new RestoreError(
          `The backup's table "${table.name}" has a column "${missing}" this database doesn't have.`,
        );
      }
      expected.set(table.name, { columns, moved });
    }
    const inserted = new Map<string, number>();
    const movedRows: { table: string; row: Row }[] = [];

    await handle.db.transaction().execute(async (trx) => {
      // Order already satisfies every foreign key; deferring them on SQLite also covers tables
      // this code does not know yet.
      if (handle.dialect === 'sqlite') await sql`pragma defer_foreign_keys = on`.execute(trx);
      for (const table of [...tables].reverse()) await deleteAllRows(trx, table.name);
      // Queued work belonged to the data being replaced (mail with its links, Slack messages).
      for (const table of transient) await deleteAllRows(trx, table);

      let pending: { table: string; columns: string[]; rows: Row[]; limit: number } | undefined;
      const flush = async () => {
        if (!pending || pending.rows.length === 0) return;
        await insertRows(trx, pending.table, pending.columns, pending.rows);
        pending.rows = [];
      };
      for await (const { table, row } of rows) {
        const info = expected.get(table);
        if (!info)
          throw new RestoreError(`The backup has rows for a table "${table}" its header doesn't list.`);
        if (pending?.table !== table) {
          await flush();
          const limit = Math.max(
            1,
            Math.min(MAX_ROWS_PER_INSERT, Math.floor(MAX_PARAMETERS / info.columns.length)),
          );
          pending = { table, columns: info.columns, rows: [], limit };
        }
        pending.rows.push(handle.dialect === 'sqlite' ? booleansAsIntegers(row) : row);
        inserted.set(table, (inserted.get(table) ?? 0) + 1);
        for (const moved of info.moved) {
          const target = moved.moveTo(row);
          if (target) movedRows.push(target);
        }
        if (pending.rows.length >= pending.limit) await flush();
      }
      await flush();
      // After every table's own rows, so the rows they reference are in.
      for (const { table, row } of movedRows) {
        if (pending?.table !== table) {
          await flush();
          pending = { table, columns: Object.keys(row), rows: [], limit: MAX_ROWS_PER_INSERT };
        }
        pending.rows.push(row);
        if (pending.rows.length >= pending.limit) await flush();
      }
      await flush();

      for (const table of header.tables) {
        const rows = inserted.get(table.name) ?? 0;
        if (rows !== table.rows) {
          throw new RestoreError(
            `The backup is incomplete: table "${table.name}" has ${rows} rows, its header says ${table.rows}. Nothing was changed.`,
          );
        }
      }
      if (handle.dialect === 'postgres') {
        for (const table of tables)
          if (table.columns.includes('id')) await resetIdentitySequence(trx, table.name);
      }
      // Backups leave the derived tables (tag and topic rows, the search index) out: computed
      // again from the restored rows, in the same transaction, when the schema is already the
      // latest; otherwise once the remaining migrations have run, below.
      if (!(fresh && header.schema_version !== latest))
        await rebuildDerivedTables(trx, (options.clock ?? systemClock).now());
      for (const table of header.tables) options.onTable?.(table.name, table.rows);
    });

    if (fresh && header.schema_version !== latest) {
      await migrateToLatest(handle.db);
      await rebuildDerivedTables(handle.db, (options.clock ?? systemClock).now());
    }
    await writeAudit(handle.db, {
      actorId: null,
      action: 'backup.restore',
      target: `backup:${basename(file)}`,
      detail: {
        schema_version: header.schema_version,
        source_dialect: header.dialect,
        created: header.created,
        rows: Object.fromEntries(inserted),
      },
      at: isoNow(options.clock ?? systemClock),
    });
    return { header, tables: header.tables.map((table) => ({ name: table.name, rows: table.rows })) };
  } catch (error) {
    if (error instanceof BackupFormatError) throw new RestoreError(error.message);
    throw error;
  } finally {
    backup?.close();
  }
}

async function migrateTo(handle: DatabaseHandle, name: string): Promise<void> {
  const migrator = new Migrator({ db: handle.db, provider: { getMigrations: async () => migrations } });
  const { error } = await migrator.migrateTo(name);
  if (error) throw new RestoreError(`Could not prepare the schema at ${name}: ${String(error)}`);
}

/** PostgreSQL booleans (none today) would not bind in SQLite; flags there are 0/1. */
function booleansAsIntegers(row: Row): Row {
  let copy: Row | undefined;
  for (const [key, value] of Object.entries(row)) {
    if (typeof value === 'boolean') {
      copy ??= { ...row };
      copy[key] = value ? 1 : 0;
    }
  }
  return copy ?? row;
}
