/**
 * `npm test`: every suite, non-interactively, then one closing line `N passed, M failed`.
 *
 *   1. lint (Biome) and type check (tsc) — each counts as one check
 *   2. unit, component and integration tests on SQLite (Vitest), without the two below
 *   3. the security suites (test/security/: races, log secrets, outbound faults, oracles) on
 *      SQLite, with a tally of their own
 *   4. the Redis-dependent tests (`*.redis.test.ts`) against TEST_REDIS_URL: skipped with a
 *      printed line when nothing answers, except under CI=true, where a local redis-server is
 *      started and failure to reach it fails the run
 *   5. the integration tests and the security suites again on PostgreSQL: skipped with a
 *      printed line when no server answers, except under CI=true, where a stopped local
 *      cluster is started and failure to reach it fails the run
 *   6. the web build, the first screens' size check on it (scripts/check-first-load.ts: the
 *      JS and CSS as sent, brotli, of the landing, sign-in and list screens against their budgets), and the
 *      Playwright journeys in Debian's chromium (installed when missing and permitted;
 *      mandatory under CI=true)
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureChromium } from './lib/ensure-chromium.ts';
import { ensurePostgres, TEST_PG_URL } from './lib/ensure-postgres.ts';
import { ensureRedis, TEST_REDIS_URL } from './lib/ensure-redis.ts';
import { run } from './lib/run.ts';

interface Tally {
  passed: number;
  failed: number;
  skipped: number;
}

const ci = process.env.CI === 'true' || process.env.CI === '1';
// Node's compile cache for every process this run starts (Vitest's workers, the servers and
// command lines tests spawn, the journeys' server): each reuses the compiled modules of the last.
process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), 'rt-test-compile-cache');
const totals: Tally = { passed: 0, failed: 0, skipped: 0 };
const reportDir = mkdtempSync(join(tmpdir(), 'rt-test-report-'));
const started = Date.now();

function add(name: string, tally: Tally) {
  totals.passed += tally.passed;
  totals.failed += tally.failed;
  totals.skipped += tally.skipped;
  console.log(`\n[${name}] ${tally.passed} passed, ${tally.failed} failed, ${tally.skipped} skipped\n`);
}

async function check(name: string, command: string, args: string[]) {
  console.log(`\n▶ ${name}`);
  const code = await run(command, args);
  add(name, { passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1, skipped: 0 });
}

/** Vitest's JSON report, or one failure when the runner died before writing it. */
async function vitest(name: string, args: string[], env: Record<string, string> = {}) {
  console.log(`\n▶ ${name}`);
  const file = join(reportDir, `${name.replace(/\W+/g, '-')}.json`);
  const code = await run(
    'vitest',
    ['run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${file}`],
    env,
  );
  try {
    const report = JSON.parse(readFileSync(file, 'utf8')) as {
      numPassedTests: number;
      numFailedTests: number;
      numPendingTests: number;
      numTodoTests: number;
      numFailedTestSuites: number;
    };
    const failed =
      report.numFailedTests +
      (code !== 0 && report.numFailedTests === 0 ? Math.max(1, report.numFailedTestSuites) : 0);
    add(name, {
      passed: report.numPassedTests,
      failed,
      skipped: report.numPendingTests + report.numTodoTests,
    });
  } catch {
    add(name, { passed: 0, failed: 1, skipped: 0 });
  }
}

async function playwright() {
  console.log('\n▶ browser journeys (Playwright)');
  const file = join(reportDir, 'playwright.json');
  const code = await run('playwright', ['test'], { PLAYWRIGHT_JSON_OUTPUT_FILE: file });
  try {
    const report = JSON.parse(readFileSync(file, 'utf8')) as {
      stats: { expected: number; unexpected: number; flaky: number; skipped: number };
    };
    const { expected, unexpected, flaky, skipped } = report.stats;
    add('e2e', {
      passed: expected + flaky,
      failed: unexpected + (code !== 0 && unexpected === 0 ? 1 : 0),
      skipped,
    });
  } catch {
    add('e2e', { passed: 0, failed: 1, skipped: 0 });
  }
}

await check('lint', 'biome', ['check', '.']);
await check('typecheck', 'tsc', ['-p', '.']);
/** The security suites and the Redis tests run in passes of their own, with their own tallies. */
const SECURITY = 'test/security/';
const OWN_PASSES = ['--exclude', `${SECURITY}**`, '--exclude', '**/*.redis.test.ts'];

await vitest('sqlite', OWN_PASSES);
await vitest('security (sqlite)', ['--project', 'node', SECURITY]);

if (await ensureRedis(ci)) {
  await vitest('redis', ['--project', 'node', '.redis.test.'], { TEST_REDIS_URL });
} else if (ci) {
  console.error(
    `\nRedis at ${TEST_REDIS_URL} could not be reached or started: the Redis pass is mandatory under CI.`,
  );
  add('redis', { passed: 0, failed: 1, skipped: 0 });
} else {
  console.log(
    `\nRedis pass skipped: nothing answers at ${TEST_REDIS_URL} (set TEST_REDIS_URL to point elsewhere).`,
  );
}

if (await ensurePostgres(ci)) {
  const postgres = { TEST_DB: 'postgres', TEST_PG_URL };
  // The fuzz test's routes × callers again, fewer runs each: the SQLite pass is the thorough one.
  // The command line and the process entry point (cli.test.ts, main.test.ts) spawn processes whose
  // database work is the services' own, tested here file by file (restore.test.ts restores into
  // PostgreSQL): they run in the SQLite pass only, within the suite's time budget.
  const sqliteOnly = ['--exclude', 'server/cli.test.ts', '--exclude', 'server/main.test.ts'];
  await vitest('postgres', ['--project', 'node', 'server/', ...OWN_PASSES, ...sqliteOnly], {
    ...postgres,
    FUZZ_RUNS: '20',
  });
  await vitest('security (postgres)', ['--project', 'node', SECURITY], postgres);
} else if (ci) {
  console.error(
    `\nPostgreSQL at ${TEST_PG_URL} could not be reached or started: the PostgreSQL pass is mandatory under CI.`,
  );
  add('postgres', { passed: 0, failed: 1, skipped: 0 });
} else {
  console.log(
    `\nPostgreSQL pass skipped: nothing answers at ${TEST_PG_URL} (set TEST_PG_URL to point elsewhere).`,
  );
}

if (await ensureChromium()) {
  await check('build', 'npm', ['run', '--silent', 'build']);
  await check('first-load size', process.execPath, ['scripts/check-first-load.ts']);
  await playwright();
} else if (ci) {
  console.error('\nChromium is required for the browser journeys under CI and could not be installed.');
  add('e2e', { passed: 0, failed: 1, skipped: 0 });
} else {
  console.log('\nBrowser journeys skipped: Debian’s chromium is not installed (apt-get install chromium).');
}

rmSync(reportDir, { recursive: true, force: true });
console.log(`\nWhole run: ${Math.round((Date.now() - started) / 1000)} s`);
console.log(
  `${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`,
);
process.exit(totals.failed > 0 ? 1 : 0);
