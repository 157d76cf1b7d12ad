/**
 * The admin command line: `npm run cli -- <command>` (or `node server/cli.ts <command>`).
 * Reads the same configuration as the server (`.env` in the working folder, then the
 * environment) and works on the same database. Exit codes: 0 done, 1 failed, 2 usage error.
 */
import { randomInt } from 'node:crypto';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';
import type { FastifyBaseLogger } from 'fastify';
import { registerBodySchema } from '#shared/schemas/auth.ts';
import { type AppConfig, ConfigError, loadConfig } from './config.ts';
import { type DatabaseHandle, openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { createGitHubClient } from './github/github-client.ts';
import { AppError } from './lib/app-error.ts';
import { systemClock } from './lib/clock.ts';
import { resolveSecretKey } from './lib/secret-key.ts';
import { ACCOUNT_MESSAGES } from './modules/auth/accounts.service.ts';
import { databaseHasData, RestoreError, restoreBackup } from './modules/backups/restore.ts';
import { createMailer } from './modules/messages/mail-transport.ts';
import { buildServices, type Services } from './services.ts';

export const USAGE = `Usage: npm run cli -- <command> [options]

Commands:
  admin create --email <email> --username <name> --first-name <name> --last-name <name> [--password <password>]
      Create an administrator (verified and active). Without --password a strong one is
      generated and printed once.
  admin promote <username|email>
      Make an existing account an administrator (and active and verified).
  user create --email <email> --username <name> --first-name <name> --last-name <name> [--password <password>]
      Create a member account, verified and active (for REGISTRATION=closed).
  users list [--json]
      List every account.
  backup [--auto]
      Write a backup to BACKUP_DIR. --auto counts it as an automatic backup (only the newest
      10 automatic backups are kept; manual ones are never removed).
  restore <file> [--yes]
      Replace everything in the configured database with a backup (SQLite or PostgreSQL,
      either way). Asks first when the database holds data; --yes answers for you.
      Stop the server first. Stored GitHub tokens and Slack webhooks need the SECRET_KEY of
      the instance that made the backup.
  help
      Show this text.

Configuration comes from .env and the environment, exactly as for the server
(DATA_DIR, DATABASE_URL, BACKUP_DIR, ...).
Exit codes: 0 done, 1 failed, 2 usage error.`;

/** A mistake in the command line itself: printed with the usage hint, exit code 2. */
export class UsageError extends Error {}
/** The command ran and could not do its job: exit code 1. */
export class CommandError extends Error {}

interface Output {
  out: (line: string) => void;
  err: (line: string) => void;
}

interface CliContext extends Output {
  config: AppConfig;
  /** Opens the database (once) without migrating: restore replaces it whole, schema included. */
  database(): DatabaseHandle;
  /** The server's services (services.ts) on the database brought up to date first. */
  services(): Promise<Services>;
  confirm(question: string): Promise<boolean>;
  interactive: boolean;
}

const ACCOUNT_OPTIONS = {
  email: { type: 'string' },
  username: { type: 'string' },
  'first-name': { type: 'string' },
  'last-name': { type: 'string' },
  password: { type: 'string' },
} as const;

function parse<T extends ParseArgsOptionsConfig>(args: string[], options: T) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(
      error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error),
    );
  }
}

function noPositionals(positionals: string[], command: string) {
  if (positionals.length > 0) throw new UsageError(`"${command}" takes no argument "${positionals[0]}"`);
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** 20 characters with every class the registration rules ask for (letters, digits, one of @$!%*?&). */
export function generatePassword(): string {
  const sets = ['ABCDEFGHJKLMNPQRSTUVWXYZ', 'abcdefghijkmnopqrstuvwxyz', '23456789', '@$!%*?&'];
  const all = sets.join('');
  const chars = sets.map((set) => set[randomInt(set.length)] as string);
  while (chars.length < 20) chars.push(all[randomInt(all.length)] as string);
  for (let index = chars.length - 1; index > 0; index -= 1) {
    const other = randomInt(index + 1);
    [chars[index], chars[other]] = [chars[other] as string, chars[index] as string];
  }
  return chars.join('');
}

async function createAccount(context: CliContext, args: string[], role: 'admin' | 'member') {
  const command = role === 'admin' ? 'admin create' : 'user create';
  const { values, positionals } = parse(args, ACCOUNT_OPTIONS);
  noPositionals(positionals, command);
  const missing = (['email', 'username', 'first-name', 'last-name'] as const).filter((name) => !values[name]);
  if (missing.length > 0)
    throw new UsageError(`${command} needs ${missing.map((name) => `--${name}`).join(', ')}`);
  const generated = values.password === undefined;
  const password = values.password ?? generatePassword();
  const checked = registerBodySchema.safeParse({
    email: values.email,
    username: values.username,
    first_name: values['first-name'],
    last_name: values['last-name'],
    password,
  });
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const field = String(issue?.path[0] ?? 'value').replace('_', '-');
    throw new UsageError(`--${field}: ${issue?.message ?? 'invalid value'}`);
  }
  const body = checked.data;
  const { admin } = await context.services();
  let user: Awaited<ReturnType<typeof admin.createAccount>>;
  try {
    user = await admin.createAccount(body, role);
  } catch (error) {
    // The service's answer names no value; the operator's line names the one they typed.
    if (error instanceof AppError && error.message === ACCOUNT_MESSAGES.emailTaken)
      throw new CommandError(`An account with the email ${body.email.toLowerCase()} already exists`);
    if (error instanceof AppError && error.message === ACCOUNT_MESSAGES.usernameTaken)
      throw new CommandError(`The username ${body.username} is already taken`);
    throw error;
  }
  context.out(
    `Created ${role === 'admin' ? 'administrator' : 'member'} ${user.username} <${user.email}> (id ${user.id}).`,
  );
  if (generated) {
    context.out(`Password (shown only now, store it safely): ${password}`);
  }
}

