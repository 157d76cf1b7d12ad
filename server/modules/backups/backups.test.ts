import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Cron } from 'croner';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AUTO_BACKUPS_KEPT } from '#shared/constants.ts';
import { BACKUP_NAME_PATTERN } from '#shared/schemas/admin.ts';
import { nextAddress, signedInUser } from '../../../test/helpers/auth-factory.ts';
import { insertCatalogue } from '../../../test/helpers/backup-seed.ts';
import { createFakeClock } from '../../../test/helpers/fake-clock.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { WAIT_CEILING_MS } from '../../../test/helpers/wait-ceiling.ts';
import { loadConfig } from '../../config.ts';
import { claimScheduledRun, scheduledTimeOf } from '../../jobs/job-registry.ts';
import {
  BACKUP_FORMAT,
  BACKUP_TABLES,
  backupFileName,
  compareNewestFirst,
  parseBackupName,
} from './backup-format.ts';
import { autoBackupJob } from './backups.jobs.ts';
import { listTables } from './backups.queries.ts';

const clock = createFakeClock(new Date('2026-11-22T09:30:00.000Z'));
let t: TestApp;
let admin: Awaited<ReturnType<typeof signedInUser>>;
let member: Awaited<ReturnType<typeof signedInUser>>;

beforeAll(async () => {
  t = await createTestApp({ BACKUP_SCHEDULE: 'off' }, { clock });
  admin = await signedInUser(t.app, { is_admin: true });
  member = await signedInUser(t.app);
  await insertCatalogue(t.app, member.id);
});

afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST' | 'DELETE';
const call = (method: Method, url: string, headers: object = {}) =>
  t.app.inject({ method, url, headers: headers as Record<string, string>, remoteAddress: nextAddress() });

/** Each backup a second after the last, so names and order are predictable. */
async function takeBackup(kind: 'manual' | 'auto') {
  clock.advance(1);
  const response = await call(
    'POST',
    kind === 'auto' ? '/health/backup/auto' : '/health/backup',
    admin.headers,
  );
  expect(response.statusCode, response.body).toBe(200);
  const answer = response.json() as { backup_path: string; name: string };
  // The answer names the file only; tests read it from BACKUP_DIR.
  return { ...answer, answered: answer.backup_path, backup_path: join(t.config.backupDir, answer.name) };
}

