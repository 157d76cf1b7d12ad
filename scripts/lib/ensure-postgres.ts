import { readdirSync } from 'node:fs';
import pg from 'pg';
import { run } from './run.ts';

export const TEST_PG_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function reachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: TEST_PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Whether the PostgreSQL pass can run. Under CI it is mandatory: a stopped local cluster is
 * started with pg_ctlcluster, and if that fails the caller fails the run.
 */
export async function ensurePostgres(mandatory: boolean): Promise<boolean> {
  if (await reachable()) return true;
  if (!mandatory) return false;
  let versions: string[] = [];
  try {
    versions = readdirSync('/etc/postgresql');
  } catch {
    // No Debian cluster configuration: nothing to start.
  }
  for (const version of versions) {
    console.log(`postgres: starting cluster ${version}/main…`);
    await run('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start']);
  }
  for (let attempt = 0; attempt < 20; attempt++) {
    if (await reachable()) return true;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return false;
}
