import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { type DatabaseHandle, openDatabase } from '../../server/db/database.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';

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
 * `migrated` (the test app's): on PostgreSQL a copy of a migrated template, as the app's own
 * migration would leave it (see `migratedTemplate`); SQLite migrates in milliseconds anyway.
 */
export function createTestDatabase(options: { migrated?: boolean } = {}): Promise<ScratchDatabase> {
  return createScratchDatabase(testDialect, options);
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
  options: { dir?: string; migrated?: boolean } = {},
): Promise<ScratchDatabase> {
  if (dialect === 'sqlite') {
    const dataDir = options.dir ? mkdtempSync(join(options.dir, 'sqlite-')) : '.';
    const url = options.dir ? `sqlite:${join(dataDir, 'database.db')}` : 'sqlite::memory:';
    const handle = openDatabase({ databaseUrl: url, dataDir });
    return { handle, url, dispose: () => handle.close() };
  }
  const name = `rt_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const template = options.migrated ? ` TEMPLATE ${await migratedTemplate()}` : '';
  await withMaintenanceClient((client) => client.query(`CREATE DATABASE ${name}${template}`));
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

let template: Promise<string> | undefined;

/**
 * A PostgreSQL database with every migration applied, which test databases are copied from:
 * migrating a new database took about 350 ms of every test app's start on PostgreSQL, a copy
 * takes a few tens. Its name carries a hash of the migrations' source, so a changed migration
 * gets a new template; it is built under a temporary name and renamed when complete, so a
 * process running at the same time never copies a half-migrated one.
 */
function migratedTemplate(): Promise<string> {
  template ??= (async () => {
    const directory = join(import.meta.dirname, '../../server/db/migrations');
    const hash = createHash('sha256');
    for (const file of readdirSync(directory).sort())
      hash.update(file).update(readFileSync(join(directory, file)));
    const name = `rt_template_${hash.digest('hex').slice(0, 16)}`;
    const exists = await withMaintenanceClient((client) =>
      client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]),
    );
    if (exists.rowCount) return name;
    const building = `${name}_${process.pid}_${randomBytes(4).toString('hex')}`;
    await withMaintenanceClient((client) => client.query(`CREATE DATABASE ${building}`));
    const url = new URL(testPostgresUrl);
    url.pathname = `/${building}`;
    const handle = openDatabase({ databaseUrl: url.toString(), dataDir: '.' });
    try {
      await (handle.withoutStatementTimeout?.(migrateToLatest) ?? migrateToLatest(handle.db));
    } finally {
      await handle.close();
    }
    await withMaintenanceClient(async (client) => {
      try {
        await client.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
      } catch {
        // Another process finished the same template first.
        await client.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      }
    });
    return name;
  })();
  return template;
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
