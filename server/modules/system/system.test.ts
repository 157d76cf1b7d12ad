import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errorBodySchema } from '#shared/schemas/errors.ts';
import { healthResponseSchema, readinessResponseSchema } from '#shared/schemas/system.ts';
import { signedInUser } from '../../../test/helpers/auth-factory.ts';
import { createReposTestApp, repoPath } from '../../../test/helpers/repos-app.ts';
import { testDialect } from '../../../test/helpers/test-database.ts';
import { QuotaBook } from '../../github/quota-book.ts';
import { jobKind } from '../../jobs/job-definition.ts';

/**
 * Liveness, readiness and metrics (docs/operations.md#health-checks, #monitoring), on SQLite and
 * on PostgreSQL. The database outage itself is server/database-faults.test.ts.
 */
const METRICS_TOKEN = 'metrics-token-0123456789abcdef0123456789abcdef';
const SERVER_TOKEN = 'ghp_metricsServerToken0123456789';
const logLines: string[] = [];
let t: Awaited<ReturnType<typeof createReposTestApp>>;
let admin: Awaited<ReturnType<typeof signedInUser>>;
let member: Awaited<ReturnType<typeof signedInUser>>;

beforeAll(async () => {
  t = await createReposTestApp(
    { METRICS_TOKEN, GITHUB_TOKEN: SERVER_TOKEN, LOG_LEVEL: 'info' },
    {},
    { logStream: { write: (line: string) => logLines.push(line) } },
  );
  admin = await signedInUser(t.app, { is_admin: true });
  member = await signedInUser(t.app);
});

afterAll(async () => {
  await t?.close();
});

const scrape = (authorization?: string) =>
  t.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: authorization ? { authorization } : {},
  });

