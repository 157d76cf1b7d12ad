import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../lib/clock.ts';
import { GitHubPacer, PaceWait } from './pacer.ts';

/** Several instances share one pace per token through Redis (docs/architecture.md#github-pacing). */
const url = process.env.TEST_REDIS_URL;
const soon = () => Date.now() + 100;

describe.skipIf(!url)('GitHubPacer on Redis', () => {
  let first: Redis;
  let second: Redis;
  const token = `pace-test-${process.pid}-${Date.now()}`;

  beforeAll(() => {
    first = new Redis(url ?? '', { maxRetriesPerRequest: 0 });
    second = new Redis(url ?? '', { maxRetriesPerRequest: 0 });
  });

  afterAll(async () => {
    await first?.quit();
    await second?.quit();
  });

  it('two instances spend from one budget, and a pause on one holds the other', async () => {
    const a = new GitHubPacer({
      restPerMinute: 20,
      graphqlPointsPerMinute: 20,
      clock: systemClock,
      redis: first,
    });
    const b = new GitHubPacer({
      restPerMinute: 20,
      graphqlPointsPerMinute: 20,
      clock: systemClock,
      redis: second,
    });
    await a.take(token, 'rest', 1, soon());
    await b.take(token, 'rest', 1, soon());
    // Two per window in all: the third, on either instance, waits.
    expect(await a.take(token, 'rest', 1, soon()).catch((error: unknown) => error)).toBeInstanceOf(PaceWait);
    await a.take(`${token}-graphql`, 'graphql', 1, soon());
    await b.pause(`${token}-graphql`, 3000);
    const wait = await a.take(`${token}-graphql`, 'graphql', 1, soon()).catch((error: unknown) => error);
    expect(wait).toBeInstanceOf(PaceWait);
    expect((wait as PaceWait).eta.getTime()).toBeGreaterThan(Date.now() + 2000);
  });

  it('keeps a pace in memory while Redis is unreachable', async () => {
    const gone = new Redis('redis://127.0.0.1:1', {
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      lazyConnect: true,
      retryStrategy: () => null,
    });
    const pacer = new GitHubPacer({
      restPerMinute: 10,
      graphqlPointsPerMinute: 10,
      clock: systemClock,
      redis: gone,
    });
    await pacer.take('offline-token', 'rest', 1, soon());
    expect(
      await pacer.take('offline-token', 'rest', 1, soon()).catch((error: unknown) => error),
    ).toBeInstanceOf(PaceWait);
    gone.disconnect();
  });
});
