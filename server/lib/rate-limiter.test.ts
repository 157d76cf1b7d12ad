import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { healthResponseSchema } from '#shared/schemas/system.ts';
import { PROBE_PATH, rateLimitProbe } from '../../test/helpers/rate-limit-probe.ts';
import { createTestApp, type TestApp } from '../../test/helpers/test-app.ts';

/** A port nothing listens on: Redis "down" the way a stopped server is. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('rate limits with REDIS_URL unreachable', () => {
  let t: TestApp;
  const logLines: string[] = [];
  const probe = rateLimitProbe(3);

  beforeAll(async () => {
    t = await createTestApp(
      { REDIS_URL: `redis://127.0.0.1:${await closedPort()}`, LOG_LEVEL: 'warn' },
      { extend: probe.extend, logStream: { write: (line) => void logLines.push(line) } },
    );
  });

  afterAll(async () => {
    await t?.close();
  });

  it('still answer 429 past the limit, counting in this instance, and every call answers at once', async () => {
    const remoteAddress = '198.51.100.7';
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      const started = Date.now();
      const response = await t.app.inject({ method: 'GET', url: PROBE_PATH, remoteAddress });
      statuses.push(response.statusCode);
      // Before: each call waited ~8 s for a connection, then went through.
      expect(Date.now() - started).toBeLessThan(1000);
      if (response.statusCode === 429) expect(response.json().retry_after).toBeGreaterThan(0);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    // Another address has its own counter.
    expect(
      (await t.app.inject({ method: 'GET', url: PROBE_PATH, remoteAddress: '198.51.100.8' })).statusCode,
    ).toBe(200);
  });

  it('the sign-in limit holds: 14 wrong passwords from one address end in 429s', async () => {
    const remoteAddress = '198.51.100.9';
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 14; attempt++) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/auth/login',
        remoteAddress,
        payload: { email_or_username: `nobody-${attempt}@example.com`, password: 'Wrong-password-1' },
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, 10).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429, 429, 429]);
  });

  it('logs one warning for the outage, and GET /health reports redis "degraded" while the app stays up', async () => {
    const warnings = logLines.filter((line) => line.includes('Redis unreachable'));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0] ?? '{}').level).toBe(40);
    const response = await t.app.inject({ method: 'GET', url: '/health' });
    expect(response.statusCode).toBe(200);
    expect(healthResponseSchema.parse(response.json())).toMatchObject({
      status: 'ok',
      database: 'ok',
      redis: 'degraded',
    });
  });
});

describe('rate limits without REDIS_URL', () => {
  it('GET /health reports redis "disabled"', async () => {
    const t = await createTestApp();
    try {
      const response = await t.app.inject({ method: 'GET', url: '/health' });
      expect(healthResponseSchema.parse(response.json())).toMatchObject({ status: 'ok', redis: 'disabled' });
    } finally {
      await t.close();
    }
  });
});