function readLines(file: string) {
  return gunzipSync(readFileSync(file))
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

const backupCalls: [Method, string][] = [
  ['POST', '/health/backup'],
  ['POST', '/health/backup/auto'],
  ['GET', '/health/backups'],
  ['GET', '/health/backups/backup-manual-2026-11-22T09-30-00Z.jsonl.gz'],
  ['DELETE', '/health/backups/backup-manual-2026-11-22T09-30-00Z.jsonl.gz'],
];

describe('access', () => {
  it.each(backupCalls)('%s %s → 401 anonymous', async (method, url) => {
    expect((await call(method, url)).statusCode).toBe(401);
  });

  it.each(backupCalls)('%s %s → 403 for a member', async (method, url) => {
    const response = await call(method, url, member.headers);
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe('Access denied. Admin privileges required.');
  });

  it('GET /health stays public', async () => {
    expect((await call('GET', '/health')).statusCode).toBe(200);
  });
});

describe('manual backup', () => {
  it('writes a gzip of JSON lines, mode 0600, in BACKUP_DIR (0700), and answers { backup_path, name }', async () => {
    const { answered, backup_path, name } = await takeBackup('manual');
    expect(name).toBe('backup-manual-2026-11-22T09-30-01Z.jsonl.gz');
    expect(name).toMatch(BACKUP_NAME_PATTERN);
    // The file name only: the server's folders never reach a client.
    expect(answered).toBe(name);
    expect(statSync(backup_path).mode & 0o777).toBe(0o600);
    expect(statSync(t.config.backupDir).mode & 0o777).toBe(0o700);
    // No temporary file is left behind.
    expect(readdirSync(t.config.backupDir).filter((file) => file.endsWith('.tmp'))).toEqual([]);

    const [header, ...rows] = readLines(backup_path);
    expect(header).toMatchObject({
      format: BACKUP_FORMAT,
      schema_version: expect.stringMatching(/^\d{4}-\d{2}-\d{2}-\d{4}-/),
      created: '2026-11-22T09:30:01.000Z',
      dialect: t.app.dbDialect,
    });
    const tableNames = header.tables.map((table: { name: string }) => table.name);
    expect(tableNames.slice(0, BACKUP_TABLES.length)).toEqual(
      BACKUP_TABLES.map((table) => table.name).filter((table) => tableNames.includes(table)),
    );
    // Every row line names its table; tables appear in header order; counts match the header.
    const seen: string[] = [];
    for (const line of rows) {
      expect(Object.keys(line).sort()).toEqual(['row', 'table']);
      if (seen.at(-1) !== line.table) seen.push(line.table);
    }
    expect(seen).toEqual(tableNames.filter((table: string) => seen.includes(table)));
    for (const table of header.tables as { name: string; rows: number }[]) {
      expect(rows.filter((line) => line.table === table.name)).toHaveLength(table.rows);
    }
    const users = rows.filter((line) => line.table === 'users').map((line) => line.row);
    expect(users.map((user) => user.id)).toEqual(expect.arrayContaining([admin.id, member.id]));
    expect(rows.filter((line) => line.table === 'repository_metrics')).toHaveLength(3);
  });

  it('is listed with name, size, time and compressed flag, newest first', async () => {
    const second = await takeBackup('manual');
    const response = await call('GET', '/health/backups', admin.headers);
    expect(response.statusCode).toBe(200);
    const { backups } = response.json();
    expect(backups[0]).toEqual({
      name: second.name,
      size_bytes: statSync(second.backup_path).size,
      created: '2026-11-22T09:30:02.000Z',
      compressed: true,
      kind: 'manual',
    });
    expect(backups[1].name).toBe('backup-manual-2026-11-22T09-30-01Z.jsonl.gz');
  });

  it('two backups within one second get distinct names', async () => {
    const [a, b] = await Promise.all([
      call('POST', '/health/backup', admin.headers),
      call('POST', '/health/backup', admin.headers),
    ]);
    const names = [a.json().name, b.json().name].sort();
    expect(names[0]).not.toBe(names[1]);
    for (const name of names) expect(name).toMatch(BACKUP_NAME_PATTERN);
    expect(names).toContain(backupFileName('manual', clock.now(), 1));
  });

  it('downloads as an application/gzip attachment with the same bytes', async () => {
    const { backup_path, name } = await takeBackup('manual');
    const response = await call('GET', `/health/backups/${name}`, admin.headers);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/gzip');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="${name}"`);
    expect(Number(response.headers['content-length'])).toBe(statSync(backup_path).size);
    expect(response.rawPayload.equals(readFileSync(backup_path))).toBe(true);
  });

  it('deletes, then answers 404', async () => {
    const { backup_path, name } = await takeBackup('manual');
    const response = await call('DELETE', `/health/backups/${name}`, admin.headers);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: `Backup ${name} deleted` });
    expect(() => statSync(backup_path)).toThrow();
    expect((await call('DELETE', `/health/backups/${name}`, admin.headers)).statusCode).toBe(404);
    expect((await call('GET', `/health/backups/${name}`, admin.headers)).json()).toEqual({
      message: 'Backup not found',
      code: 'not_found',
    });
  });

  it('audits creation and deletion', async () => {
    const rows = await t.app.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', 'in', ['backup.create', 'backup.delete'])
      .execute();
    expect(rows.some((row) => row.action === 'backup.create' && row.actor_id === admin.id)).toBe(true);
    expect(rows.some((row) => row.action === 'backup.delete' && row.actor_id === admin.id)).toBe(true);
  });
});

