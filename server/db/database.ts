import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import SQLite from 'better-sqlite3';
import {
  Kysely,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  PostgresDialect,
  type QueryResult,
  type RootOperationNode,
  SqliteDialect,
  sql,
  type UnknownRow,
} from 'kysely';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { Database } from './schema.ts';

export type Dialect = 'sqlite' | 'postgres';

/** Reads what a `COPY … TO STDOUT` statement sends, whole (`DatabaseHandle.copyOut`). */
export type CopyOut = (statement: string) => Promise<Buffer[]>;

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  /**
   * PostgreSQL's connection pool as it stands (for `GET /metrics`); null on SQLite, whose one
   * file handle is always there. (Optional, like the next one, for handles tests wrap.)
   */
  poolStats?(): PoolStats | null;
  /**
   * Runs `work` on one connection without the statement time-out: migrations rewrite whole
   * tables and wait for another instance's migration lock, both longer than any request may.
   */
  withoutStatementTimeout?<T>(work: (db: Kysely<Database>) => Promise<T>): Promise<T>;
  /**
   * PostgreSQL only: what `COPY … TO STDOUT` sends, read whole, on a pooled connection that is
   * free again before the caller sees a byte (so a slow reader never holds it). The statement
   * is sent as it is — COPY takes no parameters — so it must hold no value a request chose.
   * The CSV export's pages (docs/decisions.md, "CSV export").
   */
  copyOut?: CopyOut;
  /** Closes the pool or file handle; idempotent. */
  close(): Promise<void>;
}

export interface PoolStats {
  /** Open connections, idle ones included. */
  total: number;
  idle: number;
  /** Queries waiting for a connection because all `max` are in use. */
  waiting: number;
  max: number;
}

export interface DatabaseOptions {
  databaseUrl?: string;
  dataDir: string;
  /** PostgreSQL only: connections in the pool (DATABASE_POOL_MAX, default 10). */
  databasePoolMax?: number;
  /** PostgreSQL only: how long opening a connection may take (DATABASE_CONNECT_TIMEOUT_MS, default 5 s). */
  databaseConnectTimeoutMs?: number;
  /** PostgreSQL only: the longest one statement may run (DATABASE_STATEMENT_TIMEOUT_MS, default 30 s). */
  databaseStatementTimeoutMs?: number;
}

/** `DATABASE_URL` selects PostgreSQL; otherwise SQLite at `DATA_DIR/repo-tracker.db` (or `sqlite:<path>`). */
export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  const url = options.databaseUrl;
  if (url && /^postgres(ql)?:/.test(url)) return openPostgres(url, options);
  const file = url?.startsWith('sqlite:')
    ? url.slice('sqlite:'.length)
    : join(options.dataDir, 'repo-tracker.db');
  return openSqlite(file);
}

/**
 * better-sqlite3 answers synchronously, so a promise of a query result is already settled and a
 * loop that only queries (a background job walking thousands of rows) never lets the event loop
 * take a request: one history backfill over 10,000 repositories without a token held every
 * request for 13 s. After each query, the rest waits for the next turn of the event loop, so
 * requests and jobs take turns. PostgreSQL's queries are real I/O and need nothing.
 */
class TakeTurns implements KyselyPlugin {
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    await nextTurn();
    return args.result;
  }
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
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: sqlite }),
    plugins: [new TakeTurns()],
  });
  return handleOf(db, 'sqlite', {
    poolStats: () => null,
    withoutStatementTimeout: (work) => work(db),
  });
}

// int8 (bigint, count(*)) arrives as a string by default; every value we store fits a double
// (GitHub ids and counts are far below 2^53), and SQLite answers numbers, so both dialects agree.
pg.types.setTypeParser(20, (value) => Number(value));

