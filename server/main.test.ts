import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startGitHubDouble } from '../test/github-double/index.ts';
import { CHILD_ENV } from '../test/helpers/child-env.ts';
import { WAIT_CEILING_MS } from '../test/helpers/wait-ceiling.ts';

const mainFile = new URL('./main.ts', import.meta.url).pathname;
/** closeWithGrace's delay in server/main.ts: how long a shutdown may drain before it is cut. */
const SHUTDOWN_GRACE_MS = 10_000;
const cliFile = new URL('./cli.ts', import.meta.url).pathname;
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
    env: { ...CHILD_ENV, LOG_LEVEL: 'info', ...env },
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

/** `node server/cli.ts …` on the same DATA_DIR; resolves with its exit code. */
function runCli(args: string[], env: Record<string, string>): Promise<number | null> {
  const child = spawn(process.execPath, [cliFile, ...args], {
    env: { ...CHILD_ENV, LOG_LEVEL: 'silent', ...env },
    stdio: 'ignore',
    cwd: tempDataDir(),
  });
  return new Promise((resolve) => child.on('exit', (code) => resolve(code)));
}

/** One request over `agent`; resolves with the status, the Connection header and the body. */
function request(
  agent: http.Agent,
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; connection: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: options.method ?? 'GET', agent, headers: options.headers },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }),
        );
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Until `condition` holds, within a ceiling that leaves a busy machine room (never a sleep). */
async function waitFor(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + WAIT_CEILING_MS;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A process boots in seconds on a busy machine: twice the wait ceiling. */
async function waitForListening(read: () => { stdout: string }): Promise<string> {
  const deadline = Date.now() + 2 * WAIT_CEILING_MS;
  for (;;) {
    const match = read().stdout.match(/Server listening at (http:\/\/127\.0\.0\.1:\d+)/);
    if (match?.[1]) return match[1];
    if (Date.now() > deadline) throw new Error(`server did not start: ${read().stdout}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
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

  it('SIGTERM with keep-alive clients: idle ones are closed at once, the in-flight add finishes with Connection: close, exit 0 well inside the grace', async () => {
    // Each GitHub answer takes 300 ms, so the add (3–4 GitHub requests) is still running when
    // the signal arrives.
    const github = await startGitHubDouble({ latencyMs: 300 });
    try {
      const dataDir = tempDataDir();
      const env = {
        DATA_DIR: dataDir,
        SECRET_KEY: 'main-test-secret-key-0123456789abcdef0123456789abcdef',
        GITHUB_API_URL: github.url,
        SYNC_SCHEDULE: 'off',
        BACKUP_SCHEDULE: 'off',
      };
      const password = 'DrainTest1234';
      const created = await runCli(
        [
          'admin',
          'create',
          '--email',
          'drain@example.com',
          '--username',
          'drainer',
          '--first-name',
          'Dee',
        ].concat(['--last-name', 'Rain', '--password', password]),
        env,
      );
      expect(created).toBe(0);
      const run = startMain({ ...env, PORT: '0' });
      const base = await waitForListening(run.output);
      const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
      const json = { 'content-type': 'application/json' };
      const signIn = await request(agent, `${base}/auth/login`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ email_or_username: 'drainer', password }),
      });
      expect(signIn.status).toBe(200);
      expect(signIn.connection).toBe('keep-alive');
      const token = JSON.parse(signIn.body).access_token as string;
      // A second client whose keep-alive connection sits idle in its pool.
      const idleAgent = new http.Agent({ keepAlive: true });
      expect((await request(idleAgent, `${base}/health`)).connection).toBe('keep-alive');
      const idleSocket = Object.values(idleAgent.freeSockets).flat()[0];
      if (!idleSocket) throw new Error('no pooled keep-alive socket');
      const idleClosed = new Promise<number>((resolve) =>
        idleSocket.once('close', () => resolve(Date.now())),
      );

      const adding = request(agent, `${base}/repositories/`, {
        method: 'POST',
        headers: { ...json, authorization: `Bearer ${token}` },
        body: JSON.stringify({ id: 'facebook/react' }),
      });
      await waitFor(() => github.requests.length > 0, 'the add to reach GitHub');
      const signalledAt = Date.now();
      run.child.kill('SIGTERM');

      const added = await adding;
      const answeredAt = Date.now();
      expect(added.status).toBe(201);
      expect(added.connection).toBe('close');
      expect(await run.exited).toBe(0);
      const exitedAt = Date.now();
      // The idle connection went at once, not when the add finished.
      expect(await idleClosed).toBeLessThan(answeredAt);
      // Inside the grace: it exited because nothing was left, not on the timer (which would have
      // exited 1). The bound is the grace main.ts configures, not this machine's speed.
      expect(exitedAt - signalledAt).toBeLessThan(SHUTDOWN_GRACE_MS);
      agent.destroy();
      idleAgent.destroy();
    } finally {
      await github.close();
    }
  });
});
