/**
 * The catalogue at scale (docs/benchmarks.md): a catalogue of 10,000 and 100,000 repositories on
 * SQLite and on PostgreSQL, then the paged list, search, tag filter, statistics, one repository,
 * the CSV export and — on SQLite at the largest size — the list screen in Chromium, each beside
 * the app's own `GET /health` measured in the same run. Not a test: it reports, it never fails.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { chromium } from 'playwright-core';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { atLeast, atMost, type Figure, measured, printFigures } from './lib/results.ts';
import { seedCatalogue } from './lib/seed-catalogue.ts';
import { measureLatency, sampleRss } from './lib/timing.ts';

const SIZES = (process.env.BENCH_SIZES ?? '10000,100000').split(',').map(Number);
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PASSWORD = 'BenchPassw0rd!';
const SEARCH_TERMS = ['fast', 'vue', 'pars', 'rust', 'data', 'serv', 'tool', 'engin', 'react', 'kit'];
const TAG_PAIRS = ['frontend,web', 'backend,api', 'ui,css', 'cli,tool', 'database,orm', 'ml,ai'];

export interface CatalogueRun {
  database: 'sqlite' | 'postgres';
  size: number;
  seed_seconds: number;
  figures: Figure[];
}

interface Instance {
  app: FastifyInstance;
  base: string;
  token: string;
  first: string;
  close(): Promise<void>;
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

export async function postgresAvailable(): Promise<boolean> {
  return withMaintenance(async () => true).catch(() => false);
}

async function start(
  database: 'sqlite' | 'postgres',
  size: number,
): Promise<Instance & { seedSeconds: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'rt-bench-catalogue-'));
  let databaseUrl = '';
  let dropDatabase = async () => {};
  if (database === 'postgres') {
    const name = `repo_tracker_bench_${process.pid}_${size}`;
    await withMaintenance((client) => client.query(`CREATE DATABASE ${name}`));
    const url = new URL(PG_URL);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = () =>
      withMaintenance((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(
        () => {},
      );
  }
  const app = await buildApp(
    loadConfig({
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'silent',
      SECRET_KEY: 'bench-secret-key-0123456789abcdef0123456789abcdef',
      SYNC_SCHEDULE: 'off',
      BACKUP_SCHEDULE: 'off',
      GITHUB_API_URL: 'http://127.0.0.1:9',
    }),
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const post = async <T>(path: string, body: object): Promise<T> => {
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  for (const name of ['bench', 'ada', 'grace', 'linus', 'margaret']) {
    await post('/auth/register', {
      email: `${name}@example.com`,
      username: name,
      first_name: name,
      last_name: 'Bench',
      password: PASSWORD,
    });
  }
  const userIds = (await app.db.selectFrom('users').select('id').orderBy('id').execute()).map(
    (row) => row.id,
  );
  const { access_token: token } = await post<{ access_token: string }>('/auth/login', {
    email_or_username: 'bench',
    password: PASSWORD,
  });
  const seeded = await seedCatalogue(app.db, { count: size, userIds });
  return {
    app,
    base,
    token,
    first: seeded.first,
    seedSeconds: seeded.seconds,
    async close() {
      await app.close();
      await dropDatabase();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function measureCatalogue(instance: Instance, size: number, database: string): Promise<Figure[]> {
  const { base, token } = instance;
  const headers = { authorization: `Bearer ${token}` };
  const get = (path: string) => fetch(`${base}${path}`, { headers });
  const large = size >= 100_000;
  const samples = large ? 200 : 300;

  const health = await measureLatency(() => fetch(`${base}/health`), samples);
  const firstPage = await measureLatency(() => get('/repositories/?sort=stars&order=desc&limit=50'), samples);
  const search = await measureLatency(
    (i) => get(`/repositories/?q=${encodeURIComponent(SEARCH_TERMS[i % SEARCH_TERMS.length] ?? 'fast')}`),
    samples,
  );
  const tags = await measureLatency(
    (i) => get(`/repositories/?tags=${encodeURIComponent(TAG_PAIRS[i % TAG_PAIRS.length] ?? 'ui,web')}`),
    samples,
  );
  const growth = await measureLatency(
    () => get('/repositories/?sort=growth_30d&order=desc&limit=50'),
    samples,
  );
  const stats = await measureLatency(() => get('/repositories/stats'), large ? 30 : 60, 3);
  const detail = await measureLatency(
    () => get(`/repositories/${encodeURIComponent(instance.first)}`),
    samples,
  );

  // The whole catalogue as CSV, streamed: rows a second, and how much this process grew.
  const rssBefore = process.memoryUsage().rss;
  const rss = sampleRss();
  const exportStarted = performance.now();
  const response = await get('/repositories/export');
  if (!response.ok || !response.body) throw new Error(`export: ${response.status}`);
  let lines = 0;
  for await (const chunk of response.body) {
    const bytes = chunk as Uint8Array;
    for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) lines += 1;
  }
  const exportSeconds = (performance.now() - exportStarted) / 1000;
  const rssGrowthMiB = (rss.stop() - rssBefore) / 2 ** 20;
  const rows = lines - 1;

  const at = `${size / 1000}k, ${database}`;
  const ratio = firstPage.p50 / health.p50;
  const figures: Figure[] = [
    measured(`GET /health p50 (${at})`, health.p50, 'ms'),
    large
      ? atMost(
          `first page, 50 by stars, p50 (${at})`,
          firstPage.p50,
          'ms',
          10,
          `${ratio.toFixed(1)}× /health`,
        )
      : measured(`first page, 50 by stars, p50 (${at})`, firstPage.p50, 'ms', `${ratio.toFixed(1)}× /health`),
    large
      ? atMost(`first page ÷ /health (${at})`, ratio, '×', 3)
      : measured(`first page ÷ /health (${at})`, ratio, '×'),
    large
      ? atMost(`q search p50 (${at})`, search.p50, 'ms', 30)
      : measured(`q search p50 (${at})`, search.p50, 'ms'),
    large
      ? atMost(`q search p99 (${at})`, search.p99, 'ms', 100)
      : measured(`q search p99 (${at})`, search.p99, 'ms'),
    large
      ? atMost(`stats p50 (${at})`, stats.p50, 'ms', 150)
      : measured(`stats p50 (${at})`, stats.p50, 'ms'),
    large
      ? atMost(`tag filter (2 tags) p50 (${at})`, tags.p50, 'ms', 30)
      : measured(`tag filter (2 tags) p50 (${at})`, tags.p50, 'ms'),
    large
      ? atMost(`sort by 30-day growth, 50, p50 (${at})`, growth.p50, 'ms', 30)
      : measured(`sort by 30-day growth, 50, p50 (${at})`, growth.p50, 'ms'),
    large
      ? atMost(`GET /repositories/{id} p50 (${at})`, detail.p50, 'ms', 10)
      : measured(`GET /repositories/{id} p50 (${at})`, detail.p50, 'ms'),
    large
      ? atLeast(
          `export (${at})`,
          rows / exportSeconds,
          'rows/s',
          100_000,
          `${rows} rows in ${exportSeconds.toFixed(2)} s`,
        )
      : measured(`export (${at})`, rows / exportSeconds, 'rows/s', `${rows} rows`),
    large
      ? atMost(`export RSS growth (${at})`, rssGrowthMiB, 'MiB', 64)
      : measured(`export RSS growth (${at})`, rssGrowthMiB, 'MiB'),
  ];
  return figures;
}

/**
 * The list screen in Chromium: sign in, then navigation → first rows, the last keystroke of a
 * search → the updated rows (the ~150 ms debounce included), and a click on a column → rows
 * in the new order.
 */