function openPostgres(connectionString: string, options: DatabaseOptions): DatabaseHandle {
  const max = options.databasePoolMax ?? 10;
  const statementTimeoutMs = options.databaseStatementTimeoutMs ?? 30_000;
  // JIT compilation pays off for long analytical queries only: for the catalogue's counts over
  // 100,000 rows it spent 100 ms compiling a 40 ms scan (docs/benchmarks.md). Off per session.
  // The statement time-out is a session setting too, so a query stuck behind a lock or on an
  // overloaded server fails (503) instead of holding a request and a connection for ever.
  const pool = new pg.Pool({
    connectionString,
    max,
    connectionTimeoutMillis: options.databaseConnectTimeoutMs ?? 5000,
    options: `-c jit=off -c statement_timeout=${statementTimeoutMs}`,
  });
  // A client whose connection is cut (the server restarted, a fail-over, pg_terminate_backend)
  // is dropped from the pool by pg, and the next query opens a new one: the app reconnects by
  // itself. An idle client losing its connection must not crash the process meanwhile.
  pool.on('error', () => {});
  // pg-pool listens for errors only on idle clients. A client checked out (a transaction, the
  // job worker's claim) when its connection is cut emits 'error' with nobody listening, which
  // would crash the process; its query fails on its own and pg-pool drops it on release.
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return handleOf(db, 'postgres', {
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max }),
    withoutStatementTimeout: (work) =>
      db.connection().execute(async (connection) => {
        await sql`set statement_timeout = 0`.execute(connection);
        try {
          return await work(connection);
        } finally {
          // The connection goes back to the pool: it keeps the pool's time-out like the others.
          await sql`reset statement_timeout`.execute(connection).catch(() => {});
        }
      }),
    copyOut: async (statement) => {
      const client = await pool.connect();
      const chunks: Buffer[] = [];
      try {
        for await (const chunk of client.query(copyTo(statement))) chunks.push(chunk as Buffer);
      } catch (error) {
        // The connection may be mid-COPY: it is closed rather than given to the next query.
        client.release(error as Error);
        throw error;
      }
      client.release();
      return chunks;
    },
  });
}

function handleOf(
  db: Kysely<Database>,
  dialect: Dialect,
  extra: Required<Pick<DatabaseHandle, 'poolStats' | 'withoutStatementTimeout'>> &
    Pick<DatabaseHandle, 'copyOut'>,
): DatabaseHandle {
  let closed = false;
  return {
    db,
    dialect,
    ...extra,
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
/** Runs `work` in the caller's transaction, or in a new one. */
export async function inTransaction<T, D extends Kysely<Database>>(
  db: D,
  work: (trx: D) => Promise<T>,
): Promise<T> {
  if (db.isTransaction) return work(db);
  return db.transaction().execute((trx) => work(trx as unknown as D));
}

export function isUniqueViolation(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && UNIQUE_VIOLATION_CODES.has(code);
}

/**
 * SQLSTATEs and driver codes that mean "the database can't serve right now", not "this query is
 * wrong": the connection was cut or refused, the server is starting or shutting down, out of
 * connections, or a statement ran past DATABASE_STATEMENT_TIMEOUT_MS. Requests that meet one
 * answer 503 (docs/operations.md#database-faults); retrying later can succeed.
 */
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01', // admin_shutdown: the backend was terminated (pg_terminate_backend, a restart)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up or in recovery
  '57014', // query_canceled: the statement time-out
  '53300', // too_many_connections
  '53400', // configuration_limit_exceeded
]);
const UNAVAILABLE_NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'SQLITE_BUSY',
]);

/** Whether a failed query failed because the database was unreachable or overloaded. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_NODE_CODES.has(code)) return true;
    // Class 08: connection exceptions.
    if (/^08[0-9A-Z]{3}$/.test(code)) return true;
    // 55000 is broad; it means "unavailable" only for a database closed to new connections.
    if (
      code === '55000' &&
      typeof message === 'string' &&
      /not currently accepting connections/.test(message)
    )
      return true;
  }
  // node-postgres raises these without a code: a connection that ended mid-query, an attempt
  // past the pool's connection time-out, a query on a client whose connection is gone.
  return (
    typeof message === 'string' &&
    /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed)/.test(
      message,
    )
  );
}
