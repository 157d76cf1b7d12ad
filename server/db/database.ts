import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  /** Closes the pool or file handle; idempotent. */
  close(): Promise<void>;
}

/** `DATABASE_URL` selects PostgreSQL; otherwise SQLite at `DATA_DIR/repo-tracker.db` (or `sqlite:<path>`). */
export function openDatabase(options: { databaseUrl?: string; dataDir: string }): DatabaseHandle {
  const url = options.databaseUrl;
  if (url && /^postgres(ql)?:/.test(url)) return openPostgres(url);
  const file = url?.startsWith('sqlite:')
    ? url.slice('sqlite:'.length)
    : join(options.dataDir, 'repo-tracker.db');
  return openSqlite(file);
}

function openSqlite(file: string): DatabaseHandle {
  if (file !== ':memory:') mkdirSync(dirname(resolve(file)), { recursive: true });
  const sqlite = new SQLite(file);
  // docs/security.md#h1: WAL for concurrent readers, FULL so an acknowledged write survives power
  // loss (better-sqlite3 leaves NORMAL in WAL), foreign keys on, and a busy timeout so a
  // concurrent writer waits instead of failing.
  if (file !== ':memory:') sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const check = sqlite.pragma('quick_check', { simple: true });
  if (check !== 'ok') {
    sqlite.close();
    throw new Error(`SQLite quick_check failed for ${file}: ${String(check)}`);
  }
  return handleOf(new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) }), 'sqlite');
}

// int8 (bigint, count(*)) arrives as a string by default; every value we store fits a double
// (GitHub ids and counts are far below 2^53), and SQLite answers numbers, so both dialects agree.
pg.types.setTypeParser(20, (value) => Number(value));

function openPostgres(connectionString: string): DatabaseHandle {
  // JIT compilation pays off for long analytical queries only: for the catalogue's counts over
  // 100,000 rows it spent 100 ms compiling a 40 ms scan (docs/benchmarks.md). Off per session.
  const pool = new pg.Pool({
    connectionString,
    max: 10,
    connectionTimeoutMillis: 5000,
    options: '-c jit=off',
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  return handleOf(new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), 'postgres');
}

function handleOf(db: Kysely<Database>, dialect: Dialect): DatabaseHandle {
  let closed = false;
  return {
    db,
    dialect,
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy();
    },
  };
}

/**
 * The driver's code for a unique or primary-key violation: better-sqlite3's extended result
 * codes, PostgreSQL's SQLSTATE 23505. The message text differs by driver, version and locale.
 */
const UNIQUE_VIOLATION_CODES = new Set(['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY', '23505']);

/** Whether a failed write broke a unique index (a parallel writer took the value first). */
export function isUniqueViolation(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && UNIQUE_VIOLATION_CODES.has(code);
}
