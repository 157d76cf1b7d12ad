/**
 * The radar at scale (docs/benchmarks.md, docs/product.md#the-radar): 500 blips (and a few
 * Retired) among 100,000 repositories, one published edition to compare against, some blips at
 * risk; then `GET /radar` and `GET /radar.csv` as a member (the visibility rule applied), beside
 * the app's own `GET /health`, on SQLite and on PostgreSQL when one answers. Budget: `GET /radar`
 * ≤ 50 ms p50 at 100,000 repositories. Not a test: it reports, it never fails.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import type { Database } from '../server/db/schema.ts';
import { atMost, type Figure, measured, printFigures } from './lib/results.ts';
import { seedCatalogue } from './lib/seed-catalogue.ts';
import { startServerProcess } from './lib/server-process.ts';
import { measureLatency } from './lib/timing.ts';

const SIZES = (process.env.BENCH_SIZES ?? '100000').split(',').map(Number);
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PASSWORD = 'BenchPassw0rd!';
const BLIPS = 500;
const RETIRED = 20;
const STATUSES = ['adopt', 'trial', 'assess', 'hold'] as const;
const QUADRANTS = ['languages', 'libraries', 'tools', 'platforms'] as const;

export interface RadarRun {
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

/**
 * 500 decisions spread evenly over the catalogue, written as the decisions module writes them
 * (a record and the current row), 20 more Retired; a tenth of the blips with an at-risk grade.
 */
export async function seedDecisions(db: Kysely<Database>, deciderId: number): Promise<void> {
  const ids = (await db.selectFrom('repositories').select('id').orderBy('id').execute()).map((row) => row.id);
  const step = Math.max(1, Math.floor(ids.length / (BLIPS + RETIRED)));
  const chosen = ids.filter((_, index) => index % step === 0).slice(0, BLIPS + RETIRED);
  for (let start = 0; start < chosen.length; start += 100) {
    const chunk = chosen.slice(start, start + 100);
    const records = await db
      .insertInto('repository_decisions')
      .values(
        chunk.map((repositoryId, offset) => {
          const index = start + offset;
          return {
            repository_id: repositoryId,
            from_status: null,
            to_status: index < BLIPS ? STATUSES[index % STATUSES.length] : 'retired',
            from_quadrant: null,
            to_quadrant: QUADRANTS[Math.floor(index / 7) % QUADRANTS.length],
            rationale: `Decision ${index}: a paragraph of **Markdown**, as teams write them, with a [link](https://example.com/${index}).`,
            links: '[]',
            decided_by: deciderId,
            decided_by_name: 'bench',
            decided_at: '2026-11-01T00:00:00.000Z',
            review_by: null,
            proposal_id: null,
            review_notified_at: null,
          };
        }),
      )
      .returning(['id', 'repository_id', 'to_status', 'to_quadrant'])
      .execute();
    await db
      .insertInto('repository_decision_current')
      .values(
        records.map((record) => ({
          repository_id: record.repository_id,
          status: record.to_status,
          quadrant: record.to_quadrant,
          decision_id: record.id,
        })),
      )
      .execute();
  }
  const atRisk = chosen.slice(0, BLIPS).filter((_, index) => index % 10 === 0);
  await db.updateTable('repositories').set({ health_grade: 'at_risk' }).where('id', 'in', atRisk).execute();
}

interface Instance {
  base: string;
  token: string;
  seedSeconds: number;
  close(): Promise<void>;
}

