import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePostgres } from '../scripts/lib/ensure-postgres.ts';
import { type GitHubDouble, startGitHubDouble } from '../test/github-double/index.ts';
import { CHILD_ENV } from '../test/helpers/child-env.ts';
import {
  createScratchDatabase,
  postgresReachable,
  type ScratchDatabase,
} from '../test/helpers/test-database.ts';
import { migrations } from './db/migrations/index.ts';
import { hashPassword } from './lib/passwords.ts';
import { autoBackupJob } from './modules/backups/backups.jobs.ts';
import { syncDueJob } from './modules/sync/sync.service.ts';

/**
 * Several instances behind a proxy (docs/operations.md#several-instances): two real app processes
 * (`server/main.ts`, as `npm start` runs it) started at the same moment on one fresh, empty
 * PostgreSQL database and one Redis, each with its own DATA_DIR and the same SECRET_KEY. They
 * prove, through their HTTP APIs:
 *   - one migrates while the other waits (both ready, every migration recorded once);
 *   - a repository added through one is listed and found by search through the other;
 *   - a refresh token rotated on one is refused when replayed on the other, and its family is
 *     revoked (the successor dies too);
 *   - a deactivation on one ends the account's sessions on the other at once;
 *   - the login and forgot-password limits count across both (Redis), per account and per client;
 *   - each scheduled job (backup, sync tick) runs once per tick between them, never twice.
 * The single-process tests of the same parts: server/modules/sync/sync-engine.redis.test.ts
 * (sync runs), server/modules/backups/backups.test.ts (the backup lease), rate-limiter.redis.test.ts.
 *
 * Runs in the Redis pass (TEST_REDIS_URL). PostgreSQL is needed too: under CI=true a stopped
 * local cluster is started and its absence fails the test; elsewhere the file is skipped with
 * a printed line.
 */
const redisUrl = process.env.TEST_REDIS_URL;
const ci = process.env.CI === 'true' || process.env.CI === '1';
const pgAvailable = redisUrl ? (ci ? await ensurePostgres(true) : await postgresReachable()) : false;
if (redisUrl && !pgAvailable) {
  if (ci)
    throw new Error(
      'multi-instance.redis.test.ts: PostgreSQL is mandatory under CI and could not be reached',
    );
  console.log('multi-instance.redis.test.ts: skipped, PostgreSQL is not reachable');
}

const mainFile = new URL('./main.ts', import.meta.url).pathname;
const SECRET_KEY = 'multi-instance-secret-key-0123456789abcdef0123456789ab';
const METRICS_TOKEN = 'multi-instance-metrics-token-0123456789abcdef';
/** Every second second, so a few ticks pass while the other checks run. */
const TICK_EVERY_2S = '*/2 * * * * *';
const PASSWORD = 'Passw0rd!multi';
/** This run's own marker, so counters in the shared Redis from other runs never meet ours. */
const run = randomBytes(4).toString('hex');
let addressSequence = 0;
/** A client address of this run (the instances trust X-Forwarded-For from 127.0.0.1, as behind a proxy). */
const nextAddress = () => {
  addressSequence += 1;
  return `10.${parseInt(run.slice(0, 2), 16)}.${parseInt(run.slice(2, 4), 16)}.${addressSequence}`;
};

