/**
 * Badges at scale (docs/benchmarks.md, docs/product.md#badges): a catalogue of 100,000
 * repositories (2% private), a tracked version on every hundredth, then
 * `GET /badge/{owner}/{name}/{kind}.svg` of 200 public repositories taken in turn, each kind,
 * beside the app's own `GET /health`, on SQLite and on PostgreSQL when one answers. Budget: a
 * badge ≤ 5 ms p50 at 100,000 repositories. Not a test: it reports, it never fails.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { atMost, type Figure, measured, printFigures } from './lib/results.ts';
import { seedCatalogue } from './lib/seed-catalogue.ts';
import { startServerProcess } from './lib/server-process.ts';
import { measureLatency } from './lib/timing.ts';

const SIZES = (process.env.BENCH_SIZES ?? '100000').split(',').map(Number);
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const KINDS = ['stars', 'growth', 'health', 'release', 'advisories'] as const;
const NAMES = 200;

export interface BadgesRun {
  database: 'sqlite' | 'postgres';
  size: number;
  seed_seconds: number;
  figures: Figure[];
}

async function withMaintenance<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

interface Instance {
  base: string;
  /** Public repositories spread over the catalogue, as `owner/name`. */
  names: string[];
  seedSeconds: number;
  close(): Promise<void>;
}

async function start(database: 'sqlite' | 'postgres', size: number): Promise<Instance> {
  const dataDir = mkdtempSync(join(tmpdir(), 'rt-bench-badges-'));
  let databaseUrl = '';
  let dropDatabase = async () => {};
  if (database === 'postgres') {
    const name = `repo_tracker_bench_badges_${process.pid}_${size}`;
    await withMaintenance((client) => client.query(`CREATE DATABASE ${name}`));
    const url = new URL(PG_URL);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = () =>
      withMaintenance((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(
        () => {},
      );
  }
  const env = {
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'silent',
    SECRET_KEY: 'bench-secret-key-0123456789abcdef0123456789abcdef',
    SYNC_SCHEDULE: 'off',
    BACKUP_SCHEDULE: 'off',
    GITHUB_API_URL: 'http://127.0.0.1:9',
    PUBLIC_BADGES: 'on',
    // Each request comes from an address of its own (X-Forwarded-For), as a README's readers do:
    // the per-address limit (300 a minute) is counted, never reached.
    TRUST_PROXY: '127.0.0.1',
  };
  const started = performance.now();
  const seeder = await buildApp(loadConfig({ ...env, DATABASE_STATEMENT_TIMEOUT_MS: '600000' }));
  await seeder.ready();
  const response = await seeder.inject({
    method: 'POST',
    url: '/auth/register',
    payload: {
      email: 'bench@example.com',
      username: 'bench',
      first_name: 'bench',
      last_name: 'Bench',
      password: 'BenchPassw0rd!',
    },
  });
  if (response.statusCode >= 300) throw new Error(`register: ${response.statusCode} ${response.body}`);
  const users = await seeder.db.selectFrom('users').select('id').execute();
  await seedCatalogue(seeder.db, { count: size, userIds: users.map((user) => user.id) });
  const rows = await seeder.db
    .selectFrom('repositories')
    .select(['id', 'full_name', 'private'])
    .orderBy('id')
    .execute();
  for (let start = 0; start < rows.length; start += 100 * 500) {
    const chunk = rows.slice(start, start + 100 * 500).filter((_, index) => index % 100 === 0);
    await seeder.db
      .insertInto('versions')
      .values(
        chunk.map((row) => ({
          repository_id: row.id,
          user_id: null,
          version_number: `v1.${row.id % 50}.0`,
          release_date: '2026-10-01',
          description: null,
          snapshot: '{}',
          created_at: '2026-10-01T00:00:00.000Z',
        })),
      )
      .execute();
  }
  await seeder.close();
  const seedSeconds = (performance.now() - started) / 1000;
  const publicRows = rows.filter((row) => row.private === 0);
  const step = Math.max(1, Math.floor(publicRows.length / NAMES));
  const names = publicRows.filter((_, index) => index % step === 0).map((row) => row.full_name);

  const server = await startServerProcess(env);
  return {
    base: server.base,
    names,
    seedSeconds,
    async close() {
      await server.close();
      await dropDatabase();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function measureBadges(instance: Instance, size: number, database: string): Promise<Figure[]> {
  let client = 0;
  const from = () => {
    client += 1;
    return { 'x-forwarded-for': `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client & 255}` };
  };
  const badge = (i: number, kind: string, headers: Record<string, string> = {}) =>
    fetch(`${instance.base}/badge/${instance.names[i % instance.names.length]}/${kind}.svg`, {
      headers: { ...from(), ...headers },
    });
  const samples = 200;
  const health = await measureLatency(() => fetch(`${instance.base}/health`), samples);
  const at = `${size / 1000}k, ${database}`;
  const large = size >= 100_000;
  const figures: Figure[] = [measured(`GET /health p50 (${at})`, health.p50, 'ms')];
  for (const kind of KINDS) {
    const latency = await measureLatency((i) => badge(i, kind), samples);
    const name = `GET /badge/…/${kind}.svg p50 (${at})`;
    const note = `${instance.names.length} public repositories in turn`;
    figures.push(large ? atMost(name, latency.p50, 'ms', 5, note) : measured(name, latency.p50, 'ms', note));
  }
  const etag = (await badge(0, 'stars')).headers.get('etag') ?? '';
  const notModified = await measureLatency(
    () =>
      badge(0, 'stars', { 'if-none-match': etag }).then(
        (answer) => new Response(null, { status: answer.status === 304 ? 200 : answer.status }),
      ),
    samples,
  );
  figures.push(measured(`GET /badge 304 p50 (${at})`, notModified.p50, 'ms', 'If-None-Match with the ETag'));
  return figures;
}

export async function runBadgesBench(): Promise<{ runs: BadgesRun[]; skipped: string[] }> {
  const runs: BadgesRun[] = [];
  const skipped: string[] = [];
  const withPostgres = await withMaintenance(async () => true).catch(() => false);
  if (!withPostgres) skipped.push(`PostgreSQL: nothing answers at ${PG_URL}`);
  for (const database of ['sqlite', 'postgres'] as const) {
    if (database === 'postgres' && !withPostgres) continue;
    for (const size of SIZES) {
      console.log(`\n[badges] ${database}, ${size.toLocaleString('en-US')} repositories: seeding…`);
      const instance = await start(database, size);
      try {
        console.log(`[badges] seeded in ${instance.seedSeconds.toFixed(1)} s; measuring…`);
        const figures = await measureBadges(instance, size, database);
        printFigures(`${database}, ${size.toLocaleString('en-US')} repositories`, figures);
        runs.push({ database, size, seed_seconds: Math.round(instance.seedSeconds * 10) / 10, figures });
      } finally {
        await instance.close();
      }
    }
  }
  return { runs, skipped };
}