describe('names from outside are refused', () => {
  beforeAll(() => {
    // Files a request must never reach: one in the folder that is not a backup, one beside it.
    writeFileSync(join(t.config.backupDir, 'notes.txt'), 'not a backup');
    writeFileSync(join(t.dataDir, 'backup-manual-2026-11-22T09-30-00Z.jsonl.gz'), 'outside');
  });

  it.each([
    '..%2Fsecret_key',
    '..%2F..%2F..%2Fetc%2Fpasswd',
    '%2Fetc%2Fpasswd',
    'notes.txt',
    '.backup-x.tmp',
    'backup-manual-2026-11-22T09-30-00Z.jsonl.gz%00.txt',
    'backup-manual-2026-11-22T09-30-00Z.jsonl',
    'backup-other-2026-11-22T09-30-00Z.jsonl.gz',
    '..%2Fbackup-manual-2026-11-22T09-30-00Z.jsonl.gz',
  ])('GET and DELETE /health/backups/%s → 400 or 404, nothing read or removed', async (name) => {
    for (const method of ['GET', 'DELETE'] as const) {
      const response = await call(method, `/health/backups/${name}`, admin.headers);
      expect([400, 404]).toContain(response.statusCode);
      expect(response.headers['content-type']).toMatch(/application\/json/);
    }
    expect(readFileSync(join(t.config.backupDir, 'notes.txt'), 'utf8')).toBe('not a backup');
    expect(readFileSync(join(t.dataDir, 'backup-manual-2026-11-22T09-30-00Z.jsonl.gz'), 'utf8')).toBe(
      'outside',
    );
    expect(statSync(join(t.dataDir, 'secret_key'), { throwIfNoEntry: false })?.isFile() ?? true).toBe(true);
  });

  it('a dot-dot segment never reaches a file', async () => {
    for (const path of ['/health/backups/..', '/health/backups/%2E%2E', '/health/backups/.%2E/secret_key']) {
      const response = await call('GET', path, admin.headers);
      expect(response.headers['content-type'], path).toMatch(/application\/json/);
      expect(response.body).not.toContain('not a backup');
    }
  });

  it('a malformed name is a 400 with a clear message', async () => {
    const response = await call('GET', '/health/backups/notes.txt', admin.headers);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Invalid backup name');
  });

  it('files that are not backups are not listed', async () => {
    const { backups } = (await call('GET', '/health/backups', admin.headers)).json();
    expect(backups.map((backup: { name: string }) => backup.name)).not.toContain('notes.txt');
  });
});

describe('automatic backups', () => {
  it(`keep exactly the newest ${AUTO_BACKUPS_KEPT}; manual ones are never rotated`, async () => {
    const manualBefore = (await call('GET', '/health/backups', admin.headers))
      .json()
      .backups.filter((backup: { kind: string }) => backup.kind === 'manual')
      .map((backup: { name: string }) => backup.name);
    const autos: string[] = [];
    for (let index = 0; index < AUTO_BACKUPS_KEPT + 3; index += 1)
      autos.push((await takeBackup('auto')).name);
    for (const name of autos) expect(name).toMatch(/^backup-auto-/);

    const { backups } = (await call('GET', '/health/backups', admin.headers)).json();
    const kept = backups
      .filter((backup: { kind: string }) => backup.kind === 'auto')
      .map((b: { name: string }) => b.name);
    expect(kept).toEqual(autos.slice(-AUTO_BACKUPS_KEPT).reverse());
    const manualAfter = backups
      .filter((backup: { kind: string }) => backup.kind === 'manual')
      .map((b: { name: string }) => b.name);
    expect(manualAfter).toEqual(manualBefore);
    // The files themselves are gone, not just unlisted.
    for (const name of autos.slice(0, 3)) expect(readdirSync(t.config.backupDir)).not.toContain(name);
  });
});

