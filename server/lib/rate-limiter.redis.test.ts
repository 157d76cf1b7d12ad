import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { healthResponseSchema } from '#shared/schemas/system.ts';
import { PROBE_PATH, rateLimitProbe } from '../../test/helpers/rate-limit-probe.ts';
import { createTestApp, type TestApp } from '../../test/helpers/test-app.ts';

/**
 * Rate limits against a real Redis (`TEST_REDIS_URL`, 127.0.0.1:6379 in `npm test`'s Redis
 * pass, mandatory under CI). Without TEST_REDIS_URL the file is skipped.
 */
const redisUrl = process.env.TEST_REDIS_URL;

/** A TCP proxy in front of Redis that a test can take down, freeze and bring back on one port. */
class RedisProxy {
  readonly #target: URL;
  #server: Server | undefined;
  readonly #sockets = new Set<Socket>();
  /** Connections stay open but nothing is forwarded: a hung Redis. */
  frozen = false;
  port = 0;

  constructor(target: string) {
    this.#target = new URL(target);
  }

  async up(): Promise<void> {
    const server = createServer((client) => {
      const upstream = createConnection(Number(this.#target.port || 6379), this.#target.hostname);
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket);
        socket.on('close', () => this.#sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.on('data', (chunk) => {
        if (!this.frozen) upstream.write(chunk);
      });
      upstream.on('data', (chunk) => {
        if (!this.frozen) client.write(chunk);
      });
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    const address = server.address();
    if (address && typeof address !== 'string') this.port = address.port;
    this.#server = server;
  }

  /** Redis stops: connections are cut and new ones refused. */
  async down(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    for (const socket of this.#sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

async function waitForRedisState(t: TestApp, wanted: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const body = healthResponseSchema.parse((await t.app.inject({ method: 'GET', url: '/health' })).json());
    if (body.redis === wanted) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`GET /health never reported redis "${wanted}"`);
}

const hit = (t: TestApp, remoteAddress: string) =>
  t.app.inject({ method: 'GET', url: PROBE_PATH, remoteAddress }).then((response) => response.statusCode);

describe.skipIf(!redisUrl)('rate limits on a real Redis', () => {
  const cleanup: (() => Promise<void>)[] = [];
  const probes: string[] = [];
  let admin: Redis;

  beforeAll(() => {
    admin = new Redis(redisUrl ?? '', { lazyConnect: true });
  });

  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
    // Leave the shared Redis as found: drop this run's counters.
    for (const name of probes) {
      const keys = await admin.keys(`rt:limit:${name}:*`);
      if (keys.length > 0) await admin.del(...keys);
    }
    admin.disconnect();
  });

  async function instance(env: Record<string, string>, probe: ReturnType<typeof rateLimitProbe>) {
    const t = await createTestApp(env, { extend: probe.extend });
    cleanup.push(() => t.close());
    return t;
  }

  it('two app instances on one Redis share the counters, and GET /health reports redis "ok"', async () => {
    const probe = rateLimitProbe(4);
    probes.push(probe.name);
    const first = await instance({ REDIS_URL: redisUrl ?? '' }, probe);
    const second = await instance({ REDIS_URL: redisUrl ?? '' }, probe);
    const address = '203.0.113.10';
    // Alternating instances: each alone would allow four, together they allow four.
    const statuses = [
      await hit(first, address),
      await hit(second, address),
      await hit(first, address),
      await hit(second, address),
      await hit(first, address),
      await hit(second, address),
    ];
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    const health = healthResponseSchema.parse(
      (await first.app.inject({ method: 'GET', url: '/health' })).json(),
    );
    expect(health).toMatchObject({ status: 'ok', redis: 'ok' });
  });

  it('falls back to per-instance counters while Redis is down, fast, and shares them again once it is back', async () => {
    const proxy = new RedisProxy(redisUrl ?? '');
    await proxy.up();
    cleanup.push(() => proxy.down());
    const probe = rateLimitProbe(3);
    probes.push(probe.name);
    const t = await instance({ REDIS_URL: `redis://127.0.0.1:${proxy.port}` }, probe);
    const address = '203.0.113.11';
    expect(await hit(t, address)).toBe(200);
    await waitForRedisState(t, 'ok');

    await proxy.down();
    await waitForRedisState(t, 'degraded');
    const started = Date.now();
    // The outage's own window: three more in this instance, then 429.
    expect([
      await hit(t, address),
      await hit(t, address),
      await hit(t, address),
      await hit(t, address),
    ]).toEqual([200, 200, 200, 429]);
    expect(Date.now() - started).toBeLessThan(1000);

    await proxy.up();
    await waitForRedisState(t, 'ok');
    // Back on Redis, whose window still holds the first hit: two more, then 429.
    expect([await hit(t, address), await hit(t, address), await hit(t, address)]).toEqual([200, 200, 429]);
    expect(await admin.get(`rt:limit:${probe.name}:${address}`)).toBe('4');
  });

  it('a hung Redis costs at most one command time-out, then counts locally until it answers again', async () => {
    const proxy = new RedisProxy(redisUrl ?? '');
    await proxy.up();
    cleanup.push(() => proxy.down());
    const probe = rateLimitProbe(2);
    probes.push(probe.name);
    const t = await instance({ REDIS_URL: `redis://127.0.0.1:${proxy.port}` }, probe);
    await waitForRedisState(t, 'ok');
    const address = '203.0.113.12';

    proxy.frozen = true;
    let started = Date.now();
    expect(await hit(t, address)).toBe(200);
    // One command time-out (500 ms), not the ~8 s of a queued command.
    expect(Date.now() - started).toBeLessThan(1500);
    expect(
      healthResponseSchema.parse((await t.app.inject({ method: 'GET', url: '/health' })).json()).redis,
    ).toBe('degraded');
    started = Date.now();
    expect([await hit(t, address), await hit(t, address)]).toEqual([200, 429]);
    expect(Date.now() - started).toBeLessThan(500);

    proxy.frozen = false;
    await waitForRedisState(t, 'ok');
  });
});