async function measureBrowser(instance: Instance, size: number): Promise<Figure[]> {
  const browser = await chromium.launch({ executablePath: CHROMIUM });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${instance.base}/#/login`);
    await page
      .locator('input')
      .and(page.getByLabel(/^Email or Username/))
      .fill('bench');
    await page
      .locator('input')
      .and(page.getByLabel(/^Password/))
      .fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(/#\/(home)?$/);
    const status = page.getByText(/^Showing \d[\d,]* of \d[\d,]* repositories$/);
    await status.waitFor();
    await page.goto('about:blank');

    const navigationStarted = performance.now();
    await page.goto(`${instance.base}/#/home`);
    await page.getByRole('table').getByRole('row').nth(1).waitFor();
    const navigation = performance.now() - navigationStarted;

    const expected = (await (
      await fetch(`${instance.base}/repositories/?q=engin&limit=1`, {
        headers: { authorization: `Bearer ${instance.token}` },
      })
    ).json()) as { total: number };
    const searchbox = page.getByRole('searchbox', { name: 'Search repositories' });
    await searchbox.click();
    await page.keyboard.type('engi');
    const keystroke = performance.now();
    await page.keyboard.press('n');
    const updated = page.getByText(
      new RegExp(`^Showing \\d[\\d,]* of ${String(expected.total).split('').join(',?')} repositories$`),
    );
    await updated.waitFor({ timeout: 10_000 }).catch(async (error: unknown) => {
      throw new Error(
        `search never showed ${expected.total} results; the screen says "${await status.textContent()}"`,
        {
          cause: error,
        },
      );
    });
    const searchMs = performance.now() - keystroke;

    const sorted = (await (
      await fetch(`${instance.base}/repositories/?q=engin&sort=stars&order=desc&limit=1`, {
        headers: { authorization: `Bearer ${instance.token}` },
      })
    ).json()) as { repositories: { id: string }[] };
    const top = sorted.repositories[0]?.id ?? '';
    const clicked = performance.now();
    await page.getByRole('columnheader', { name: /Stars/ }).getByRole('button').click();
    await page.getByRole('table').getByRole('row').nth(1).filter({ hasText: top }).waitFor();
    const sortMs = performance.now() - clicked;
    const at = `${size / 1000}k, sqlite`;
    return [
      atMost(`browser: navigation → first rows (${at})`, navigation, 'ms', 1000),
      atMost(`browser: last keystroke → updated rows (${at})`, searchMs, 'ms', 300),
      atMost(`browser: sort → rows (${at})`, sortMs, 'ms', 300),
    ];
  } finally {
    await browser.close();
  }
}

