import { type CreateTableBuilder, type Kysely, PostgresAdapter } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run against an untyped Kysely
type AnyDb = Kysely<any>;

export function isPostgres(db: AnyDb): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** An integer primary key the database numbers itself: identity on PostgreSQL, rowid alias on SQLite. */
export function withIdColumn<T extends string>(db: AnyDb, table: CreateTableBuilder<T, never>) {
  return table.addColumn('id', 'integer', (col) =>
    isPostgres(db) ? col.primaryKey().generatedByDefaultAsIdentity() : col.primaryKey().autoIncrement(),
  );
}
