/**
 * The first screens in Chromium (issue 23 item 2, docs/benchmarks.md): the built app (run
 * `npm run build` first) on SQLite with a seeded catalogue, then
 * - the JS and CSS transferred for `#/` and `#/login` on a cold cache, as Chromium receives them
 *   (CDP `Network.loadingFinished` encodedDataLength: the compressed bodies — the build's
 *   precompressed `.br` files — and each file's response headers);
 * - the JS and CSS transferred from `#/login` through sign-in to the list's first row (cold cache);
 * - a new tab on `#/home` with a stored session and a warm cache: navigation → first list row.
 * Not a test: it reports, it never fails (the bodies are held exactly by
 * scripts/check-first-load.ts on the build's manifest, which `npm test` runs).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { atMost, type Figure, measured, printFigures } from './lib/results.ts';
import { seedCatalogue } from './lib/seed-catalogue.ts';
import { median } from './lib/timing.ts';

const SIZE = Number(process.env.BENCH_FIRST_SCREEN_SIZE ?? 10_000);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PASSWORD = 'BenchPassw0rd!';
const NEW_TAB_RUNS = 7;
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
];

interface Transfer {
  scripts: number;
  styles: number;
  /** Everything else the page fetched (index.html, API answers, icons). */
  other: number;
}

/** Counts bytes as Chromium receives them, by resource type, from the page's first request on. */
async function countTransfer(context: BrowserContext, page: Page): Promise<() => Transfer> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const types = new Map<string, string>();
  const totals: Transfer = { scripts: 0, styles: 0, other: 0 };
  const urls = new Map<string, string>();
  cdp.on('Network.responseReceived', (event) => {
    types.set(event.requestId, event.type);
    urls.set(event.requestId, event.response.url);
  });
  cdp.on('Network.loadingFinished', (event) => {
    const type = types.get(event.requestId);
    if (process.env.BENCH_VERBOSE) console.log(`  ${event.encodedDataLength} ${urls.get(event.requestId)}`);
    if (type === 'Script') totals.scripts += event.encodedDataLength;
    else if (type === 'Stylesheet') totals.styles += event.encodedDataLength;
    else totals.other += event.encodedDataLength;
  });
  return () => ({ ...totals });
}

const kb = (bytes: number) => bytes / 1000;

async function signIn(page: Page): Promise<void> {
  await page
    .locator('input')
    .and(page.getByLabel(/^Email or Username/))
    .fill('bench');
  await page
    .locator('input')
    .and(page.getByLabel(/^Password/))
    .fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

export async function runFirstScreenBench(): Promise<{ size: number; figures: Figure[] }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'rt-bench-first-screen-'));
  const app = await buildApp(
    loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      SECRET_KEY: 'bench-secret-key-0123456789abcdef0123456789abcdef',
      SYNC_SCHEDULE: 'off',
      BACKUP_SCHEDULE: 'off',
      GITHUB_API_URL: 'http://127.0.0.1:9',
    }),
  );
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const register = await fetch(`${base}/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'bench@example.com',
        username: 'bench',
        first_name: 'bench',
        last_name: 'Bench',
        password: PASSWORD,
      }),
    });
    if (!register.ok) throw new Error(`register: ${register.status} ${await register.text()}`);
    const userIds = (await app.db.selectFrom('users').select('id').execute()).map((row) => row.id);
    console.log(`\n[first-screen] seeding ${SIZE.toLocaleString('en-US')} repositories…`);
    await seedCatalogue(app.db, { count: SIZE, userIds });

    const viewport = { width: 1280, height: 900 };
    const figures: Figure[] = [];
    const firstRow = (page: Page) => page.getByRole('table').getByRole('row').nth(1).waitFor();

    // Signed out, cold cache: the landing page and the sign-in screen, each in a fresh context.
    for (const [route, label, ready] of [
      ['#/', 'landing `#/`', (page: Page) => page.getByRole('heading', { level: 1 }).waitFor()],
      [
        '#/login',
        'sign-in `#/login`',
        (page: Page) => page.getByRole('button', { name: 'Sign In' }).waitFor(),
      ],
    ] as const) {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      const transfer = await countTransfer(context, page);
      await page.goto(`${base}/${route}`, { waitUntil: 'networkidle' });
      await ready(page);
      const { scripts, styles } = transfer();
      figures.push(
        atMost(
          `${label}: JS + CSS transferred (cold)`,
          kb(scripts + styles),
          'KB',
          150,
          `JS ${Math.round(kb(scripts))} KB, CSS ${Math.round(kb(styles))} KB`,
        ),
      );
      await context.close();
    }

    // Sign in from a cold cache, up to the list's first row (and whatever it loads at once).
    const context = await browser.newContext({ viewport });
    {
      const page = await context.newPage();
      const transfer = await countTransfer(context, page);
      await page.goto(`${base}/#/login`);
      await signIn(page);
      await page.waitForURL(/#\/(home)?$/);
      await firstRow(page);
      await page.waitForLoadState('networkidle');
      const { scripts, styles } = transfer();
      figures.push(
        atMost(
          'sign-in → list: JS + CSS transferred (cold)',
          kb(scripts + styles),
          'KB',
          250,
          `JS ${Math.round(kb(scripts))} KB, CSS ${Math.round(kb(styles))} KB, from #/login`,
        ),
      );
      await page.close();
    }

    // A new tab on #/home with the session stored and the HTTP cache warm.
    const times: number[] = [];
    const waterfall: Record<string, number[]> = {};
    for (let run = 0; run < NEW_TAB_RUNS; run += 1) {
      const page = await context.newPage();
      const started = performance.now();
      const seen = new Map<string, number>();
      page.on('requestfinished', (request) => {
        const path = new URL(request.url()).pathname;
        const key =
          path === '/' ? 'index.html' : path.startsWith('/assets/') ? null : path.replace(/\/$/, '') || path;
        if (key && !seen.has(key)) seen.set(key, performance.now() - started);
      });
      await page.goto(`${base}/#/home`, { waitUntil: 'commit' });
      await firstRow(page);
      times.push(performance.now() - started);
      if (process.env.BENCH_VERBOSE) {
        const entries = await page.evaluate(() =>
          performance
            .getEntriesByType('resource')
            .map((entry) => {
              const timing = entry as PerformanceResourceTiming;
              return `${Math.round(timing.startTime)}–${Math.round(timing.responseEnd)} ${timing.name}`;
            })
            .join('\n'),
        );
        console.log(entries);
      }
      for (const [key, at] of seen) waterfall[key] = [...(waterfall[key] ?? []), at];
      await page.close();
    }
    await context.close();
    const at = `${SIZE / 1000}k, sqlite`;
    figures.push(
      atMost(
        `new tab on #/home → first row (${at}, warm)`,
        median(times),
        'ms',
        1000,
        `median of ${NEW_TAB_RUNS}, ${Math.round(Math.min(...times))}–${Math.round(Math.max(...times))} ms`,
      ),
    );
    for (const key of ['index.html', '/auth/me', '/repositories'] as const) {
      const values = waterfall[key];
      if (values)
        figures.push(measured(`new tab: ${key} answered`, median(values), 'ms', 'median, from navigation'));
    }
    printFigures(`First screens (${at})`, figures);
    return { size: SIZE, figures };
  } finally {
    await browser.close();
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