describe('order', () => {
  it('newest first across kinds: a manual backup taken after automatic ones in the same second lists first', async () => {
    clock.advance(1);
    const taken: string[] = [];
    for (const url of [
      '/health/backup/auto',
      '/health/backup/auto',
      '/health/backup',
      '/health/backup/auto',
    ]) {
      const response = await call('POST', url, admin.headers);
      expect(response.statusCode, response.body).toBe(200);
      taken.push(response.json().name);
    }
    // One second, four names: the counter after the time says which came later, whatever the kind.
    expect(taken.map((name) => parseBackupName(name)?.created)).toEqual(
      Array(4).fill(clock.now().toISOString()),
    );
    const { backups } = (await call('GET', '/health/backups', admin.headers)).json();
    expect(backups.slice(0, 4).map((backup: { name: string }) => backup.name)).toEqual(taken.reverse());
  });

  it('names from before one counter per second (same time and counter, two kinds) keep a fixed order', () => {
    const auto = parseBackupName('backup-auto-2026-11-22T03-00-00Z-1.jsonl.gz');
    const manual = parseBackupName('backup-manual-2026-11-22T03-00-00Z-1.jsonl.gz');
    const older = parseBackupName('backup-auto-2026-11-22T02-59-59Z-7.jsonl.gz');
    if (!auto || !manual || !older) throw new Error('unparsed');
    expect([auto, older, manual].sort(compareNewestFirst)).toEqual([manual, auto, older]);
    expect([manual, auto, older].sort(compareNewestFirst)).toEqual([manual, auto, older]);
  });
});

describe('the schedule', () => {
  it('BACKUP_SCHEDULE: off disables, a bad pattern is a clear boot error', async () => {
    expect(loadConfig({ BACKUP_SCHEDULE: 'off' }).backupSchedule).toBeNull();
    expect(loadConfig({ BACKUP_SCHEDULE: ' 0 3 * * * ' }).backupSchedule).toBe('0 3 * * *');
    expect(() => loadConfig({ BACKUP_SCHEDULE: 'every night' })).toThrow(
      /BACKUP_SCHEDULE must be a cron pattern \(e\.g\. "0 3 \* \* \*"\) or off/,
    );
    await expect(createTestApp({ BACKUP_SCHEDULE: '61 * * * *' })).rejects.toThrow(/BACKUP_SCHEDULE/);
  });

  it('the scheduled time of a tick is the cron occurrence, not the moment the timer fired', () => {
    const cron = new Cron('0 3 * * *', { paused: true });
    const fired = new Date(2026, 10, 22, 3, 0, 0, 7);
    expect(scheduledTimeOf(cron, fired).getTime()).toBe(new Date(2026, 10, 22, 3, 0, 0, 0).getTime());
    expect(scheduledTimeOf(cron, new Date(2026, 10, 22, 3, 0, 0, 0)).getTime()).toBe(
      new Date(2026, 10, 22, 3, 0, 0, 0).getTime(),
    );
  });

  it('one tick, two instances: exactly one takes the backup; the next tick runs again', async () => {
    const service = t.app.services.backups;
    const registry = t.app.services.registry;
    const autos = async () => (await service.list()).filter((backup) => backup.kind === 'auto').length;
    const pendingBackupJobs = async () =>
      (
        await t.app.db
          .selectFrom('jobs')
          .select('id')
          .where('kind', '=', autoBackupJob.name)
          .where('status', '=', 'pending')
          .execute()
      ).length;
    const before = await autos();
    const runAt = new Date('2026-11-23T03:00:00.000Z');
    const until = new Date('2026-11-24T03:00:00.000Z');
    clock.advance(3600);
    const results = await Promise.all([
      registry.tick(autoBackupJob.name, { holder: 'instance-a', runAt, until }),
      registry.tick(autoBackupJob.name, { holder: 'instance-b', runAt, until }),
    ]);
    expect(results.filter((id) => id !== null)).toHaveLength(1);
    // A late instance for the same tick also skips it.
    expect(await registry.tick(autoBackupJob.name, { holder: 'instance-c', runAt, until })).toBeNull();
    await vi.waitFor(async () => expect(await autos()).toBe(Math.min(AUTO_BACKUPS_KEPT, before + 1)), {
      timeout: WAIT_CEILING_MS,
    });
    // The file is listed before its job is marked done; a job still pending when the clock moves
    // on looks abandoned, and the next tick would skip while it waits (on a busy machine it did).
    await vi.waitFor(async () => expect(await pendingBackupJobs()).toBe(0), { timeout: WAIT_CEILING_MS });
    clock.advance(60);
    const next = await registry.tick(autoBackupJob.name, {
      holder: 'instance-b',
      runAt: until,
      until: new Date('2026-11-25T03:00:00.000Z'),
    });
    expect(next).toBeGreaterThan(0);
    await vi.waitFor(async () => expect(await autos()).toBe(Math.min(AUTO_BACKUPS_KEPT, before + 2)), {
      timeout: WAIT_CEILING_MS,
    });
    const lease = await t.app.db
      .selectFrom('job_leases')
      .selectAll()
      .where('name', '=', autoBackupJob.name)
      .executeTakeFirstOrThrow();
    expect(lease).toEqual({
      name: autoBackupJob.name,
      holder: 'instance-b',
      expires_at: '2026-11-25T03:00:00.000Z',
    });
  });

  it('claims are atomic when many instances race', async () => {
    const runAt = new Date('2030-01-01T03:00:00.000Z');
    const until = new Date('2030-01-02T03:00:00.000Z');
    const claims = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        claimScheduledRun(t.app.db, { name: 'test:race', holder: `h${index}`, runAt, until }),
      ),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
  });

  it('a running app takes automatic backups on its schedule and stops the job when it closes', async () => {
    const own = await createTestApp({ BACKUP_SCHEDULE: '* * * * * *' });
    try {
      const service = own.app.services.backups;
      // Every second; the ceiling leaves a busy machine time to write one.
      await vi.waitFor(async () => expect((await service.list()).length).toBeGreaterThanOrEqual(1), {
        timeout: WAIT_CEILING_MS,
        interval: 100,
      });
      const backups = await service.list();
      expect(backups[0]?.kind).toBe('auto');
    } finally {
      await own.close();
    }
  });
});

