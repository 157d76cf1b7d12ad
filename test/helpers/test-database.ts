import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { type DatabaseHandle, openDatabase } from '../../server/db/database.ts';

/**
 * Which database the integration suite runs on: `TEST_DB=postgres` (scripts/test.ts sets it
 * for the second pass) or SQLite in memory by default.
 */
export const testDialect = process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite';

/** Maintenance connection used to create and drop the per-file databases. */
export const testPostgresUrl = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * A fresh, empty database for one test file: SQLite in memory, or a new PostgreSQL database
 * that `dispose()` drops again. Nothing is shared between files, so files run in parallel.
 */
export function createTestDatabase(): Promise<ScratchDatabase> {
  return createScratchDatabase(testDialect);
}

export interface ScratchDatabase {
  handle: DatabaseHandle;
  url: string;
  dispose(): Promise<void>;
}

/**
 * A fresh, empty database of either dialect, whichever pass runs (restores and parity checks
 * cross dialects): SQLite in memory, or in its own file under `dir` (as a restore target is);
 * PostgreSQL as a new database that `dispose()` drops.
 */
export async function createScratchDatabase(
  dialect: 'sqlite' | 'postgres',
  options: { dir?: string } = {},
): Promise<ScratchDatabase> {
  if (dialect === 'sqlite') {
    const dataDir = options.dir ? mkdtempSync(join(options.dir, 'sqlite-')) : '.';
    const url = options.dir ? `sqlite:${join(dataDir, 'database.db')}` : 'sqlite::memory:';
    const handle = openDatabase({ databaseUrl: url, dataDir });
    return { handle, url, dispose: () => handle.close() };
  }
  const name = `rt_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await withMaintenanceClient((client) => client.query(`CREATE DATABASE ${name}`));
  const target = new URL(testPostgresUrl);
  target.pathname = `/${name}`;
  const url = target.toString();
  const handle = openDatabase({ databaseUrl: url, dataDir: options.dir ?? '.' });
  return {
    handle,
    url,
    async dispose() {
      await handle.close();
      await withMaintenanceClient((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/** Whether a PostgreSQL server answers at TEST_PG_URL: the SQLite pass uses one for cross-dialect cases when it can. */
export async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: testPostgresUrl, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function withMaintenanceClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: testPostgresUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