interface Instance {
  name: string;
  base: string;
  process: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startInstance(name: string, env: Record<string, string>): Instance & { listening: Promise<string> } {
  const dataDir = mkdtempSync(join(tmpdir(), `rt-multi-${name}-`));
  dirs.push(dataDir);
  const child = spawn(process.execPath, [mainFile], {
    cwd: dataDir,
    env: { ...CHILD_ENV, DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const instance = { name, base: '', process: child, output: () => output, exited };
  const listening = (async () => {
    for (let i = 0; i < 600; i++) {
      const match = output.match(/Server listening at (http:\/\/127\.0\.0\.1:\d+)/);
      if (match?.[1]) {
        instance.base = match[1];
        return match[1];
      }
      if (child.exitCode !== null) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`instance ${name} did not start:\n${output}`);
  })();
  return Object.assign(instance, { listening });
}

async function call(
  instance: Instance,
  method: string,
  path: string,
  options: { body?: unknown; token?: string; address?: string } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${instance.base}${path}`, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      'x-forwarded-for': options.address ?? nextAddress(),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    body = { text };
  }
  return { status: response.status, body };
}

async function login(instance: Instance, emailOrUsername: string) {
  const answer = await call(instance, 'POST', '/auth/login', {
    body: { email_or_username: emailOrUsername, password: PASSWORD },
  });
  if (answer.status !== 200) throw new Error(`login failed on ${instance.name}: ${JSON.stringify(answer)}`);
  return { access: String(answer.body.access_token), refresh: String(answer.body.refresh_token) };
}

const dirs: string[] = [];
let database: ScratchDatabase;
let github: GitHubDouble;
let a: Instance;
let b: Instance;
let startedAt = 0;
let backupDir = '';
let admin: { email: string; access: string };

/** A verified, active member (or admin) written straight into the shared database. */
async function createMember(label: string, options: { admin?: boolean } = {}) {
  const email = `${label}-${run}@example.com`;
  const now = new Date().toISOString();
  const row = await database.handle.db
    .insertInto('users')
    .values({
      // An id of this run: the login limit's per-account key is the user id, and the shared
      // Redis keeps it for 15 minutes, so a fresh database's id 4 would meet the last run's.
      id: 1_000_000 + Math.floor(Math.random() * 1_000_000_000),
      username: `${label}_${run}`,
      email,
      first_name: 'Multi',
      last_name: 'Instance',
      password_hash: await hashPassword(PASSWORD),
      is_admin: options.admin ? 1 : 0,
      is_verified: 1,
      is_active: 1,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, email };
}

describe.skipIf(!redisUrl || !pgAvailable)(
  'two app processes on one PostgreSQL database and one Redis',
  () => {
    beforeAll(async () => {
      github = await startGitHubDouble();
      database = await createScratchDatabase('postgres');
      backupDir = mkdtempSync(join(tmpdir(), 'rt-multi-backups-'));
      dirs.push(backupDir);
      const env = {
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'debug',
        DATABASE_URL: database.url,
        REDIS_URL: redisUrl ?? '',
        SECRET_KEY,
        METRICS_TOKEN,
        TRUST_PROXY: '127.0.0.1',
        GITHUB_API_URL: github.url,
        GITHUB_INTERACTIVE_WAIT_MS: '2000',
        BACKUP_DIR: backupDir,
        BACKUP_SCHEDULE: TICK_EVERY_2S,
        SYNC_SCHEDULE: TICK_EVERY_2S,
        JOB_POLL_MS: '200',
      };
      // Both at the same moment, on a database without a single table.
      const first = startInstance('a', env);
      const second = startInstance('b', env);
      a = first;
      b = second;
      await Promise.all([first.listening, second.listening]);
      startedAt = Date.now();
    }, 60_000);

    afterAll(async () => {
      for (const instance of [a, b]) {
        if (instance && instance.process.exitCode === null) instance.process.kill('SIGKILL');
      }
      await database?.dispose();
      await github?.close();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    });

    it('start at once on an empty database: one migrates while the other waits, both are ready', async () => {
      for (const instance of [a, b]) {
        const ready = await call(instance, 'GET', '/health/ready');
        expect(ready, instance.name).toEqual({
          status: 200,
          body: { status: 'ready', database: 'ok', migrations: 'ok' },
        });
        const health = await call(instance, 'GET', '/health');
        expect(health.body, instance.name).toMatchObject({ status: 'ok', database: 'ok', redis: 'ok' });
        expect(instance.output(), instance.name).not.toMatch(/"level":(50|60)/);
      }
      const recorded = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(
        database.handle.db,
      );
      expect(recorded.rows.map((row) => row.name)).toEqual(Object.keys(migrations).sort());
    });

    it('a repository added through one is listed and found by search through the other', async () => {
      const account = await createMember('admin', { admin: true });
      admin = { email: account.email, access: (await login(a, account.email)).access };

      const added = await call(a, 'POST', '/repositories/', {
        body: { id: 'facebook/react' },
        token: admin.access,
      });
      expect(added.status, JSON.stringify(added.body)).toBe(201);

      // The access token signed by one instance is honoured by the other (one SECRET_KEY).
      const listed = await call(b, 'GET', '/repositories/', { token: admin.access });
      expect(listed.status).toBe(200);
      const ids = (listed.body.repositories as { id: string }[]).map((repository) => repository.id);
      expect(ids).toContain('facebook/react');
      const found = await call(b, 'GET', '/repositories/?q=react', { token: admin.access });
      expect(found.status).toBe(200);
      expect((found.body.repositories as { id: string }[]).map((repository) => repository.id)).toContain(
        'facebook/react',
      );
      const missed = await call(b, 'GET', '/repositories/?q=no-such-thing-here', { token: admin.access });
      expect(missed.body.repositories).toEqual([]);
    });

    it('a refresh token rotated on one is refused when replayed on the other, and its family is revoked', async () => {
      const member = await createMember('rotor');
      const session = await login(a, member.email);
      const rotated = await call(a, 'POST', '/auth/refresh', { body: { refresh_token: session.refresh } });
      expect(rotated.status).toBe(200);
      const successor = String(rotated.body.refresh_token);

      const replayed = await call(b, 'POST', '/auth/refresh', { body: { refresh_token: session.refresh } });
      expect(replayed.status).toBe(401);
      // The replay revoked the whole family: the successor is dead on either instance.
      expect((await call(b, 'POST', '/auth/refresh', { body: { refresh_token: successor } })).status).toBe(
        401,
      );
      expect((await call(a, 'POST', '/auth/refresh', { body: { refresh_token: successor } })).status).toBe(
        401,
      );
    });

    it('a deactivation on one ends the account’s sessions on the other at once', async () => {
      const member = await createMember('leaver');
      const session = await login(b, member.email);
      expect((await call(b, 'GET', '/auth/me', { token: session.access })).status).toBe(200);

      const deactivated = await call(a, 'PATCH', `/auth/admin/users/${member.id}`, {
        body: { is_active: false },
        token: admin.access,
      });
      expect(deactivated.status).toBe(200);

      expect((await call(b, 'GET', '/auth/me', { token: session.access })).status).toBe(401);
      expect(
        (await call(b, 'POST', '/auth/refresh', { body: { refresh_token: session.refresh } })).status,
      ).toBe(401);
    });

    it('the login and forgot-password limits count across both instances', async () => {
      // Per account: 10 failed sign-ins in 15 minutes, each from its own address and spread
      // over both instances; the 11th is refused by whichever instance gets it.
      const target = await createMember('guessed');
      for (let attempt = 0; attempt < 10; attempt++) {
        const answer = await call(attempt % 2 ? b : a, 'POST', '/auth/login', {
          body: { email_or_username: target.email, password: 'Wrong-passw0rd' },
        });
        expect(answer.status, `attempt ${attempt + 1}`).toBe(401);
      }
      const refused = await call(b, 'POST', '/auth/login', {
        body: { email_or_username: target.email, password: PASSWORD },
      });
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('rate_limited');

      // Forgot password, per account: 3 in 15 minutes across both.
      const forgetful = await createMember('forgetful');
      for (const instance of [a, b, a]) {
        expect(
          (await call(instance, 'POST', '/auth/forgot-password', { body: { email: forgetful.email } }))
            .status,
        ).toBe(200);
      }
      expect(
        (await call(b, 'POST', '/auth/forgot-password', { body: { email: forgetful.email } })).status,
      ).toBe(429);

      // Forgot password, per client: 3 in 15 minutes from one address, whichever instance answers.
      const address = nextAddress();
      for (const instance of [b, a, b]) {
        const email = `nobody-${randomBytes(3).toString('hex')}@example.com`;
        expect(
          (await call(instance, 'POST', '/auth/forgot-password', { body: { email }, address })).status,
        ).toBe(200);
      }
      const fromSameClient = await call(a, 'POST', '/auth/forgot-password', {
        body: { email: `nobody-${run}@example.com` },
        address,
      });
      expect(fromSameClient.status).toBe(429);
    });

    it('each scheduled job runs once per tick between them, never twice', async () => {
      // Let at least four ticks of each schedule pass (every 2 s) since both were listening.
      const waitMs = Math.max(0, startedAt + 8_500 - Date.now());
      await new Promise((resolve) => setTimeout(resolve, waitMs));

      const backups = await database.handle.db
        .selectFrom('audit_log')
        .select('created_at')
        .where('action', '=', 'backup.create')
        .orderBy('created_at')
        .execute();
      const syncRuns = await database.handle.db
        .selectFrom('jobs')
        .select('created_at')
        .where('kind', '=', syncDueJob.name)
        .orderBy('created_at')
        .execute();
      for (const [what, rows] of [
        ['backups', backups],
        ['sync runs', syncRuns],
      ] as const) {
        expect(rows.length, what).toBeGreaterThanOrEqual(3);
        // Both instances tick at the same moment; a tick taken twice would leave two rows
        // milliseconds apart. One per tick leaves them a tick (2 s) apart.
        const times = rows.map((row) => Date.parse(row.created_at));
        for (let index = 1; index < times.length; index++) {
          expect((times[index] ?? 0) - (times[index - 1] ?? 0), `${what} ${index}`).toBeGreaterThan(1000);
        }
      }
      // One backup file per tick in the shared BACKUP_DIR.
      const files = readdirSync(backupDir).filter((name) => name.startsWith('backup-auto-'));
      expect(files.length).toBe(Math.min(backups.length, 10));
      // Both instances were ticking, and at least one tick was refused to one of them (which one
      // wins a tick is a race: over a few ticks one may win them all).
      expect(a.output() + b.output()).toContain('another instance took this run');
      for (const instance of [a, b]) {
        expect(instance.output(), instance.name).toContain(`"job":"${autoBackupJob.name}"`);
      }
    }, 20_000);

    it('reports Redis and the pool in /metrics, then both shut down cleanly on SIGTERM', async () => {
      for (const instance of [a, b]) {
        const response = await fetch(`${instance.base}/metrics`, {
          headers: { authorization: `Bearer ${METRICS_TOKEN}` },
        });
        expect(response.status).toBe(200);
        const text = await response.text();
        expect(text).toMatch(/^repo_tracker_redis_up 1$/m);
        expect(text).toMatch(/^repo_tracker_db_pool_max 10$/m);
        expect(text).toMatch(/^repo_tracker_database_up 1$/m);
      }
      for (const instance of [a, b]) instance.process.kill('SIGTERM');
      expect(await Promise.all([a.exited, b.exited])).toEqual([0, 0]);
    });
  },
);
