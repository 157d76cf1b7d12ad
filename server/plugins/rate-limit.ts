import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import type { AppConfig } from '../config.ts';
import type { Clock } from '../lib/clock.ts';
import { MemoryCounterStore, RateLimiter, RedisCounterStore } from '../lib/rate-limiter.ts';

declare module 'fastify' {
  interface FastifyInstance {
    rateLimiter: RateLimiter;
  }
}

/**
 * Attempt counters live in Redis when `REDIS_URL` is set, so several instances share them,
 * and in memory otherwise. Routes opt in with `preHandler: app.rateLimiter.hook(...rules)`.
 */
async function rateLimitPlugin(app: FastifyInstance, options: { config: AppConfig; clock: Clock }) {
  if (options.config.redisUrl) {
    const redis = new Redis(options.config.redisUrl, {
      maxRetriesPerRequest: 1,
      connectTimeout: 2000,
      lazyConnect: true,
    });
    redis.on('error', (error) => app.log.warn({ err: error }, 'redis error'));
    app.addHook('onClose', async () => {
      redis.disconnect();
    });
    app.decorate('rateLimiter', new RateLimiter(new RedisCounterStore(redis)));
  } else {
    app.decorate('rateLimiter', new RateLimiter(new MemoryCounterStore(options.clock)));
  }
}

export default fp(rateLimitPlugin, { name: 'rate-limit' });
