import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GitHubDouble, listDoubleRepositories, startGitHubDouble } from '../test/github-double/index.ts';
import { CHILD_ENV } from '../test/helpers/child-env.ts';
import { testDialect } from '../test/helpers/test-database.ts';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { insertRepository } from './repository/repository.queries.ts';

/**
 * docs/architecture.md#sync-engine: a kill -9 in the middle of a scheduled sync loses no due
 * work. The real server (`server/main.ts`) syncs 40 due repositories, ticking every second; it
 * is killed once some are done, and the database must show every other repository still due
 * (in flight ones under a lease, none marked synced or failed); a second server then finishes
 * them once the dead one's leases run out (SYNC_LEASE_SECONDS=2), each repository read again
 * at most once more.
 *
 * SQLite only (the file is read directly); under TEST_DB=postgres it is skipped.
 */
const mainFile = new URL('./main.ts', import.meta.url).pathname;
const SECRET_KEY = 'sync-crash-secret-key-0123456789abcdef0123456789abcdef';
const REPOSITORIES = listDoubleRepositories()
  .filter((repository) => !repository.special && !repository.isPrivate)
  .slice(0, 40);

let dataDir: string;
let github: GitHubDouble;
const children: ChildProcess[] = [];

if (testDialect === 'postgres') {
  console.log('sync-engine-crash.test.ts: skipped under TEST_DB=postgres (it reads the SQLite file itself)');
}

function startServer(): { process: ChildProcess; exited: Promise<void>; output: () => string } {
  const proc = spawn(process.execPath, [mainFile], {
    cwd: dataDir,
    env: {
      ...CHILD_ENV,
      DATA_DIR: dataDir,
      PORT: '0',
      LOG_LEVEL: 'warn',
      SYNC_SCHEDULE: '* * * * * *',
      SYNC_LEASE_SECONDS: '2',
      JOB_POLL_MS: '100',
      BACKUP_SCHEDULE: 'off',
      SECRET_KEY,
      GITHUB_API_URL: github.url,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(proc);
  let output = '';
  proc.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  proc.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  return { process: proc, exited, output: () => output };
}

type StateRow = {
  full_name: string;
  due_at: string;
  leased_until: string | null;
  last_result: string | null;
};

function readStates(): StateRow[] {
  const db = new Database(join(dataDir, 'repo-tracker.db'), { readonly: true });
  try {
    return db
      .prepare(
        `select r.full_name, s.due_at, s.leased_until, s.last_result
           from repository_sync_state s join repositories r on r.id = s.repository_id`,
      )
      .all() as StateRow[];
  } finally {
    db.close();
  }
}

async function until<T>(probe: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(testDialect === 'postgres')('a kill -9 mid-sync', () => {
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'rt-sync-crash-'));
    // Slow enough that the kill lands mid-run; a quota the test never runs out of.
    github = await startGitHubDouble({ latencyMs: 25, quota: { anonymous: 100_000 } });
    // Seed through the app's own migrations and writes: 40 repositories, all due now.
    const app = await buildApp(
      loadConfig({
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        SECRET_KEY,
        SYNC_SCHEDULE: 'off',
        BACKUP_SCHEDULE: 'off',
        GITHUB_API_URL: github.url,
      }),
    );
    await app.ready();
    const now = new Date().toISOString();
    for (const repository of REPOSITORIES) {
      await insertRepository(
        app.db,
        {
          full_name: repository.fullName,
          github_id: repository.id,
          user_id: null,
          name: repository.fullName.split('/')[1] ?? repository.fullName,
          description: null,
          url: `https://github.com/${repository.fullName}`,
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
          language: null,
          archived: 0,
          private: 0,
          gone: 0,
          default_branch: 'main',
          last_commit: null,
          last_synced: null,
          etags: '{}',
          created_at: now,
          updated_at: now,
        },
        new Date(Date.now() - 60_000),
      );
    }
    await app.close();
  });

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await github?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('leaves every unfinished repository due, and a restarted server finishes them', async () => {
    const first = startServer();
    await until(
      () => {
        if (first.process.exitCode !== null) throw new Error(`server exited:\n${first.output()}`);
        return readStates().filter((row) => row.last_result === 'ok').length >= 8 ? true : undefined;
      },
      30_000,
      'the first server to sync some repositories',
    );
    first.process.kill('SIGKILL');
    await first.exited;

    const afterKill = readStates();
    const done = afterKill.filter((row) => row.last_result === 'ok');
    const unfinished = afterKill.filter((row) => row.last_result !== 'ok');
    expect(done.length).toBeLessThan(REPOSITORIES.length);
    const killedAt = new Date().toISOString();
    for (const row of unfinished) {
      // Still due, neither synced nor failed: nothing of the crashed run's work is lost.
      expect(row.last_result).toBeNull();
      expect(row.due_at <= killedAt).toBe(true);
    }
    // Those in flight were held under a lease the dead server can't release.
    expect(unfinished.some((row) => row.leased_until !== null)).toBe(true);
    for (const row of done) expect(row.due_at > killedAt).toBe(true);

    const second = startServer();
    await until(
      () => {
        if (second.process.exitCode !== null) throw new Error(`server exited:\n${second.output()}`);
        const states = readStates();
        return states.every((row) => row.last_result === 'ok' && row.leased_until === null)
          ? states
          : undefined;
      },
      30_000,
      'the restarted server to sync the rest',
    );
    second.process.kill('SIGKILL');
    // Each repository was read once, or once more when the kill caught it in flight.
    const reads = new Map<string, number>();
    for (const request of github.requests) {
      if (request.key !== 'GET /repos/{owner}/{repo}') continue;
      reads.set(request.path, (reads.get(request.path) ?? 0) + 1);
    }
    expect(reads.size).toBe(REPOSITORIES.length);
    for (const count of reads.values()) expect(count).toBeLessThanOrEqual(2);
  }, 90_000);
});