async function promote(context: CliContext, args: string[]) {
  const { positionals } = parse(args, {});
  if (positionals.length !== 1) throw new UsageError('admin promote needs exactly one <username|email>');
  const login = positionals[0] as string;
  const promoted = await (await context.services()).admin.promote(login);
  if (!promoted) throw new CommandError(`No account with the username or email "${login}"`);
  const { user, changed } = promoted;
  if (!changed) {
    context.out(`${user.username} is already an active administrator.`);
    return;
  }
  context.out(`${user.username} <${user.email}> is now an administrator (active and verified).`);
}

async function listUsers(context: CliContext, args: string[]) {
  const { values, positionals } = parse(args, { json: { type: 'boolean' } });
  noPositionals(positionals, 'users list');
  const all = await (await context.services()).admin.listAllUsers();
  const users = all.map((user) => ({
    id: user.id,
    username: user.username,
    email: user.email,
    first_name: user.first_name,
    last_name: user.last_name,
    is_active: user.is_active,
    is_verified: user.is_verified,
    is_admin: user.is_admin,
    created_at: user.created_at,
  }));
  if (values.json) {
    context.out(JSON.stringify(users, null, 2));
    return;
  }
  if (users.length === 0) {
    context.out('No accounts yet.');
    return;
  }
  const table = [
    ['ID', 'USERNAME', 'EMAIL', 'NAME', 'ACTIVE', 'VERIFIED', 'ADMIN', 'CREATED'],
    ...users.map((user) => [
      String(user.id),
      user.username,
      user.email,
      `${user.first_name} ${user.last_name}`,
      user.is_active ? 'yes' : 'no',
      user.is_verified ? 'yes' : 'no',
      user.is_admin ? 'yes' : 'no',
      user.created_at.slice(0, 10),
    ]),
  ];
  const widths =
    table[0]?.map((_, column) => Math.max(...table.map((row) => row[column]?.length ?? 0))) ?? [];
  for (const row of table) {
    context.out(
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join('  ')
        .trimEnd(),
    );
  }
  context.out(plural(users.length, 'account'));
}

async function backup(context: CliContext, args: string[]) {
  const { values, positionals } = parse(args, { auto: { type: 'boolean' } });
  noPositionals(positionals, 'backup');
  const { backups } = await context.services();
  const created = await backups.create(values.auto ? 'auto' : 'manual', null);
  context.out(
    `Backup written: ${created.path} (${plural(created.size_bytes, 'byte')}, ${plural(created.rows, 'row')})`,
  );
  for (const name of created.rotated) context.out(`Removed old automatic backup ${name}`);
}

async function restore(context: CliContext, args: string[]) {
  const { values, positionals } = parse(args, { yes: { type: 'boolean', short: 'y' } });
  if (positionals.length !== 1) throw new UsageError('restore needs exactly one <file>');
  const file = resolve(positionals[0] as string);
  if (!existsSync(file)) throw new CommandError(`No such file: ${file}`);
  const handle = context.database();
  const target = describeTarget(context.config);
  if (await databaseHasData(handle)) {
    if (!values.yes) {
      if (!context.interactive) {
        throw new UsageError(`${target} holds data; pass --yes to replace all of it with ${file}`);
      }
      const ok = await context.confirm(
        `${target} holds data. Replace ALL of it with ${file}? Type "yes" to continue: `,
      );
      if (!ok) throw new CommandError('Restore cancelled; nothing was changed.');
    }
  }
  context.out(`Restoring ${file} into ${target}...`);
  const result = await restoreBackup(handle, file);
  for (const table of result.tables) context.out(`  ${table.name}: ${plural(table.rows, 'row')}`);
  context.out(
    `Restored the backup of ${result.header.created} (${result.header.dialect}, schema ${result.header.schema_version}).`,
  );
  context.out(
    'Stored GitHub tokens and Slack webhooks can be read only with the SECRET_KEY of the instance that made the backup.',
  );
}