/** The value of one series in an exposition, or undefined when it is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /health and GET /health/ready', () => {
  it('liveness answers 200 with the database, Redis and uptime', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/health' });
    expect(response.statusCode).toBe(200);
    expect(healthResponseSchema.parse(response.json())).toMatchObject({
      status: 'ok',
      database: 'ok',
      redis: 'disabled',
    });
  });

  it('readiness is 200 when migrated, 503 while a migration this version needs is missing', async () => {
    const ready = await t.app.inject({ method: 'GET', url: '/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(readinessResponseSchema.parse(ready.json())).toEqual({
      status: 'ready',
      database: 'ok',
      migrations: 'ok',
    });

    // The schema changed underneath (an older backup restored, say): the proxy must stop
    // sending traffic here, while liveness still says the process is fine.
    const last = await sql<{ name: string; timestamp: string }>`
      select name, timestamp from kysely_migration order by name desc limit 1`.execute(t.app.db);
    const row = last.rows[0];
    if (!row) throw new Error('no migration recorded');
    await sql`delete from kysely_migration where name = ${row.name}`.execute(t.app.db);
    try {
      const notReady = await t.app.inject({ method: 'GET', url: '/health/ready' });
      expect(notReady.statusCode).toBe(503);
      expect(readinessResponseSchema.parse(notReady.json())).toEqual({
        status: 'not_ready',
        database: 'ok',
        migrations: 'pending',
      });
      expect((await t.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    } finally {
      await sql`insert into kysely_migration (name, timestamp) values (${row.name}, ${row.timestamp})`.execute(
        t.app.db,
      );
    }
    expect((await t.app.inject({ method: 'GET', url: '/health/ready' })).statusCode).toBe(200);
  });
});

describe('GET /metrics', () => {
  it('is refused without credentials (401), to members (403) and to a wrong token (401)', async () => {
    const anonymous = await scrape();
    expect(anonymous.statusCode).toBe(401);
    expect(errorBodySchema.parse(anonymous.json()).code).toBe('unauthorized');
    const asMember = await scrape(member.headers.authorization);
    expect(asMember.statusCode).toBe(403);
    expect(errorBodySchema.parse(asMember.json()).code).toBe('forbidden');
    expect((await scrape(`Bearer ${METRICS_TOKEN.slice(0, -1)}x`)).statusCode).toBe(401);
    expect((await scrape(METRICS_TOKEN)).statusCode).toBe(401);
  });

  it('answers the Prometheus text format to an admin and to METRICS_TOKEN', async () => {
    for (const authorization of [admin.headers.authorization, `Bearer ${METRICS_TOKEN}`]) {
      const response = await scrape(authorization);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(response.body).toContain('# TYPE repo_tracker_http_requests_total counter');
      expect(response.body).toContain('# TYPE repo_tracker_http_request_duration_seconds histogram');
      expect(response.body).toContain('process_resident_memory_bytes');
      expect(sample(response.body, 'repo_tracker_database_up')).toBe(1);
    }
  });

  it('labels HTTP requests by route pattern, never by the requested path or query', async () => {
    const secretName = 'owner-xq7/hidden-name-zz9';
    await t.app.inject({ method: 'GET', url: repoPath(secretName), headers: admin.headers });
    await t.app.inject({ method: 'GET', url: '/health?probe=query-value-kk3' });
    await t.app.inject({ method: 'GET', url: '/api/no-such-route-jj4' });
    const text = (await scrape(admin.headers.authorization)).body;
    expect(
      sample(
        text,
        'repo_tracker_http_requests_total{method="GET",route="/repositories/:id",status_code="404"}',
      ),
    ).toBe(1);
    expect(
      sample(text, 'repo_tracker_http_requests_total{method="GET",route="/health",status_code="200"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'repo_tracker_http_requests_total{method="GET",route="unmatched",status_code="404"}'),
    ).toBe(1);
    expect(
      sample(
        text,
        'repo_tracker_http_request_duration_seconds_count{method="GET",route="/repositories/:id",status_code="404"}',
      ),
    ).toBe(1);
    expect(text).not.toMatch(/hidden-name-zz9|owner-xq7|query-value-kk3|no-such-route-jj4/);
  });

  it('counts GitHub requests and quota per token, the sync queue and the job queue', async () => {
    // Adding a repository reads it from GitHub with the server token.
    await t.app.inject({
      method: 'POST',
      url: '/repositories/',
      headers: member.headers,
      payload: { id: 'facebook/react' },
    });
    const restCalls = t.github.requests.filter((request) => request.key !== 'POST /graphql').length;
    await t.app.services.jobs.enqueue(jobKind('metrics-test:probe', z.object({})), {});
    // Made due now, as the engine would find it tomorrow.
    await t.app.db.updateTable('repository_sync_state').set({ due_at: '1970-01-01T00:00:00.000Z' }).execute();

    const text = (await scrape(`Bearer ${METRICS_TOKEN}`)).body;
    expect(restCalls).toBeGreaterThan(0);
    expect(sample(text, 'repo_tracker_github_requests_total{token="server",kind="rest"}')).toBe(restCalls);
    expect(sample(text, 'repo_tracker_github_quota_remaining{token="server"}')).toBeGreaterThan(0);
    expect(sample(text, 'repo_tracker_github_quota_limit{token="server"}')).toBe(5000);
    expect(sample(text, 'repo_tracker_sync_queue{state="due"}')).toBe(1);
    expect(sample(text, 'repo_tracker_sync_queue{state="running"}')).toBe(0);
    expect(sample(text, 'repo_tracker_jobs{kind="metrics-test:probe",status="pending"}')).toBe(1);
    expect(sample(text, 'repo_tracker_jobs_due{kind="metrics-test:probe"}')).toBe(1);
    // The token is labelled, never shown, nor its hash.
    expect(text).not.toContain(SERVER_TOKEN);
    expect(text).not.toContain(QuotaBook.keyOf(SERVER_TOKEN));
  });

  it('shows the PostgreSQL pool (absent on SQLite), and Redis only when REDIS_URL is set', async () => {
    const text = (await scrape(admin.headers.authorization)).body;
    if (testDialect === 'postgres') {
      expect(sample(text, 'repo_tracker_db_pool_max')).toBe(10);
      expect(sample(text, 'repo_tracker_db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'repo_tracker_db_pool_connections{state="waiting"}')).toBe(0);
    } else {
      expect(sample(text, 'repo_tracker_db_pool_max')).toBeUndefined();
    }
    expect(sample(text, 'repo_tracker_redis_up')).toBeUndefined();
  });

  it('never logs the metrics token', () => {
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join('\n')).not.toContain(METRICS_TOKEN);
  });
});
