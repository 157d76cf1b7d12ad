import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login } from '../test/helpers/auth-factory.ts';
import { CHILD_ENV } from '../test/helpers/child-env.ts';
import { createTestDatabase, testDialect } from '../test/helpers/test-database.ts';
import { buildApp } from './app.ts';
import { generatePassword, USAGE } from './cli.ts';
import { loadConfig } from './config.ts';
import { type DatabaseHandle, openDatabase } from './db/database.ts';

const CLI = fileURLToPath(new URL('./cli.ts', import.meta.url));
const SECRET_KEY = 'cli-test-secret-key-0123456789abcdef0123456789abcdef';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `node server/cli.ts …` in its own working folder (so no developer .env is picked up). */
function runCli(args: string[], env: Record<string, string>, options: { cwd?: string } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: options.cwd ?? workDir,
      env: { ...CHILD_ENV, LOG_LEVEL: 'silent', SECRET_KEY, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

let workDir: string;
let dataDir: string;
let env: Record<string, string>;
let disposeDatabase: (() => Promise<void>) | undefined;

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'rt-cli-'));
  dataDir = join(workDir, 'data');
  env = { DATA_DIR: dataDir };
  // On the PostgreSQL pass the commands work on a fresh PostgreSQL database.
  if (testDialect === 'postgres') {
    const database = await createTestDatabase();
    env.DATABASE_URL = database.url;
    await database.handle.close();
    disposeDatabase = database.dispose;
  }
});

afterAll(async () => {
  await disposeDatabase?.();
  rmSync(workDir, { recursive: true, force: true });
});

/** The app on the database the commands used, to prove accounts sign in. */
async function withApp<T>(work: (app: FastifyInstance) => Promise<T>, environment = env): Promise<T> {
  const config = loadConfig({ ...environment, LOG_LEVEL: 'silent', SECRET_KEY, BACKUP_SCHEDULE: 'off' });
  const handle: DatabaseHandle = openDatabase(config);
  const app = await buildApp(config, { database: handle });
  try {
    await app.ready();
    return await work(app);
  } finally {
    await app.close();
    await handle.close();
  }
}

const account = (name: string) => [
  '--email',
  `${name}@example.com`,
  '--username',
  name,
  '--first-name',
  'Grace',
  '--last-name',
  'Hopper',
];