/** Where the command works, without credentials. */
function describeTarget(config: AppConfig): string {
  const url = config.databaseUrl;
  if (url && /^postgres(ql)?:/.test(url)) {
    const parsed = new URL(url);
    return `PostgreSQL database "${parsed.pathname.slice(1)}" on ${parsed.hostname}:${parsed.port || 5432}`;
  }
  const file = url?.startsWith('sqlite:') ? url.slice('sqlite:'.length) : `${config.dataDir}/repo-tracker.db`;
  return `SQLite database ${resolve(file)}`;
}

async function dispatch(context: CliContext, argv: string[]) {
  const [command, sub, ...rest] = argv;
  switch (command) {
    case 'admin':
      if (sub === 'create') return createAccount(context, rest, 'admin');
      if (sub === 'promote') return promote(context, rest);
      throw new UsageError(sub ? `Unknown command "admin ${sub}"` : '"admin" needs "create" or "promote"');
    case 'user':
      if (sub === 'create') return createAccount(context, rest, 'member');
      throw new UsageError(sub ? `Unknown command "user ${sub}"` : '"user" needs "create"');
    case 'users':
      if (sub === 'list') return listUsers(context, rest);
      throw new UsageError(sub ? `Unknown command "users ${sub}"` : '"users" needs "list"');
    case 'backup':
      return backup(context, argv.slice(1));
    case 'restore':
      return restore(context, argv.slice(1));
    default:
      throw new UsageError(`Unknown command "${command}"`);
  }
}

/** Runs one command line; resolves to the exit code. */
export async function runCli(
  argv: string[],
  io: Output & { env?: Record<string, string | undefined>; interactive?: boolean } = {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  },
): Promise<number> {
  const first = argv[0];
  if (first === undefined || first === 'help' || first === '--help' || first === '-h') {
    (first === undefined ? io.err : io.out)(USAGE);
    return first === undefined ? 2 : 0;
  }
  let config: AppConfig;
  try {
    config = loadConfig(io.env ?? process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.err(error.message);
      return 1;
    }
    throw error;
  }
  let handle: DatabaseHandle | undefined;
  let services: Promise<Services> | undefined;
  const mailer = createMailer(config, quietLog);
  const interactive = io.interactive ?? Boolean(process.stdin.isTTY && process.stdout.isTTY);
  const context: CliContext = {
    ...io,
    config,
    interactive,
    database() {
      handle ??= openDatabase(config);
      return handle;
    },
    services() {
      services ??= (async () => {
        const { db, dialect, copyOut } = this.database();
        await migrateToLatest(db);
        return buildServices({
          db,
          dialect,
          copyOut,
          clock: systemClock,
          config,
          secretKey: resolveSecretKey(config),
          github: createGitHubClient(config, { clock: systemClock }),
          // Never used here: mail is queued, and only a running server's worker sends it.
          mailer,
          log: quietLog,
        });
      })();
      return services;
    },
    async confirm(question) {
      const prompt = createInterface({ input: process.stdin, output: process.stdout });
      try {
        return (await prompt.question(question)).trim().toLowerCase() === 'yes';
      } finally {
        prompt.close();
      }
    },
  };
  try {
    await dispatch(context, argv);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`Error: ${error.message}`);
      io.err('Run "npm run cli -- help" for usage.');
      return 2;
    }
    if (error instanceof CommandError || error instanceof RestoreError) {
      io.err(`Error: ${error.message}`);
      return 1;
    }
    io.err(`Error: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    mailer.close();
    await handle?.close();
  }
}

/** The command line prints its own lines; the services' log lines (the server's JSON log) stay out. */
const quietLog: FastifyBaseLogger = {
  level: 'silent',
  fatal: () => {},
  error: () => {},
  warn: () => {},
  info: () => {},
  debug: () => {},
  trace: () => {},
  silent: () => {},
  child: () => quietLog,
};

// Run only when executed directly (tests import the functions).
if (import.meta.main) {
  // `.env` is optional; real environment variables win over it (as in main.ts).
  if (existsSync('.env')) process.loadEnvFile('.env');
  process.exitCode = await runCli(process.argv.slice(2));
}