async function start(database: 'sqlite' | 'postgres', size: number): Promise<Instance> {
  const dataDir = mkdtempSync(join(tmpdir(), 'rt-bench-radar-'));
  let databaseUrl = '';
  let dropDatabase = async () => {};
  if (database === 'postgres') {
    const name = `repo_tracker_bench_radar_${process.pid}_${size}`;
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
  };
  const started = performance.now();
  // Seeding's bulk statements (health on every row) outlast the served app's time-out on a busy machine.
  const seeder = await buildApp(loadConfig({ ...env, DATABASE_STATEMENT_TIMEOUT_MS: '600000' }));
  await seeder.ready();
  for (const name of ['bench', 'ada', 'grace', 'linus', 'margaret']) {
    const response = await seeder.inject({
      method: 'POST',
      url: '/auth/register',
      payload: {
        email: `${name}@example.com`,
        username: name,
        first_name: name,
        last_name: 'Bench',
        password: PASSWORD,
      },
    });
    if (response.statusCode >= 300) throw new Error(`register: ${response.statusCode} ${response.body}`);
  }
  const users = await seeder.db.selectFrom('users').select(['id', 'username']).orderBy('id').execute();
  await seedCatalogue(seeder.db, { count: size, userIds: users.map((user) => user.id) });
  const bench = users.find((user) => user.username === 'bench');
  if (!bench) throw new Error('no bench user');
  // Only the first account starts verified; the member who reads the radar signs in too.
  await seeder.db.updateTable('users').set({ is_verified: 1 }).execute();
  await seedDecisions(seeder.db, bench.id);
  // One edition before, so every blip is compared (`moved`) as on a real team's radar.
  await seeder.services.radar.publish({ id: bench.id, is_admin: true }, 'Bench edition');
  await seeder.close();
  const seedSeconds = (performance.now() - started) / 1000;

  const server = await startServerProcess(env);
  // A member, not an admin: the visibility rule is part of every read.
  const login = await fetch(`${server.base}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email_or_username: 'ada', password: PASSWORD }),
  });
  if (!login.ok) {
    const failure = new Error(`/auth/login: ${login.status} ${await login.text()}`);
    await server.close();
    await dropDatabase();
    throw failure;
  }
  const { access_token: token } = (await login.json()) as { access_token: string };
  return {
    base: server.base,
    token,
    seedSeconds,
    async close() {
      await server.close();
      await dropDatabase();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function measureRadar(instance: Instance, size: number, database: string): Promise<Figure[]> {
  const headers = { authorization: `Bearer ${instance.token}` };
  const get = (path: string) => fetch(`${instance.base}${path}`, { headers });
  const blips = ((await (await get('/radar')).json()) as { blips: unknown[] }).blips.length;
  const samples = 200;
  const health = await measureLatency(() => fetch(`${instance.base}/health`), samples);
  const radar = await measureLatency(() => get('/radar'), samples);
  const tagged = await measureLatency(() => get('/radar?tag=frontend'), samples);
  const csv = await measureLatency(() => get('/radar.csv'), samples);
  const at = `${size / 1000}k, ${database}`;
  const large = size >= 100_000;
  const note = `${blips} blips seen by a member`;
  return [
    measured(`GET /health p50 (${at})`, health.p50, 'ms'),
    large
      ? atMost(`GET /radar p50 (${at})`, radar.p50, 'ms', 50, note)
      : measured(`GET /radar p50 (${at})`, radar.p50, 'ms', note),
    measured(`GET /radar p99 (${at})`, radar.p99, 'ms'),
    measured(`GET /radar?tag= p50 (${at})`, tagged.p50, 'ms'),
    measured(`GET /radar.csv p50 (${at})`, csv.p50, 'ms'),
  ];
}

export async function runRadarBench(): Promise<{ runs: RadarRun[]; skipped: string[] }> {
  const runs: RadarRun[] = [];
  const skipped: string[] = [];
  const withPostgres = await withMaintenance(async () => true).catch(() => false);
  if (!withPostgres) skipped.push(`PostgreSQL: nothing answers at ${PG_URL}`);
  for (const database of ['sqlite', 'postgres'] as const) {
    if (database === 'postgres' && !withPostgres) continue;
    for (const size of SIZES) {
      console.log(`\n[radar] ${database}, ${size.toLocaleString('en-US')} repositories: seeding…`);
      const instance = await start(database, size);
      try {
        console.log(`[radar] seeded in ${instance.seedSeconds.toFixed(1)} s; measuring…`);
        const figures = await measureRadar(instance, size, database);
        printFigures(`${database}, ${size.toLocaleString('en-US')} repositories, ${BLIPS} blips`, figures);
        runs.push({ database, size, seed_seconds: Math.round(instance.seedSeconds * 10) / 10, figures });
      } finally {
        await instance.close();
      }
    }
  }
  return { runs, skipped };
}