describe('usage', () => {
  it('without a command: the usage text on stderr, exit 2', async () => {
    const run = await runCli([], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Usage: npm run cli -- <command> [options]');
  });

  it('help: the usage text on stdout, exit 0', async () => {
    const run = await runCli(['help'], env);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe(USAGE);
    for (const command of [
      'admin create',
      'admin promote',
      'user create',
      'users list',
      'backup',
      'restore',
    ]) {
      expect(run.stdout).toContain(command);
    }
  });

  it.each([
    [['frobnicate'], 'Unknown command "frobnicate"'],
    [['admin'], '"admin" needs "create" or "promote"'],
    [['admin', 'delete'], 'Unknown command "admin delete"'],
    [
      ['admin', 'create', '--email', 'a@example.com'],
      'admin create needs --username, --first-name, --last-name',
    ],
    [['admin', 'create', ...account('bad'), '--colour', 'red'], "Unknown option '--colour'"],
    [['admin', 'create', ...account('x')], '--username: Username must be 3-20 characters'],
    [
      ['user', 'create', ...account('valid_name').slice(2), '--email', 'not-an-email'],
      '--email: Please enter a valid email address',
    ],
    [
      ['admin', 'create', ...account('weakpw'), '--password', 'password'],
      '--password: Password must be at least 8 characters with uppercase, lowercase, and number',
    ],
    [['admin', 'promote'], 'admin promote needs exactly one <username|email>'],
    [['users', 'list', 'extra'], '"users list" takes no argument "extra"'],
    [['restore'], 'restore needs exactly one <file>'],
  ])('%j → exit 2 with a clear message', async (args, message) => {
    const run = await runCli(args, env);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(`Error: ${message}`);
    expect(run.stderr).toContain('Run "npm run cli -- help" for usage.');
  });

  it('a malformed configuration → exit 1 naming the variable', async () => {
    const run = await runCli(['users', 'list'], { ...env, PORT: 'eighty' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/Invalid configuration: PORT/);
  });

  it('generated passwords satisfy the registration rules', () => {
    for (let index = 0; index < 50; index += 1) {
      expect(generatePassword()).toMatch(/^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)[A-Za-z\d@$!%*?&]{20}$/);
    }
  });
});

describe('accounts', () => {
  it('admin create with a password: a verified, active admin who can sign in', async () => {
    const run = await runCli(['admin', 'create', ...account('grace'), '--password', 'Sup3rSecret!'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Created administrator grace <grace@example\.com> \(id \d+\)\.$/m);
    expect(run.stdout).not.toContain('Sup3rSecret!');
    await withApp(async (app) => {
      const session = await login(app, { email_or_username: 'grace', password: 'Sup3rSecret!' });
      expect(session.user).toMatchObject({ is_admin: true, is_active: true, is_verified: true });
    });
  });

  it('admin create without a password prints a generated one once', async () => {
    const run = await runCli(['admin', 'create', ...account('ada_l')], env);
    expect(run.code, run.stderr).toBe(0);
    const password = /Password \(shown only now, store it safely\): (\S+)/.exec(run.stdout)?.[1];
    expect(password).toBeDefined();
    await withApp(async (app) => {
      const session = await login(app, { email_or_username: 'ada_l@example.com', password: password ?? '' });
      expect(session.user.is_admin).toBe(true);
    });
  });

  it('user create: a verified, active member', async () => {
    const run = await runCli(['user', 'create', ...account('member_1'), '--password', 'Passw0rd!'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Created member member_1');
    await withApp(async (app) => {
      const session = await login(app, { email_or_username: 'member_1', password: 'Passw0rd!' });
      expect(session.user).toMatchObject({ is_admin: false, is_active: true, is_verified: true });
    });
  });

  it('a taken e-mail or username → exit 1', async () => {
    const email = await runCli(
      ['user', 'create', ...account('grace2').slice(2), '--email', 'GRACE@example.com'],
      env,
    );
    expect(email.code).toBe(1);
    expect(email.stderr).toContain('Error: An account with the email grace@example.com already exists');
    const username = await runCli(
      ['user', 'create', '--email', 'other@example.com', ...account('Grace').slice(2)],
      env,
    );
    expect(username.code).toBe(1);
    expect(username.stderr).toContain('Error: The username Grace is already taken');
  });

  it('admin promote <username|email>', async () => {
    const promoted = await runCli(['admin', 'promote', 'MEMBER_1@example.com'], env);
    expect(promoted.code, promoted.stderr).toBe(0);
    expect(promoted.stdout).toContain('member_1 <member_1@example.com> is now an administrator');
    const again = await runCli(['admin', 'promote', 'member_1'], env);
    expect(again.stdout).toContain('member_1 is already an active administrator.');
    const missing = await runCli(['admin', 'promote', 'nobody'], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Error: No account with the username or email "nobody"');
  });

  it('users list, as a table and as JSON', async () => {
    const table = await runCli(['users', 'list'], env);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^ID\s+USERNAME\s+EMAIL\s+NAME\s+ACTIVE\s+VERIFIED\s+ADMIN\s+CREATED$/m);
    expect(table.stdout).toMatch(/grace\s+grace@example\.com\s+Grace Hopper\s+yes\s+yes\s+yes/);
    expect(table.stdout).toContain('3 accounts');
    const json = await runCli(['users', 'list', '--json'], env);
    const users = JSON.parse(json.stdout);
    expect(users.map((user: { username: string }) => user.username)).toEqual(['grace', 'ada_l', 'member_1']);
    expect(json.stdout).not.toContain('password');
  });
});

describe('backup and restore', () => {
  let manual: string;

  it('backup and backup --auto write to BACKUP_DIR', async () => {
    const run = await runCli(['backup'], env);
    expect(run.code, run.stderr).toBe(0);
    manual = /Backup written: (\S+) \(/.exec(run.stdout)?.[1] ?? '';
    expect(manual).toMatch(/\/data\/backups\/backup-manual-[\dT-]+Z(-\d+)?\.jsonl\.gz$/);
    expect(existsSync(manual)).toBe(true);
    const auto = await runCli(['backup', '--auto'], env);
    expect(auto.code).toBe(0);
    expect(auto.stdout).toMatch(/backup-auto-/);
    expect(readdirSync(join(dataDir, 'backups')).filter((name) => name.endsWith('.jsonl.gz'))).toHaveLength(
      2,
    );
  });

  it('restore into an empty instance needs no confirmation', async () => {
    const other = { DATA_DIR: join(workDir, 'other') };
    const run = await runCli(['restore', manual], other);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`Restoring ${manual} into SQLite database`);
    expect(run.stdout).toMatch(/^ {2}users: 3 rows$/m);
    expect(run.stdout).toContain('SECRET_KEY');
    await withApp(async (app) => {
      const session = await login(app, { email_or_username: 'grace', password: 'Sup3rSecret!' });
      expect(session.user.is_admin).toBe(true);
    }, other);
  });

  it('restore over data refuses without --yes when nobody can answer, and replaces it with --yes', async () => {
    await runCli(['user', 'create', ...account('after_backup'), '--password', 'Passw0rd!'], env);
    const refused = await runCli(['restore', manual], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/holds data; pass --yes to replace all of it with/);
    const done = await runCli(['restore', manual, '--yes'], env);
    expect(done.code, done.stderr).toBe(0);
    const list = await runCli(['users', 'list', '--json'], env);
    expect(JSON.parse(list.stdout).map((user: { username: string }) => user.username)).not.toContain(
      'after_backup',
    );
  });

  it('restore of a missing or foreign file → exit 1 with the reason', async () => {
    const missing = await runCli(['restore', join(workDir, 'nope.jsonl.gz'), '--yes'], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Error: No such file:');
    const foreign = join(workDir, 'foreign.txt');
    writeFileSync(foreign, 'hello');
    const refused = await runCli(['restore', foreign, '--yes'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('is not a gzip backup file, or it is damaged');
  });
});

describe('configuration', () => {
  it('reads .env from the working folder like the server', async () => {
    const folder = mkdtempSync(join(workDir, 'envdir-'));
    writeFileSync(
      join(folder, '.env'),
      `DATA_DIR=${join(folder, 'from-dotenv')}\nSECRET_KEY=${SECRET_KEY}\n`,
    );
    const run = await runCli(['backup'], { SECRET_KEY }, { cwd: folder });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(join(folder, 'from-dotenv', 'backups'));
  });
});
