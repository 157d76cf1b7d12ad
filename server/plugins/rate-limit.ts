import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import type { AppConfig } from '../config.ts';
import { tooManyRequests } from '../lib/app-error.ts';

/**
 * Rate limiting is opt-in per route (`config.rateLimit`); counters live in Redis when
 * `REDIS_URL` is set, so several instances share them, and in memory otherwise. Every 429
 * carries `Retry-After` and the same number as `retry_after` in the body (SECURITY.md A5).
 */
async function rateLimitPlugin(app: FastifyInstance, options: { config: AppConfig }) {
  const redis = options.config.redisUrl
    ? new Redis(options.config.redisUrl, {
        lazyConnect: false,
        maxRetriesPerRequest: 1,
        connectTimeout: 2000,
      })
    : undefined;
  if (redis) app.addHook('onClose', async () => void redis.quit());
  await app.register(rateLimit, {
    global: false,
    redis,
    nameSpace: 'rt-rate-limit:',
    // A Redis outage must not lock everybody out: fall open and log.
    skipOnError: true,
    addHeadersOnExceeding: {
      'x-ratelimit-limit': false,
      'x-ratelimit-remaining': false,
      'x-ratelimit-reset': false,
    },
    addHeaders: {
      'x-ratelimit-limit': false,
      'x-ratelimit-remaining': false,
      'x-ratelimit-reset': false,
      'retry-after': true,
    },
    // The builder's result is thrown, so the one error handler writes the body and header.
    errorResponseBuilder: (_request, context) => {
      const retryAfter = Math.max(1, Math.ceil(context.ttl / 1000));
      return tooManyRequests(
        `Too many requests. Please try again in ${Math.ceil(retryAfter / 60)} minutes.`,
        retryAfter,
      );
    },
  });
}

export default fp(rateLimitPlugin, { name: 'rate-limit' });
