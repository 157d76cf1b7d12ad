/**
 * Public pages at scale (docs/benchmarks.md, docs/product.md#public-pages): a catalogue of
 * 100,000 repositories (2% private), a shared view "by stars" published with every field, then
 * its page `GET /p/{slug}` (HTML, 100 rows), `.json` and `.atom`, each request from an address of
 * its own, beside the app's own `GET /health`, on SQLite and on PostgreSQL when one answers.
 * Budget: a public page of 100 rows ≤ 20 ms p50 at 100,000 repositories. Not a test: it reports,
 * it never fails.
 */
import { PUBLIC_PAGE_FIELDS } from '#shared/schemas/public-pages.ts';
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

export type PublicPagesRun = SeededRun;

interface Instance extends SeededInstance {
  /** The published view's path, `/p/{slug}`. */
  path: string;
}

async function start(database: BenchDatabase, size: number): Promise<Instance> {
  let path = '';
  const instance = await startSeededInstance('public_pages', database, size, {
    env: {
      PUBLIC_PAGES: 'on',
      // Each request from an address of its own, as a README's or a page's readers come.
      ...PUBLIC_READERS_ENV,
    },
    seed: async (seeder) => {
      await registerMember(seeder, 'bench');
      const users = await seeder.db.selectFrom('users').select('id').execute();
      await seedCatalogue(seeder.db, { count: size, userIds: users.map((user) => user.id) });
      const bench = users[0];
      if (!bench) throw new Error('no bench user');
      const viewer = { id: bench.id, is_admin: true };
      const view = await seeder.services.savedViews.create(viewer, {
        name: 'By stars',
        query: 'sort=stars&order=desc',
        shared: true,
      });
      const publication = await seeder.services.publicPages.publishView(viewer, view.id, {
        fields: [...PUBLIC_PAGE_FIELDS],
      });
      path = new URL(publication.url).pathname;
    },
  });
  return { ...instance, path };
}

async function measurePublicPages(instance: Instance, size: number, database: string): Promise<Figure[]> {
  const from = distinctReaders();
  const get = (suffix: string) => fetch(`${instance.base}${instance.path}${suffix}`, { headers: from() });
  const html = await (await get('')).text();
  const samples = 200;
  const health = await measureLatency(() => fetch(`${instance.base}/health`), samples);
  const page = await measureLatency(() => get(''), samples);
  const json = await measureLatency(() => get('.json'), samples);
  const atom = await measureLatency(() => get('.atom'), samples);
  const at = `${size / 1000}k, ${database}`;
  const note = `100 rows, every field; ${Math.round(Buffer.byteLength(html) / 1024)} KB of HTML`;
  const name = `GET /p/{slug} p50 (${at})`;
  return [
    measured(`GET /health p50 (${at})`, health.p50, 'ms'),
    size >= 100_000 ? atMost(name, page.p50, 'ms', 20, note) : measured(name, page.p50, 'ms', note),
    measured(`GET /p/{slug} p99 (${at})`, page.p99, 'ms'),
    measured(`GET /p/{slug}.json p50 (${at})`, json.p50, 'ms'),
    measured(`GET /p/{slug}.atom p50 (${at})`, atom.p50, 'ms'),
  ];
}

export function runPublicPagesBench(): Promise<{ runs: PublicPagesRun[]; skipped: string[] }> {
  return runOnEachDatabase('public-pages', start, measurePublicPages);
}
