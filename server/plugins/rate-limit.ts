import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppConfig } from '../config.ts';
import type { Clock } from '../lib/clock.ts';
import { FallbackCounterStore, MemoryCounterStore, RateLimiter } from '../lib/rate-limiter.ts';
import { openRedis, REDIS_CONNECT_TIMEOUT_MS } from '../lib/redis-connection.ts';

declare module 'fastify' {
  interface FastifyInstance {
    rateLimiter: RateLimiter;
  }
}

/**
 * Attempt counters live in Redis when `REDIS_URL` is set, so several instances share them,
 * and in memory otherwise. While Redis is unreachable they fall back to this instance's memory
 * (see FallbackCounterStore). Routes opt in with `preHandler: app.rateLimiter.hook(...rules)`.
 */
async function rateLimitPlugin(app: FastifyInstance, options: { config: AppConfig; clock: Clock }) {
  if (!options.config.redisUrl) {
    app.decorate('rateLimiter', new RateLimiter(new MemoryCounterStore(options.clock)));
    return;
  }
  const redis = openRedis(options.config.redisUrl);
  const store = new FallbackCounterStore(redis, options.clock, app.log);
  app.addHook('onClose', async () => store.close());
  app.decorate('rateLimiter', new RateLimiter(store));
  // Boot waits for the first connection briefly, so a healthy Redis is shared from the first
  // request; an unreachable one is logged (by the store) and the app starts anyway.
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done);
      redis.off('error', done);
      resolve();
    };
    const timer = setTimeout(done, REDIS_CONNECT_TIMEOUT_MS * 2);
    redis.once('ready', done);
    redis.once('error', done);
  });
}

export default fp(rateLimitPlugin, { name: 'rate-limit' });
