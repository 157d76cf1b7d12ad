import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { insertRepository } from '../../server/repository/repository.queries.ts';
import { listDoubleRepositories, startGitHubDouble } from '../github-double/index.ts';
import { CHILD_ENV } from '../helpers/child-env.ts';
import { createScratchDatabase, type ScratchDatabase, testDialect } from '../helpers/test-database.ts';

/**
 * Issue 22, finding 8: SIGTERM while background work runs. The real process (`server/main.ts`)
 * sweeps 40 due repositories over REST against a GitHub that answers in 100 ms; a signal in the
 * middle of the sweep must end the process with exit code 0 well inside 5 s (what `docker stop`
 * and Kubernetes allow before they call it a crash), hand the sweep's leases back, and the next
 * start must go on with what was left. Before the fix the job queue waited its 5 s grace for the
 * sweep (which honoured no signal) before aborting it, so the exit came after more than 5 s.
 *
 * SQLite only, like the other tests that spawn `server/main.ts` (main.test.ts,
 * sync-engine-crash.test.ts): what the process does on a signal is the same on either database,
 * and the database work it stops is tested on both — the sweep's hand-back is the query the
 * engine uses when GitHub says "later" (sync-schedule.test.ts, "hands the rest back"), the job's
 * release is job-queue.test.ts ("stops within its grace … releasing that job").
 */
const mainFile = new URL('../../server/main.ts', import.meta.url).pathname;
const REPOSITORIES = 40;
/** Signal to exit, on a loaded 2-core machine: the bound the issue sets is 5 s. */
const EXIT_WITHIN_MS = 4000;

let workDir: string;
let database: ScratchDatabase;
let github: Awaited<ReturnType<typeof startGitHubDouble>>;
const children: ChildProcess[] = [];

if (testDialect === 'postgres') {
  console.log(
    'shutdown.test.ts: skipped under TEST_DB=postgres (the process is the same on either database)',
  );
}

beforeAll(async () => {
  if (testDialect === 'postgres') return;
  workDir = mkdtempSync(join(tmpdir(), 'rt-shutdown-'));
  database = await createScratchDatabase(testDialect, { dir: workDir });
  await migrateToLatest(database.handle.db);
  const past = new Date(Date.now() - 60_000);
  for (const repo of listDoubleRepositories().slice(0, REPOSITORIES)) {
    const now = new Date().toISOString();
    await insertRepository(
      database.handle.db,
      {
        full_name: repo.fullName,
        github_id: repo.id,
        user_id: null,
        name: repo.fullName.split('/')[1] ?? repo.fullName,
        description: '',
        url: `https://github.com/${repo.fullName}`,
        license: '',
        topics: '',
        tags: '',
        notes: '',
        stars: 0,
        forks: 0,
        issues: 0,
        commits: 0,
        contributors: 0,
        contributors_capped: 0,
        language: '',
        archived: 0,
        private: 0,
        gone: 0,
        default_branch: 'main',
        last_commit: null,
        last_synced: now,
        etags: '{}',
        created_at: now,
        updated_at: now,
      },
      past,
    );
  }
  // A large anonymous budget: the sweep is paced by the answers' latency, not by GitHub's quota.
  github = await startGitHubDouble({ latencyMs: 100, quota: { anonymous: 5000 } });
});

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await github?.close();
  await database?.dispose();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

function startMain() {
  const child = spawn(process.execPath, [mainFile], {
    env: {
      ...CHILD_ENV,
      LOG_LEVEL: 'info',
      PORT: '0',
      DATA_DIR: workDir,
      DATABASE_URL: database.url,
      SECRET_KEY: 'shutdown-test-secret-key-0123456789abcdef0123456789',
      GITHUB_API_URL: github.url,
      // Every second, so the sweep starts at once; nothing else runs in the background.
      SYNC_SCHEDULE: '* * * * * *',
      BACKUP_SCHEDULE: 'off',
      NOTIFICATION_SCHEDULE: 'off',
      HISTORY_BACKFILL: 'off',
      JOB_POLL_MS: '100',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: workDir,
  });
  children.push(child);
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

async function waitUntil(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const synced = async () =>
  (
    await database.handle.db
      .selectFrom('repository_sync_state')
      .select('repository_id')
      .where('last_result', '=', 'ok')
      .execute()
  ).length;

const leased = async () =>
  (
    await database.handle.db
      .selectFrom('repository_sync_state')
      .select('repository_id')
      .where('lease_owner', 'is not', null)
      .execute()
  ).length;

describe.skipIf(testDialect === 'postgres')('shutdown while background work runs', () => {
  it('exits 0 within 5 s mid-sweep, hands the leases back, and the next start goes on', async () => {
    const first = startMain();
    await waitUntil(() => /Server listening/.test(first.output()), 'the server to listen');
    // The sweep is running: GitHub has been asked, some rows are done, most are still due.
    await waitUntil(async () => (await synced()) >= 2, 'the sweep to be under way');
    const before = await synced();
    expect(before).toBeLessThan(REPOSITORIES);

    const signalledAt = Date.now();
    first.child.kill('SIGTERM');
    const code = await first.exited;
    const tookMs = Date.now() - signalledAt;
    expect(code, first.output()).toBe(0);
    expect(tookMs, first.output()).toBeLessThan(EXIT_WITHIN_MS);
    // Nothing stays held by the process that left: the next run may take every row at once.
    expect(await leased()).toBe(0);
    const afterFirst = await synced();
    expect(afterFirst).toBeLessThan(REPOSITORIES);

    // The next start's schedule takes the rest.
    const second = startMain();
    await waitUntil(async () => (await synced()) > afterFirst + 1, 'the next start to go on').catch(
      (error) => {
        throw new Error(`${error.message}: ${second.output().slice(-3000)}`);
      },
    );
    second.child.kill('SIGTERM');
    expect(await second.exited, second.output()).toBe(0);
  }, 60_000);
});
