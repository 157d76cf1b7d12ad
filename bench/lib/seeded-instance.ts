import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { type Figure, printFigures } from './results.ts';
import { startServerProcess } from './server-process.ts';

/**
 * What the feature benchmarks share (radar, badges): a catalogue seeded through the app on
 * SQLite or on a PostgreSQL database of its own, then the app served by its own process
 * (server-process.ts), each size on each database that answers.
 */
export const BENCH_SIZES = (process.env.BENCH_SIZES ?? '100000').split(',').map(Number);
export const BENCH_PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const BENCH_PASSWORD = 'BenchPassw0rd!';

export type BenchDatabase = 'sqlite' | 'postgres';

export interface SeededRun {
  database: BenchDatabase;
  size: number;
  seed_seconds: number;
  figures: Figure[];
}

export interface SeededInstance {
  base: string;
  seedSeconds: number;
  close(): Promise<void>;
}

async function withMaintenance<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: BENCH_PG_URL, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Public calls from many readers: each call's headers name an address of its own
 * (X-Forwarded-For, behind `TRUST_PROXY=127.0.0.1`), so a per-address limit is counted, never reached.
 */
export const PUBLIC_READERS_ENV = { TRUST_PROXY: '127.0.0.1' };
export function distinctReaders(): () => Record<string, string> {
  let client = 0;
  return () => {
    client += 1;
    return { 'x-forwarded-for': `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client & 255}` };
  };
}

/** Registers a member through the app, as a person would (the first one becomes the admin). */
export async function registerMember(app: FastifyInstance, username: string): Promise<void> {
  const response = await app.inject({
    method: 'POST',
    url: '/auth/register',
    payload: {
      email: `${username}@example.com`,
      username,
      first_name: username,
      last_name: 'Bench',
      password: BENCH_PASSWORD,
    },
  });
  if (response.statusCode >= 300) throw new Error(`register: ${response.statusCode} ${response.body}`);
}

/**
 * A fresh data folder (and PostgreSQL database), seeded by `seed` through an app built for it,
 * then served. `env` adds the feature's settings to both.
 */
export async function startSeededInstance(
  label: string,
  database: BenchDatabase,
  size: number,
  options: { env?: Record<string, string>; seed: (seeder: FastifyInstance) => Promise<void> },
): Promise<SeededInstance> {
  const dataDir = mkdtempSync(join(tmpdir(), `rt-bench-${label}-`));
  let databaseUrl = '';
  let dropDatabase = async () => {};
  if (database === 'postgres') {
    const name = `repo_tracker_bench_${label}_${process.pid}_${size}`;
    await withMaintenance((client) => client.query(`CREATE DATABASE ${name}`));
    const url = new URL(BENCH_PG_URL);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      await withMaintenance((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    };
  }
  const env = {
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'silent',
    SECRET_KEY: 'bench-secret-key-0123456789abcdef0123456789abcdef',
    SYNC_SCHEDULE: 'off',
    BACKUP_SCHEDULE: 'off',
    GITHUB_API_URL: 'http://127.0.0.1:9',
    ...options.env,
  };
  const cleanUp = async () => {
    await dropDatabase();
    rmSync(dataDir, { recursive: true, force: true });
  };
  const started = performance.now();
  try {
    // Seeding's bulk statements outlast the served app's time-out on a busy machine.
    const seeder = await buildApp(loadConfig({ ...env, DATABASE_STATEMENT_TIMEOUT_MS: '600000' }));
    try {
      await seeder.ready();
      await options.seed(seeder);
    } finally {
      await seeder.close();
    }
  } catch (error) {
    await cleanUp();
    throw error;
  }
  const seedSeconds = (performance.now() - started) / 1000;
  const server = await startServerProcess(env).catch(async (error: unknown) => {
    await cleanUp();
    throw error;
  });
  return {
    base: server.base,
    seedSeconds,
    async close() {
      await server.close();
      await cleanUp();
    },
  };
}

/**
 * Each size on SQLite, then on PostgreSQL when one answers: `start` seeds and serves, `measure`
 * reads the figures, which are printed under `title` and returned with the seeding's time.
 */
export async function runOnEachDatabase<I extends SeededInstance>(
  label: string,
  start: (database: BenchDatabase, size: number) => Promise<I>,
  measure: (instance: I, size: number, database: BenchDatabase) => Promise<Figure[]>,
  title: (database: BenchDatabase, size: number) => string = (database, size) =>
    `${database}, ${size.toLocaleString('en-US')} repositories`,
): Promise<{ runs: SeededRun[]; skipped: string[] }> {
  const runs: SeededRun[] = [];
  const skipped: string[] = [];
  const withPostgres = await withMaintenance(async () => true).catch(() => false);
  if (!withPostgres) skipped.push(`PostgreSQL: nothing answers at ${BENCH_PG_URL}`);
  for (const database of ['sqlite', 'postgres'] as const) {
    if (database === 'postgres' && !withPostgres) continue;
    for (const size of BENCH_SIZES) {
      console.log(`\n[${label}] ${database}, ${size.toLocaleString('en-US')} repositories: seeding…`);
      const instance = await start(database, size);
      try {
        console.log(`[${label}] seeded in ${instance.seedSeconds.toFixed(1)} s; measuring…`);
        const figures = await measure(instance, size, database);
        printFigures(title(database, size), figures);
        runs.push({ database, size, seed_seconds: Math.round(instance.seedSeconds * 10) / 10, figures });
      } finally {
        await instance.close();
      }
    }
  }
  return { runs, skipped };
}
