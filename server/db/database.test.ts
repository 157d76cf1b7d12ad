import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialect } from '../../test/helpers/test-database.ts';
import { isUniqueViolation, openDatabase } from './database.ts';
import { migrateToLatest } from './migrate.ts';
import { migrations } from './migrations/index.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('SQLite (docs/security.md#h1)', () => {
  it('opens in WAL with synchronous=FULL, foreign keys and a busy timeout', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rt-db-'));
    dirs.push(dir);
    const handle = openDatabase({ dataDir: dir });
    try {
      const pragma = async (name: string) =>
        Object.values((await sql.raw(`pragma ${name}`).execute(handle.db)).rows[0] as object)[0];
      expect(await pragma('journal_mode')).toBe('wal');
      expect(await pragma('synchronous')).toBe(2);
      expect(await pragma('foreign_keys')).toBe(1);
      expect(await pragma('busy_timeout')).toBe(5000);
    } finally {
      await handle.close();
    }
  });

  it('migrates an empty database to the latest schema, and again is a no-op', async () => {
    const handle = openDatabase({ databaseUrl: 'sqlite::memory:', dataDir: '.' });
    try {
      expect(await migrateToLatest(handle.db)).toEqual(Object.keys(migrations));
      expect(await migrateToLatest(handle.db)).toEqual([]);
    } finally {
      await handle.close();
    }
  });

  it('lets the event loop take a turn between queries: a loop that only queries never holds off a timer', async () => {
    const handle = openDatabase({ databaseUrl: 'sqlite::memory:', dataDir: '.' });
    try {
      // better-sqlite3 answers synchronously; without a turn after each query, the timer below
      // fires only once the whole loop is over (a background job held every request for 13 s).
      let firedAt: number | null = null;
      let done = 0;
      const timer = setTimeout(() => {
        firedAt = done;
      }, 0);
      for (; done < 200; done += 1) await sql`select 1`.execute(handle.db);
      clearTimeout(timer);
      expect(firedAt).not.toBeNull();
      expect(firedAt).toBeLessThan(200);
    } finally {
      await handle.close();
    }
  });

  it('names migrations by date, in order', () => {
    const names = Object.keys(migrations);
    expect(names).toEqual([...names].sort());
    for (const name of names) expect(name).toMatch(/^\d{4}-\d{2}-\d{2}-\d{4}-[a-z0-9-]+$/);
  });
});

describe(`unique violations on ${testDialect} (by the driver's code, not the message)`, () => {
  it('tells a taken unique value or primary key from any other failed write', async () => {
    const database = await createTestDatabase();
    const { db } = database.handle;
    try {
      await migrateToLatest(db);
      const user = (username: string, email: string) => ({
        username,
        email,
        first_name: 'Ada',
        last_name: 'Lovelace',
        password_hash: 'x',
        is_active: 1 as const,
        is_verified: 1 as const,
        is_admin: 0 as const,
        created_at: '2026-11-23T00:00:00.000Z',
        updated_at: '2026-11-23T00:00:00.000Z',
      });
      const failure = (write: Promise<unknown>) =>
        write.then(
          () => undefined,
          (error: unknown) => error,
        );
      const inserted = await db
        .insertInto('users')
        .values(user('ada', 'ada@example.com'))
        .returning('id')
        .executeTakeFirstOrThrow();

      const sameEmail = await failure(
        db.insertInto('users').values(user('other', 'ada@example.com')).execute(),
      );
      const sameId = await failure(
        db
          .insertInto('users')
          .values({ ...user('third', 'third@example.com'), id: inserted.id })
          .execute(),
      );
      const missingRow = await failure(
        db
          .insertInto('comments')
          .values({ repository_id: 999, user_id: null, author: 'a', comment: 'b', created_at: 'c' })
          .execute(),
      );
      expect(isUniqueViolation(sameEmail)).toBe(true);
      expect(isUniqueViolation(sameId)).toBe(true);
      expect(missingRow).toBeInstanceOf(Error);
      expect(isUniqueViolation(missingRow)).toBe(false);
      expect(isUniqueViolation(new Error('UNIQUE constraint failed: users.email'))).toBe(false);
      expect(isUniqueViolation(undefined)).toBe(false);
    } finally {
      await database.dispose();
    }
  });
});

describe.skipIf(testDialect !== 'postgres')('COPY out on PostgreSQL (the CSV export)', () => {
  it('reads what COPY writes, whole, and gives the connection back; a failed COPY leaves the pool usable', async () => {
    const database = await createTestDatabase();
    const { handle } = database;
    try {
      const copyOut = handle.copyOut as NonNullable<typeof handle.copyOut>;
      const copied = await copyOut(
        `COPY (SELECT n, 'a,"b"' || n AS t FROM generate_series(1, 3000) AS n) TO STDOUT (FORMAT csv)`,
      );
      const text = Buffer.concat(copied).toString('utf8');
      expect(text.split('\n')).toHaveLength(3001);
      expect(text.startsWith('1,"a,""b""1"\n2,"a,""b""2"\n')).toBe(true);
      expect(handle.poolStats?.()).toMatchObject({ total: 1, idle: 1 });

      await expect(copyOut('COPY (SELECT 1 / 0) TO STDOUT (FORMAT csv)')).rejects.toMatchObject({
        code: '22012',
      });
      const after = await sql<{ one: number }>`select 1 as one`.execute(handle.db);
      expect(after.rows).toEqual([{ one: 1 }]);
      expect(handle.poolStats?.()).toMatchObject({ waiting: 0 });
    } finally {
      await database.dispose();
    }
  });
});