export async function runCatalogueBench(): Promise<{ runs: CatalogueRun[]; skipped: string[] }> {
  const runs: CatalogueRun[] = [];
  const skipped: string[] = [];
  const withPostgres = await postgresAvailable();
  if (!withPostgres) skipped.push(`PostgreSQL: nothing answers at ${PG_URL}`);
  for (const database of ['sqlite', 'postgres'] as const) {
    if (database === 'postgres' && !withPostgres) continue;
    for (const size of SIZES) {
      console.log(`\n[catalogue] ${database}, ${size.toLocaleString('en-US')} repositories: seeding…`);
      const instance = await start(database, size);
      try {
        console.log(`[catalogue] seeded in ${instance.seedSeconds.toFixed(1)} s; measuring…`);
        const figures = await measureCatalogue(instance, size, database);
        printFigures(`${database}, ${size.toLocaleString('en-US')} repositories (API)`, figures);
        if (database === 'sqlite' && size === Math.max(...SIZES)) {
          const browserFigures = await measureBrowser(instance, size);
          printFigures(`${database}, ${size.toLocaleString('en-US')} repositories (browser)`, browserFigures);
          figures.push(...browserFigures);
        }
        runs.push({ database, size, seed_seconds: Math.round(instance.seedSeconds * 10) / 10, figures });
      } finally {
        await instance.close();
      }
    }
  }
  return { runs, skipped };
}
