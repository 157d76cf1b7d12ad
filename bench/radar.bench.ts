/**
 * The radar at scale (docs/benchmarks.md, docs/product.md#the-radar): 500 blips (and a few
 * Retired) among 100,000 repositories, one published edition to compare against, some blips at
 * risk; then `GET /radar` and `GET /radar.csv` as a member (the visibility rule applied), beside
 * the app's own `GET /health`, on SQLite and on PostgreSQL when one answers. Budget: `GET /radar`
 * ≤ 50 ms p50 at 100,000 repositories. Not a test: it reports, it never fails.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../server/db/schema.ts';
import { atMost, type Figure, measured } from './lib/results.ts';
import { seedCatalogue } from './lib/seed-catalogue.ts';
import {
  BENCH_PASSWORD,
  type BenchDatabase,
  registerMember,
  runOnEachDatabase,
  type SeededInstance,
  type SeededRun,
  startSeededInstance,
} from './lib/seeded-instance.ts';
import { measureLatency } from './lib/timing.ts';

const BLIPS = 500;
const RETIRED = 20;
const STATUSES = ['adopt', 'trial', 'assess', 'hold'] as const;
const QUADRANTS = ['languages', 'libraries', 'tools', 'platforms'] as const;

export type RadarRun = SeededRun;

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
    // The list's copy on the repository row, as the decisions module keeps it.
    for (const record of records)
      await db
        .updateTable('repositories')
        .set({ decision_status: record.to_status, decision_quadrant: record.to_quadrant })
        .where('id', '=', record.repository_id)
        .execute();
  }
  const atRisk = chosen.slice(0, BLIPS).filter((_, index) => index % 10 === 0);
  await db.updateTable('repositories').set({ health_grade: 'at_risk' }).where('id', 'in', atRisk).execute();
}

interface Instance extends SeededInstance {
  /** A member's (not an admin's) access token: the visibility rule is part of every read. */
  token: string;
}

async function start(database: BenchDatabase, size: number): Promise<Instance> {
  const instance = await startSeededInstance('radar', database, size, {
    seed: async (seeder) => {
      for (const name of ['bench', 'ada', 'grace', 'linus', 'margaret']) await registerMember(seeder, name);
      const users = await seeder.db.selectFrom('users').select(['id', 'username']).orderBy('id').execute();
      await seedCatalogue(seeder.db, { count: size, userIds: users.map((user) => user.id) });
      const bench = users.find((user) => user.username === 'bench');
      if (!bench) throw new Error('no bench user');
      // Only the first account starts verified; the member who reads the radar signs in too.
      await seeder.db.updateTable('users').set({ is_verified: 1 }).execute();
      await seedDecisions(seeder.db, bench.id);
      // One edition before, so every blip is compared (`moved`) as on a real team's radar.
      await seeder.services.radar.publish({ id: bench.id, is_admin: true }, 'Bench edition');
    },
  });
  const login = await fetch(`${instance.base}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email_or_username: 'ada', password: BENCH_PASSWORD }),
  });
  if (!login.ok) {
    const failure = new Error(`/auth/login: ${login.status} ${await login.text()}`);
    await instance.close();
    throw failure;
  }
  const { access_token: token } = (await login.json()) as { access_token: string };
  return { ...instance, token };
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

export function runRadarBench(): Promise<{ runs: RadarRun[]; skipped: string[] }> {
  return runOnEachDatabase(
    'radar',
    start,
    measureRadar,
    (database, size) => `${database}, ${size.toLocaleString('en-US')} repositories, ${BLIPS} blips`,
  );
}
