import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '#shared/schemas/errors.ts';
import { healthResponseSchema, readinessResponseSchema } from '#shared/schemas/system.ts';
import { signedInUser } from '../test/helpers/auth-factory.ts';
import { CHILD_ENV } from '../test/helpers/child-env.ts';
import { buildRepositoryRow } from '../test/helpers/repository-row.ts';
import { createTestApp, type TestApp } from '../test/helpers/test-app.ts';
import { createScratchDatabase, testDialect, testPostgresUrl } from '../test/helpers/test-database.ts';
import { isDatabaseUnavailable, openDatabase } from './db/database.ts';
import { insertRepository } from './repository/repository.queries.ts';

/**
 * Database faults (docs/operations.md#database-faults): the app's PostgreSQL connections are cut
 * while requests run (`pg_terminate_backend` on this file's own database only — other test files
 * share the server), then the database refuses connections for a while
 * (`ALLOW_CONNECTIONS false`). The app answers 503 with the error body meanwhile (never 500),
 * liveness stays 200 while readiness says 503, it reconnects by itself, and every write it
 * acknowledged is there afterwards. Plus the pool's settings and the statement time-out.
 * PostgreSQL only (TEST_DB=postgres); the classification of errors runs on both passes.
 */
const onPostgres = testDialect === 'postgres';
if (!onPostgres) console.log('database-faults.test.ts: the outage tests run in the PostgreSQL pass only');

const METRICS_TOKEN = 'faults-metrics-token-0123456789abcdef0123456789';

