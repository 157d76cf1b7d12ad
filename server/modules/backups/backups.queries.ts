import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { isExcludedTable, orderTables, type TableInfo, TRANSIENT_TABLES } from './backup-format.ts';

// Backups and restores work on whatever tables the schema has, so they address tables and
// columns by name rather than through the typed schema.
type Db = Kysely<Database> | Transaction<Database>;
export type Row = Record<string, unknown>;

/** The tables a backup holds (no views, no Kysely bookkeeping, no transient tables, only PostgreSQL's `public`). */
export async function listTables(db: Db): Promise<TableInfo[]> {
  return (await listAllTables(db))
    .filter((table) => !isExcludedTable(table.name))
    .map((table) => ({ name: table.name, columns: table.columns }));
}

/** The transient tables this database has (a restore empties them). */
export async function listTransientTables(db: Db): Promise<string[]> {
  return (await listAllTables(db))
    .map((table) => table.name)
    .filter((name) => TRANSIENT_TABLES.includes(name));
}

async function listAllTables(db: Db): Promise<TableInfo[]> {
  const tables = await db.introspection.getTables();
  return tables
    .filter((table) => !table.isView)
    .filter((table) => table.schema === undefined || table.schema === 'public')
    .map((table) => ({ name: table.name, columns: table.columns.map((column) => column.name) }));
}

export async function listTablesInOrder(db: Db) {
  return orderTables(await listTables(db));
}

/** The newest migration the database has run: the backup's schema version. */
export async function latestAppliedMigration(db: Db): Promise<string | null> {
  const result = await sql<{
    name: string;
  }>`select name from kysely_migration order by name desc limit 1`.execute(db);
  return result.rows[0]?.name ?? null;
}

export async function countRows(db: Db, table: string): Promise<number> {
  const result = await sql<{
    count: number | string;
  }>`select count(*) as count from ${sql.table(table)}`.execute(db);
  return Number(result.rows[0]?.count ?? 0);
}

/**
 * Every row of a table, `batchSize` at a time, so memory stays flat whatever the table's size.
 * With a key, pages follow it (`(k1, k2) > (last1, last2)`); without one, by offset in the order
 * of all columns. Inside one read transaction both see one snapshot.
 */
export async function* readTableRows(
  db: Db,
  table: { name: string; columns: string[]; key: readonly string[] | null },
  batchSize = 500,
): AsyncGenerator<Row[]> {
  const name = sql.table(table.name);
  if (!table.key) {
    const order = sql.join(table.columns.map((column) => sql.ref(column)));
    for (let offset = 0; ; offset += batchSize) {
      const { rows } =
        await sql<Row>`select * from ${name} order by ${order} limit ${batchSize} offset ${offset}`.execute(
          db,
        );
      if (rows.length > 0) yield rows;
      if (rows.length < batchSize) return;
    }
  }
  const keyColumns = table.key;
  const keyList = sql.join(keyColumns.map((column) => sql.ref(column)));
  let last: Row | undefined;
  for (;;) {
    const after = last
      ? sql`where (${keyList}) > (${sql.join(keyColumns.map((column) => (last as Row)[column]))})`
      : sql``;
    const { rows } =
      await sql<Row>`select * from ${name} ${after} order by ${keyList} limit ${batchSize}`.execute(db);
    if (rows.length > 0) yield rows;
    if (rows.length < batchSize) return;
    last = rows[rows.length - 1];
  }
}

export async function deleteAllRows(db: Db, table: string): Promise<void> {
  await sql`delete from ${sql.table(table)}`.execute(db);
}

export async function insertRows(db: Db, table: string, columns: string[], rows: Row[]): Promise<void> {
  if (rows.length === 0) return;
  const values = sql.join(
    rows.map((row) => sql`(${sql.join(columns.map((column) => row[column] ?? null))})`),
  );
  await sql`insert into ${sql.table(table)} (${sql.join(columns.map((column) => sql.ref(column)))}) values ${values}`.execute(
    db,
  );
}

/**
 * After rows were inserted with their own ids, PostgreSQL's identity sequences still start at 1:
 * move each to just past the table's highest id. Tables without an identity `id` are skipped.
 */
export async function resetIdentitySequence(db: Db, table: string): Promise<void> {
  await sql`select setval(pg_get_serial_sequence(${table}, 'id'), coalesce(max(id), 0) + 1, false) from ${sql.table(
    table,
  )}`.execute(db);
}
