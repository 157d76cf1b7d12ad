/**
 * Badges at scale (docs/benchmarks.md, docs/product.md#badges): a catalogue of 100,000
 * repositories (2% private), a tracked version on every hundredth, then
 * `GET /badge/{owner}/{name}/{kind}.svg` of 200 public repositories taken in turn, each kind,
 * beside the app's own `GET /health`, on SQLite and on PostgreSQL when one answers. Budget: a
 * badge ≤ 5 ms p50 at 100,000 repositories. Not a test: it reports, it never fails.
 */
import { atMost, type Figure, measured } from './lib/results.ts';
import { seedCatalogue } from './lib/seed-catalogue.ts';
import {
  type BenchDatabase,
  distinctReaders,
  PUBLIC_READERS_ENV,
  registerMember,
  runOnEachDatabase,
  type SeededInstance,
  type SeededRun,
  startSeededInstance,
} from './lib/seeded-instance.ts';
import { measureLatency } from './lib/timing.ts';

const KINDS = ['stars', 'growth', 'health', 'release', 'advisories'] as const;
const NAMES = 200;

export type BadgesRun = SeededRun;

interface Instance extends SeededInstance {
  /** Public repositories spread over the catalogue, as `owner/name`. */
  names: string[];
}

async function start(database: BenchDatabase, size: number): Promise<Instance> {
  let names: string[] = [];
  const instance = await startSeededInstance('badges', database, size, {
    env: {
      PUBLIC_BADGES: 'on',
      // Each request from an address of its own, as a README's or a page's readers come.
      ...PUBLIC_READERS_ENV,
    },
    seed: async (seeder) => {
      await registerMember(seeder, 'bench');
      const users = await seeder.db.selectFrom('users').select('id').execute();
      await seedCatalogue(seeder.db, { count: size, userIds: users.map((user) => user.id) });
      const rows = await seeder.db
        .selectFrom('repositories')
        .select(['id', 'full_name', 'private'])
        .orderBy('id')
        .execute();
      // A tracked version on every hundredth repository.
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
      const publicRows = rows.filter((row) => row.private === 0);
      const step = Math.max(1, Math.floor(publicRows.length / NAMES));
      names = publicRows.filter((_, index) => index % step === 0).map((row) => row.full_name);
    },
  });
  return { ...instance, names };
}

async function measureBadges(instance: Instance, size: number, database: string): Promise<Figure[]> {
  const from = distinctReaders();
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

export function runBadgesBench(): Promise<{ runs: BadgesRun[]; skipped: string[] }> {
  return runOnEachDatabase('badges', start, measureBadges);
}