describe('which failures mean "the database is unavailable"', () => {
  it('connection loss, refusal, shutdowns and time-outs do; query errors do not', () => {
    const unavailable = [
      { code: '57P01', message: 'terminating connection due to administrator command' },
      { code: '57014', message: 'canceling statement due to statement timeout' },
      { code: '08006', message: 'connection failure' },
      { code: '53300', message: 'sorry, too many clients already' },
      { code: '55000', message: 'database "x" is not currently accepting connections' },
      { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:5432' },
      { message: 'Connection terminated unexpectedly' },
      { message: 'timeout exceeded when trying to connect' },
      { code: 'SQLITE_BUSY', message: 'database is locked' },
    ];
    for (const error of unavailable) expect(isDatabaseUnavailable(error), JSON.stringify(error)).toBe(true);
    const notUnavailable = [
      { code: '23505', message: 'duplicate key value violates unique constraint' },
      { code: '42P01', message: 'relation "nope" does not exist' },
      { code: '55000', message: 'object not in prerequisite state' },
      { code: 'SQLITE_CONSTRAINT_UNIQUE', message: 'UNIQUE constraint failed' },
      new Error('something else'),
      null,
      'Connection terminated',
    ];
    for (const error of notUnavailable)
      expect(isDatabaseUnavailable(error), JSON.stringify(error)).toBe(false);
  });
});

describe('a database unreachable at boot', () => {
  it('stops the server with one readable line and exit code 1', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'rt-faults-boot-'));
    try {
      // A port nothing listens on: refused at once.
      const child = spawn(process.execPath, [fileURLToPath(new URL('./main.ts', import.meta.url))], {
        cwd: dataDir,
        env: {
          ...CHILD_ENV,
          DATA_DIR: dataDir,
          PORT: '0',
          DATABASE_URL: 'postgres://app:not-this-password@127.0.0.1:9/repo_tracker',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout?.on('data', (chunk) => {
        output += chunk;
      });
      child.stderr?.on('data', (chunk) => {
        output += chunk;
      });
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code).toBe(1);
      expect(output.trim()).toMatch(
        /^Could not start: the database could not be reached \(connect ECONNREFUSED 127\.0\.0\.1:9\)\. Check DATABASE_URL and that the server runs\.$/,
      );
      expect(output).not.toContain('not-this-password');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!onPostgres)('the pool settings on PostgreSQL', () => {
  it('DATABASE_POOL_MAX sizes the pool; the statement time-out cuts a long query, but not migrations', async () => {
    const scratch = await createScratchDatabase('postgres');
    const handle = openDatabase({
      databaseUrl: scratch.url,
      dataDir: '.',
      databasePoolMax: 3,
      databaseStatementTimeoutMs: 200,
    });
    try {
      await sql`select 1`.execute(handle.db);
      expect(handle.poolStats?.()).toMatchObject({ max: 3, total: 1, idle: 1, waiting: 0 });
      const cut = await sql`select pg_sleep(1)`.execute(handle.db).then(
        () => null,
        (error: unknown) => error,
      );
      expect(cut).toMatchObject({ code: '57014' });
      expect(isDatabaseUnavailable(cut)).toBe(true);
      // Migrations run without it (they may wait for another instance's lock), and the
      // connection goes back to the pool with the time-out restored.
      await handle.withoutStatementTimeout?.((db) => sql`select pg_sleep(0.4)`.execute(db));
      const after = await sql<{ statement_timeout: string }>`show statement_timeout`.execute(handle.db);
      expect(after.rows[0]?.statement_timeout).toBe('200ms');
    } finally {
      await handle.close();
      await scratch.dispose();
    }
  });
});

describe.skipIf(!onPostgres)('PostgreSQL connections cut while requests run', () => {
  let t: TestApp;
  let member: Awaited<ReturnType<typeof signedInUser>>;
  let databaseName = '';
  let maintenance: pg.Client;
  const repository = 'faults-owner/faults-repository';
  const commentsPath = `/repositories/${encodeURIComponent(repository)}/comments`;
  /** Comments the app acknowledged (201): each must be in the database at the end. */
  const acknowledged: { id: number; comment: string }[] = [];
  let sequence = 0;

  async function terminateBackends(): Promise<number> {
    const result = await maintenance.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [databaseName],
    );
    return result.rowCount ?? 0;
  }

  async function setConnectionsAllowed(allowed: boolean) {
    await maintenance.query(`alter database ${databaseName} allow_connections ${allowed ? 'true' : 'false'}`);
  }

  /** One comment; returns the status, recording it when acknowledged. */
  async function writeComment(): Promise<{ status: number; body: unknown }> {
    sequence += 1;
    const comment = `comment ${sequence}`;
    const response = await t.app.inject({
      method: 'POST',
      url: commentsPath,
      headers: member.headers,
      payload: { comment },
    });
    const body = response.json();
    if (response.statusCode === 201)
      acknowledged.push({ id: (body as { comment: { id: number } }).comment.id, comment });
    return { status: response.statusCode, body };
  }

  beforeAll(async () => {
    t = await createTestApp({ METRICS_TOKEN });
    const current = await sql<{ name: string }>`select current_database() as name`.execute(t.app.db);
    databaseName = current.rows[0]?.name ?? '';
    // Only this file's own scratch database is ever cut off.
    expect(databaseName).toMatch(/^rt_test_/);
    member = await signedInUser(t.app);
    maintenance = new pg.Client({ connectionString: testPostgresUrl });
    await maintenance.connect();
    const now = new Date().toISOString();
    await insertRepository(
      t.app.db,
      buildRepositoryRow(repository, 424_242, { user_id: member.id, last_commit: now, last_synced: now }),
      new Date(Date.now() + 86_400_000),
    );
  });

  afterAll(async () => {
    if (maintenance) {
      await setConnectionsAllowed(true).catch(() => {});
      await maintenance.end();
    }
    await t?.close();
  });

  it('answers 503 with the error body while connections are cut, and keeps every acknowledged write', async () => {
    // Four writers; the connections are cut twice while they run.
    let stop = false;
    const statuses: number[] = [];
    const bodies: unknown[] = [];
    const writer = async () => {
      while (!stop) {
        const { status, body } = await writeComment();
        statuses.push(status);
        if (status !== 201) bodies.push(body);
      }
    };
    const writers = Promise.all([writer(), writer(), writer(), writer()]);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await terminateBackends()).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 150));
    await terminateBackends();
    await new Promise((resolve) => setTimeout(resolve, 150));
    stop = true;
    await writers;

    // Every answer was an acknowledgement or a 503 in the one error body; never a 500.
    expect(statuses.filter((status) => status !== 201 && status !== 503)).toEqual([]);
    for (const body of bodies) {
      expect(errorBodySchema.parse(body)).toMatchObject({
        code: 'service_unavailable',
        request_id: expect.any(String),
      });
    }
    expect(statuses.filter((status) => status === 201).length).toBeGreaterThan(0);
  });

  it('while the database refuses connections: 503 for requests, liveness 200, readiness 503', async () => {
    await setConnectionsAllowed(false);
    await terminateBackends();

    const write = await writeComment();
    expect(write.status).toBe(503);
    expect(errorBodySchema.parse(write.body)).toMatchObject({
      code: 'service_unavailable',
      message: 'The service is briefly unavailable. Please try again in a moment.',
    });
    // Signing in needs the database too: 503, not a misleading 401.
    const me = await t.app.inject({ method: 'GET', url: '/auth/me', headers: member.headers });
    expect(me.statusCode).toBe(503);

    const health = await t.app.inject({ method: 'GET', url: '/health' });
    expect(health.statusCode).toBe(200);
    expect(healthResponseSchema.parse(health.json())).toMatchObject({
      status: 'degraded',
      database: 'unavailable',
    });
    const ready = await t.app.inject({ method: 'GET', url: '/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(readinessResponseSchema.parse(ready.json())).toEqual({
      status: 'not_ready',
      database: 'unavailable',
      migrations: 'unknown',
    });
    // The scraper still gets an answer, saying the database is down.
    const metrics = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(metrics.statusCode).toBe(200);
    expect(metrics.body).toMatch(/^repo_tracker_database_up 0$/m);
  });

  it('reconnects by itself once the database is back, and no acknowledged write is lost', async () => {
    await setConnectionsAllowed(true);
    // No restart, no call to the app: the next request opens a fresh connection.
    const write = await writeComment();
    expect(write.status).toBe(201);
    expect((await t.app.inject({ method: 'GET', url: '/health/ready' })).statusCode).toBe(200);

    const stored = await t.app.db.selectFrom('comments').select(['id', 'comment']).execute();
    const byId = new Map(stored.map((row) => [row.id, row.comment]));
    expect(acknowledged.length).toBeGreaterThan(1);
    for (const { id, comment } of acknowledged) expect(byId.get(id), `comment ${id}`).toBe(comment);
  });
});
