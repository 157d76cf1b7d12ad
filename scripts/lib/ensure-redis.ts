import { Redis } from 'ioredis';
import { run } from './run.ts';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function reachable(): Promise<boolean> {
  const client = new Redis(TEST_REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

/**
 * Whether the Redis pass can run. Under CI it is mandatory: when nothing answers on a local
 * address, a `redis-server` binary is started there (in-memory, no persistence), and if that
 * fails the caller fails the run.
 */
export async function ensureRedis(mandatory: boolean): Promise<boolean> {
  if (await reachable()) return true;
  if (!mandatory) return false;
  const url = new URL(TEST_REDIS_URL);
  if (url.hostname === '127.0.0.1' || url.hostname === 'localhost') {
    console.log(`redis: starting redis-server on port ${url.port || 6379}…`);
    await run('redis-server', [
      '--port',
      url.port || '6379',
      '--bind',
      '127.0.0.1',
      '--daemonize',
      'yes',
      '--save',
      '',
      '--appendonly',
      'no',
    ]);
  }
  for (let attempt = 0; attempt < 20; attempt++) {
    if (await reachable()) return true;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}
