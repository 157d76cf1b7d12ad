import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, login, signedInUser } from '../../../test/helpers/auth-factory.ts';
import { insertCatalogue } from '../../../test/helpers/backup-seed.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import {
  createScratchDatabase,
  postgresReachable,
  type ScratchDatabase,
  testDialect,
} from '../../../test/helpers/test-database.ts';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import type { DatabaseHandle, Dialect } from '../../db/database.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { migrations } from '../../db/migrations/index.ts';
import { BACKUP_FORMAT, BACKUP_TABLES } from './backup-format.ts';
import { listTablesInOrder } from './backups.queries.ts';
import { databaseHasData, RestoreError, restoreBackup } from './restore.ts';

const SECRET_KEY = 'test-secret-key-0123456789abcdef0123456789abcdef';
const GITHUB_TOKEN = 'ghp_restoreRoundTrip0123456789abcdefXYZ';
const WEBHOOK = 'https://hooks.slack.com/services/T000/B000/restoreRoundTrip';
const latestMigration = Object.keys(migrations).sort().at(-1) ?? '';

const workDir = mkdtempSync(join(tmpdir(), 'rt-restore-'));

// The PostgreSQL pass always has a server; the SQLite pass uses one when it can reach it.
const postgresAvailable = testDialect === 'postgres' || (await postgresReachable());

type Target = ScratchDatabase;

const createTarget = (dialect: Dialect): Promise<Target> => createScratchDatabase(dialect, { dir: workDir });

/** Every table's rows in key order: what "loses nothing" is measured against. */
async function snapshot(handle: DatabaseHandle): Promise<Record<string, unknown[]>> {
  const result: Record<string, unknown[]> = {};
  for (const table of await listTablesInOrder(handle.db)) {
    const order = sql.join((table.key ?? table.columns).map((column) => sql.ref(column)));
    const { rows } = await sql<
      Record<string, unknown>
    >`select * from ${sql.table(table.name)} order by ${order}`.execute(handle.db);
    result[table.name] = rows;
  }
  return result;
}

/** An app on a restored database, as the operator would start it. */
async function appOn(handle: DatabaseHandle, secretKey = SECRET_KEY) {
  const config = loadConfig({
    DATA_DIR: mkdtempSync(join(workDir, 'app-')),
    LOG_LEVEL: 'silent',
    SECRET_KEY: secretKey,
    BACKUP_SCHEDULE: 'off',
  });
  const app = await buildApp(config, { database: handle });
  await app.ready();
  return app;
}

let source: TestApp;
let sourceHandle: DatabaseHandle;
let backupFile: string;
let before: Record<string, unknown[]>;
let member: Awaited<ReturnType<typeof signedInUser>>;
let admin: Awaited<ReturnType<typeof signedInUser>>;

beforeAll(async () => {
  source = await createTestApp(
    { WEBHOOK_ALLOWED_HOSTS: 'hooks.slack.com', BACKUP_SCHEDULE: 'off' },
    { resolve: async () => ['34.235.1.2'] },
  );
  sourceHandle = { db: source.app.db, dialect: source.app.dbDialect, close: async () => {} };
  admin = await signedInUser(source.app, { is_admin: true });
  member = await signedInUser(source.app, { first_name: 'Zoë', last_name: "O'Brien" });
  const dormant = await createUser(source.app, { is_active: false });
  await source.app.services.me.setGitHubToken(member.id, GITHUB_TOKEN);
  await source.app.services.me.setSlackWebhook(member.id, WEBHOOK);
  await insertCatalogue(source.app, member.id);
  await insertCatalogue(source.app, admin.id);
  // An admin change, so the audit log has rows too.
  await source.app.inject({
    method: 'PATCH',
    url: `/auth/admin/users/${dormant.id}`,
    headers: admin.headers,
    payload: { is_verified: false },
  });
  // The database as the backup sees it (taking it adds one audit row afterwards).
  before = await snapshot(sourceHandle);
  const response = await source.app.inject({ method: 'POST', url: '/health/backup', headers: admin.headers });
  expect(response.statusCode).toBe(200);
  backupFile = join(source.config.backupDir, response.json().backup_path);
});

afterAll(async () => {
  await source?.close();
  rmSync(workDir, { recursive: true, force: true });
});