describe('the table list', () => {
  it('names every table of the schema, in an order where each follows the tables it references', async () => {
    const tables = (await listTables(t.app.db)).map((table) => table.name).sort();
    expect(BACKUP_TABLES.map((table) => table.name).sort()).toEqual(tables);
    const position = new Map(BACKUP_TABLES.map((table, index) => [table.name, index]));
    const references: [string, string][] = [
      ['refresh_tokens', 'users'],
      ['email_tokens', 'users'],
      ['repositories', 'users'],
      ['repository_aliases', 'repositories'],
      ['repository_access', 'repositories'],
      ['repository_access', 'users'],
      ['comments', 'repositories'],
      ['versions', 'repositories'],
      ['repository_metrics', 'repositories'],
    ];
    for (const [child, parent] of references) {
      expect((position.get(child) ?? -1) > (position.get(parent) ?? 99), `${child} after ${parent}`).toBe(
        true,
      );
    }
  });

  it('parses only server-chosen names', () => {
    expect(parseBackupName('backup-auto-2026-11-22T03-00-00Z.jsonl.gz')).toEqual({
      kind: 'auto',
      created: '2026-11-22T03:00:00.000Z',
      seq: 0,
    });
    expect(parseBackupName('backup-manual-2026-11-22T03-00-00Z-2.jsonl.gz')?.seq).toBe(2);
    expect(parseBackupName('backup-manual-2026-13-45T03-00-00Z.jsonl.gz')).toBeNull();
    expect(parseBackupName('../backup-manual-2026-11-22T03-00-00Z.jsonl.gz')).toBeNull();
  });
});
