import { type Kysely, sql } from 'kysely';
import { migrations } from '../../db/migrations/index.ts';
import type { Database } from '../../db/schema.ts';

/** How long a health or readiness probe waits for the database before calling it unavailable. */
export const PROBE_DEADLINE_MS = 2000;

/** `work`, or a rejection once `ms` have passed: a probe never hangs on a stuck database. */
async function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('database check timed out')), ms);
    });
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** True when a trivial query answers within two seconds. */
export async function checkDatabase(db: Kysely<Database>): Promise<boolean> {
  try {
    await withDeadline(sql`select 1`.execute(db), PROBE_DEADLINE_MS);
    return true;
  } catch {
    return false;
  }
}

export interface Readiness {
  status: 'ready' | 'not_ready';
  database: 'ok' | 'unavailable';
  /** `pending`: a migration this version needs is not recorded in the database. */
  migrations: 'ok' | 'pending' | 'unknown';
}

/**
 * Whether this instance can serve (`GET /health/ready`): the database answers and holds every
 * migration this version knows. Boot migrates before it listens, so `pending` means the schema
 * changed underneath a running instance (a restore of an older backup, a recreated database):
 * a proxy should send its traffic elsewhere until it is restarted.
 */
export async function checkReadiness(db: Kysely<Database>): Promise<Readiness> {
  let applied: string[];
  try {
    const rows = await withDeadline(
      sql<{ name: string }>`select name from kysely_migration`.execute(db),
      PROBE_DEADLINE_MS,
    );
    applied = rows.rows.map((row) => row.name);
  } catch {
    // The table may be missing (a database emptied underneath) while the server answers.
    const reachable = await checkDatabase(db);
    return reachable
      ? { status: 'not_ready', database: 'ok', migrations: 'pending' }
      : { status: 'not_ready', database: 'unavailable', migrations: 'unknown' };
  }
  const done = new Set(applied);
  const pending = Object.keys(migrations).some((name) => !done.has(name));
  return pending
    ? { status: 'not_ready', database: 'ok', migrations: 'pending' }
    : { status: 'ready', database: 'ok', migrations: 'ok' };
}