describe.each([
  ['sqlite', true],
  ['postgres', postgresAvailable],
] as const)(`restore of a ${testDialect} backup into a fresh %s database`, (dialect, available) => {
  let target: Target;
  beforeAll(async () => {
    if (!available) return;
    target = await createTarget(dialect);
  });
  afterAll(async () => {
    await target?.dispose();
  });

  it.skipIf(!available)('loses nothing: every table, row and value is the same', async () => {
    expect(await databaseHasData(target.handle)).toBe(false);
    const result = await restoreBackup(target.handle, backupFile);
    expect(result.header).toMatchObject({ format: BACKUP_FORMAT, dialect: testDialect });
    const after = await snapshot(target.handle);
    const restoredTables = Object.keys(after).filter((table) => table !== 'audit_log');
    for (const table of restoredTables) expect(after[table], table).toEqual(before[table]);
    // The audit log holds the same rows plus one line recording the restore itself.
    expect(after.audit_log?.slice(0, before.audit_log?.length)).toEqual(before.audit_log);
    expect(after.audit_log?.at(-1)).toMatchObject({ action: 'backup.restore', actor_id: null });
    expect(Object.keys(after).sort()).toEqual(BACKUP_TABLES.map((table) => table.name).sort());
    expect(await databaseHasData(target.handle)).toBe(true);
  });

  it.skipIf(!available)('members sign in, and stored secrets open with the same SECRET_KEY', async () => {
    const app = await appOn(target.handle);
    try {
      const session = await login(app, { email_or_username: member.username, password: member.password });
      expect(session.user).toMatchObject({
        id: member.id,
        first_name: 'Zoë',
        has_personal_github_token: true,
      });
      expect(await app.services.me.readGitHubToken(member.id)).toBe(GITHUB_TOKEN);
      expect(await app.services.me.readSlackWebhook(member.id)).toBe(WEBHOOK);
      const me = await app.inject({
        method: 'GET',
        url: '/auth/me',
        headers: { authorization: `Bearer ${session.access_token}` },
      });
      expect(me.statusCode).toBe(200);
      // Sessions issued before the backup still refresh.
      const refreshed = await app.inject({
        method: 'POST',
        url: '/auth/refresh',
        payload: { refresh_token: admin.session.refresh_token },
      });
      expect(refreshed.statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it.skipIf(!available)('another SECRET_KEY cannot open them', async () => {
    const app = await appOn(target.handle, 'another-secret-key-0123456789abcdef0123456789');
    try {
      await expect(app.services.me.readGitHubToken(member.id)).rejects.toThrow();
    } finally {
      await app.close();
    }
  });

  it.skipIf(!available)(
    'new rows get fresh ids after the restored ones (identity sequences moved)',
    async () => {
      const app = await appOn(target.handle);
      try {
        const created = await createUser(app);
        const highest = Math.max(...(before.users ?? []).map((row) => (row as { id: number }).id));
        expect(created.id).toBeGreaterThan(highest);
        const audit = await app.db
          .insertInto('audit_log')
          .values({
            actor_id: null,
            action: 'test',
            target: null,
            detail: null,
            created_at: new Date().toISOString(),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        expect(audit.id).toBeGreaterThan(
          Math.max(...(before.audit_log ?? []).map((row) => (row as { id: number }).id)),
        );
      } finally {
        await app.close();
      }
    },
  );

  it.skipIf(!available)('restoring into an instance with data replaces all of it', async () => {
    const app = await appOn(target.handle);
    try {
      await createUser(app, { username: 'only_in_target' });
      await insertCatalogue(app, admin.id);
    } finally {
      await app.close();
    }
    await restoreBackup(target.handle, backupFile);
    const after = await snapshot(target.handle);
    for (const table of Object.keys(after).filter((name) => name !== 'audit_log')) {
      expect(after[table], table).toEqual(before[table]);
    }
  });

  it.skipIf(!available)(
    'and back: a backup of the restored database restores into the other dialect',
    async () => {
      const app = await appOn(target.handle);
      let again: string;
      let expected: Record<string, unknown[]>;
      try {
        const boss = await login(app, { email_or_username: admin.email, password: admin.password });
        // What the second backup will hold (signing in just updated last_login_at).
        expected = await snapshot(target.handle);
        const response = await app.inject({
          method: 'POST',
          url: '/health/backup',
          headers: { authorization: `Bearer ${boss.access_token}` },
        });
        expect(response.statusCode).toBe(200);
        again = join(app.config.backupDir, response.json().backup_path);
        expect(
          JSON.parse(gunzipSync(readFileSync(again)).toString('utf8').split('\n')[0] ?? '{}').dialect,
        ).toBe(dialect);
      } finally {
        await app.close();
      }
      const otherDialect: Dialect = dialect === 'sqlite' ? 'postgres' : 'sqlite';
      if (otherDialect === 'postgres' && !postgresAvailable) return;
      const other = await createTarget(otherDialect);
      try {
        await restoreBackup(other.handle, again);
        const after = await snapshot(other.handle);
        for (const table of Object.keys(after).filter((name) => name !== 'audit_log')) {
          expect(after[table], table).toEqual(expected[table]);
        }
        expect(after.audit_log?.slice(0, expected.audit_log?.length)).toEqual(expected.audit_log);
      } finally {
        await other.dispose();
      }
    },
  );
});

describe('refusals leave the database as it was', () => {
  let target: Target;
  let untouched: Record<string, unknown[]>;
  beforeAll(async () => {
    target = await createTarget('sqlite');
    await restoreBackup(target.handle, backupFile);
    untouched = await snapshot(target.handle);
  });
  afterAll(async () => {
    await target?.dispose();
  });

  const lines = () => gunzipSync(readFileSync(backupFile)).toString('utf8').split('\n').filter(Boolean);
  const write = (name: string, content: string | Buffer) => {
    const file = join(workDir, name);
    writeFileSync(file, typeof content === 'string' ? gzipSync(content) : content);
    return file;
  };
  const withHeader = (change: (header: Record<string, unknown>) => void) => {
    const [first, ...rest] = lines();
    const header = JSON.parse(first ?? '{}');
    change(header);
    return [JSON.stringify(header), ...rest].join('\n');
  };

  it.each([
    ['not gzip', () => join(workDir, 'plain.txt'), /is not a gzip backup file, or it is damaged/],
    ['empty', () => write('empty.gz', ''), /is empty: not a backup file/],
    ['not JSON', () => write('text.gz', 'hello\n'), /its first line is not a JSON header/],
    [
      'another format',
      () =>
        write(
          'other.gz',
          withHeader((header) => Object.assign(header, { format: 'other-backup' })),
        ),
      /is not a repo-tracker-backup file: its header names another format/,
    ],
    [
      'a newer schema',
      () =>
        write(
          'newer.gz',
          withHeader((header) => Object.assign(header, { schema_version: '2999-01-01-0001-future' })),
        ),
      /made by a newer version of the app \(schema 2999-01-01-0001-future\).*Upgrade the app, then restore/,
    ],
    [
      'an unknown schema',
      () =>
        write(
          'unknown.gz',
          withHeader((header) => Object.assign(header, { schema_version: '2000-01-01-0001-old' })),
        ),
      /schema version 2000-01-01-0001-old, which this version of the app does not know/,
    ],
    [
      'a damaged header',
      () =>
        write(
          'damaged.gz',
          withHeader((header) => Object.assign(header, { tables: 'x' })),
        ),
      /has a damaged header \(tables:/,
    ],
    [
      'missing rows',
      () => write('short.gz', lines().slice(0, -3).join('\n')),
      /The backup is incomplete: table/,
    ],
    [
      'a truncated gzip',
      () => {
        const bytes = readFileSync(backupFile);
        return write('truncated.gz', bytes.subarray(0, Math.floor(bytes.length / 2)));
      },
      /is not a gzip backup file, or it is damaged/,
    ],
  ])('refuses %s with a clear message', async (_, file, message) => {
    writeFileSync(join(workDir, 'plain.txt'), 'just text');
    await expect(restoreBackup(target.handle, file())).rejects.toThrow(message);
    await expect(restoreBackup(target.handle, file())).rejects.toBeInstanceOf(RestoreError);
    expect(await snapshot(target.handle)).toEqual(untouched);
  });
});

describe('a backup from an older schema', () => {
  it('restores into an empty database at its own version, then migrates to the latest', async () => {
    // A hand-made backup of the users table only, as the version at migration 0002 wrote it.
    const older = '2026-11-22-0002-create-users-and-tokens';
    const columnsThen = [
      'id',
      'username',
      'email',
      'first_name',
      'last_name',
      'password_hash',
      'is_active',
      'is_verified',
      'is_admin',
      'token_version',
      'created_at',
      'updated_at',
      'last_login_at',
      'github_token_enc',
      'github_token_last_four',
      'github_token_set_at',
      'slack_webhook_enc',
      'slack_webhook_set_at',
    ];
    const stored = before.users?.find((row) => (row as { id: number }).id === member.id) as Record<
      string,
      unknown
    >;
    const user = Object.fromEntries(columnsThen.map((column) => [column, stored[column]]));
    const header = {
      format: BACKUP_FORMAT,
      schema_version: older,
      created: '2026-01-01T00:00:00.000Z',
      dialect: 'sqlite',
      tables: [{ name: 'users', columns: Object.keys(user), rows: 1 }],
    };
    const file = join(workDir, 'older.jsonl.gz');
    writeFileSync(
      file,
      gzipSync(`${JSON.stringify(header)}\n${JSON.stringify({ table: 'users', row: user })}\n`),
    );
    const target = await createTarget('sqlite');
    try {
      await restoreBackup(target.handle, file);
      const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(
        target.handle.db,
      );
      expect(applied.rows.at(-1)?.name).toBe(latestMigration);
      const users = await target.handle.db.selectFrom('users').select(['id', 'username']).execute();
      expect(users).toEqual([{ id: member.id, username: member.username }]);
    } finally {
      await target.dispose();
    }
  });
});

describe('a backup from before stored commits had their own table (migration 2026-11-28-0300)', () => {
  const commits = JSON.stringify([
    { date: '2026-11-01T10:00:00Z', sha: 'abc123', author: 'Ada', message: 'Initial' },
  ]);

  /** The source's member and repositories as 2026-11-28-0200 wrote them: commits on the row. */
  function olderBackup(): string {
    // The columns of 2026-11-28-0200: later migrations' columns left out, the commits in.
    const users = (before.users ?? []).map((row) => {
      const { password_set: _passwordSet, ...then } = row as Record<string, unknown>;
      return then;
    });
    const repositories = (before.repositories ?? []).map((row, index) => {
      const {
        health_score: _score,
        health_grade: _grade,
        advisories_critical: _critical,
        advisories_high: _high,
        advisories_medium: _medium,
        advisories_low: _low,
        advisories_unknown: _unknown,
        advisory_level: _level,
        comment_count: _comments,
        version_count: _versions,
        decision_status: _status,
        decision_quadrant: _quadrant,
        ...then
      } = row as Record<string, unknown>;
      return { ...then, recent_commits: index === 0 ? commits : '[]' };
    });
    const header = {
      format: BACKUP_FORMAT,
      schema_version: '2026-11-28-0200-repository-totals',
      created: '2026-11-28T00:00:00.000Z',
      dialect: 'sqlite',
      tables: [
        { name: 'users', columns: Object.keys(users[0] as object), rows: users.length },
        { name: 'repositories', columns: Object.keys(repositories[0] as object), rows: repositories.length },
      ],
    };
    const lines = [
      header,
      ...users.map((row) => ({ table: 'users', row })),
      ...repositories.map((row) => ({ table: 'repositories', row })),
    ];
    const file = join(workDir, 'before-commits-table.jsonl.gz');
    writeFileSync(file, gzipSync(`${lines.map((line) => JSON.stringify(line)).join('\n')}\n`));
    return file;
  }

  const dialects: Dialect[] = postgresAvailable ? ['sqlite', 'postgres'] : ['sqlite'];
  for (const dialect of dialects) {
    for (const migrated of [false, true]) {
      it(`restores into ${migrated ? 'an up-to-date' : 'an empty'} ${dialect} database, its commits moved`, async () => {
        expect(before.repositories?.length).toBeGreaterThan(1);
        const first = before.repositories?.[0] as { id: number };
        const target = await createTarget(dialect);
        try {
          if (migrated) await migrateToLatest(target.handle.db);
          await restoreBackup(target.handle, olderBackup());
          const stored = await target.handle.db.selectFrom('repository_commits').selectAll().execute();
          expect(stored).toEqual([{ repository_id: first.id, commits }]);
          const columns = await listTablesInOrder(target.handle.db);
          expect(columns.find((table) => table.name === 'repositories')?.columns).not.toContain(
            'recent_commits',
          );
          const restored = await target.handle.db.selectFrom('repositories').select('id').execute();
          expect(restored).toHaveLength(before.repositories?.length ?? 0);
        } finally {
          await target.dispose();
        }
      });
    }
  }
});

it('the source database is untouched by all of this (but for the audit line of its backup)', async () => {
  const now = await snapshot(sourceHandle);
  expect({ ...now, audit_log: undefined }).toEqual({ ...before, audit_log: undefined });
  expect(now.audit_log).toHaveLength((before.audit_log?.length ?? 0) + 1);
});
