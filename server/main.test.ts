import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const mainFile = new URL('./main.ts', import.meta.url).pathname;
const children: ChildProcess[] = [];
const dirs: string[] = [];

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rt-main-'));
  dirs.push(dir);
  return dir;
}

/** Runs `server/main.ts` as `npm start` would, with only the given environment. */
function startMain(env: Record<string, string>) {
  const child = spawn(process.execPath, [mainFile], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: tempDataDir(),
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => ({ stdout, stderr }) };
}

async function waitForListening(read: () => { stdout: string }): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const match = read().stdout.match(/Server listening at (http:\/\/127\.0\.0\.1:\d+)/);
    if (match?.[1]) return match[1];
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`server did not start: ${read().stdout}`);
}

describe('server/main.ts', () => {
  it('a malformed DATABASE_URL stops the boot with one readable line and exit code 1', async () => {
    const run = startMain({ DATABASE_URL: 'mysql://root@localhost/db', DATA_DIR: tempDataDir() });
    expect(await run.exited).toBe(1);
    const lines = run.output().stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Invalid configuration: DATABASE_URL must be postgres:\/\//);
  });

  it('generates SECRET_KEY once into DATA_DIR with mode 0600, serves, and exits 0 on SIGTERM', async () => {
    const dataDir = tempDataDir();
    const run = startMain({ DATA_DIR: dataDir, PORT: '0' });
    const base = await waitForListening(run.output);
    const health = await fetch(`${base}/health`);
    expect(health.status).toBe(200);

    const keyFile = join(dataDir, 'secret_key');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const key = readFileSync(keyFile, 'utf8');
    expect(key.trim()).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(join(dataDir, 'repo-tracker.db')).isFile()).toBe(true);

    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    expect(run.output().stdout).toContain('shutting down');

    // A second boot reuses the same key.
    const again = startMain({ DATA_DIR: dataDir, PORT: '0' });
    await waitForListening(again.output);
    expect(readFileSync(keyFile, 'utf8')).toBe(key);
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  });
});
