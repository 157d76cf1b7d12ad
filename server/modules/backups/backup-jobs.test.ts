import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import {
  createScratchDatabase,
  postgresReachable,
  testDialect,
} from '../../../test/helpers/test-database.ts';
import type { DatabaseHandle, Dialect } from '../../db/database.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { jobKind } from '../../jobs/job-definition.ts';
import { JobQueue } from '../../jobs/job-queue.ts';
import { systemClock } from '../../lib/clock.ts';
import { databaseHasData, restoreBackup } from './restore.ts';

/**
 * The job queue is work in flight, not data (issue 9): queued mail holds one-time links. A
 * backup leaves the `jobs` table out, and a restore, on either database, empties it.
 */
const MARKER = 'reset-password?token=never-in-a-backup';
const workDir = mkdtempSync(join(tmpdir(), 'rt-backup-jobs-'));
const silent = { debug() {}, info() {}, warn() {}, error() {} };

const postgresAvailable = testDialect === 'postgres' || (await postgresReachable());

const createTarget = (dialect: Dialect) => createScratchDatabase(dialect, { dir: workDir });

/** A job no handler takes, so it stays queued. */
const parkJob = (handle: DatabaseHandle) =>
  new JobQueue({ db: handle.db, dialect: handle.dialect, clock: systemClock, log: silent }).enqueue(
    jobKind('test:parked', z.object({ link: z.string() })),
    { link: `https://tracker.example.com/#/${MARKER}` },
  );

let source: TestApp;
let backupFile: string;

beforeAll(async () => {
  source = await createTestApp();
  await parkJob({ db: source.app.db, dialect: source.app.dbDialect, close: async () => {} });
  const created = await source.app.services.backups.create('manual', null);
  backupFile = join(source.config.backupDir, created.name);
});

afterAll(async () => {
  await source?.close();
  rmSync(workDir, { recursive: true, force: true });
});

it('leaves the job table out of a backup', () => {
  const lines = gunzipSync(readFileSync(backupFile)).toString('utf8').trim().split('\n');
  const header = JSON.parse(lines[0] ?? '{}') as { tables: { name: string }[] };
  expect(header.tables.map((table) => table.name)).not.toContain('jobs');
  expect(header.tables.length).toBeGreaterThan(5);
  expect(lines.some((line) => line.includes(MARKER))).toBe(false);
  expect(lines.slice(1).some((line) => JSON.parse(line).table === 'jobs')).toBe(false);
});

describe.each([
  ['sqlite', true],
  ['postgres', postgresAvailable],
] as const)(`restoring a ${testDialect} backup into %s`, (dialect, available) => {
  it.skipIf(!available)('empties the target’s job queue; a queued job alone is not data', async () => {
    const target = await createTarget(dialect);
    try {
      await migrateToLatest(target.handle.db);
      await parkJob(target.handle);
      // "Holds data?" asks about accounts and the catalogue: queued work alone doesn't count.
      expect(await databaseHasData(target.handle)).toBe(false);
      const result = await restoreBackup(target.handle, backupFile);
      expect(result.tables.map((table) => table.name)).not.toContain('jobs');
      expect(await target.handle.db.selectFrom('jobs').selectAll().execute()).toEqual([]);
    } finally {
      await target.dispose();
    }
  });
});
