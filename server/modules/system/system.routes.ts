import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '#shared/schemas/errors.ts';
import {
  healthResponseSchema,
  readinessResponseSchema,
  versionResponseSchema,
} from '#shared/schemas/system.ts';
import type { PoolStats } from '../../db/database.ts';
import type { GitHubClient } from '../../github/github-client.ts';
import { OperationsMetrics } from './metrics.service.ts';
import { checkDatabase, checkReadiness } from './system.service.ts';

export interface SystemRoutesOptions {
  appName: string;
  apiVersion: string;
  gitCommit: string | null;
  /** PUBLIC_BADGES: whether the detail page offers badges (docs/product.md#badges). */
  badges: boolean;
  /** PUBLIC_PAGES: whether views and radar editions can be published (docs/product.md#public-pages). */
  publicPages: boolean;
  startedAt: number;
  /** For `GET /metrics`: the process's GitHub client and the database pool. */
  github: Pick<GitHubClient, 'sentRequests' | 'tokenStates'>;
  poolStats: () => PoolStats | null;
}

/**
 * Liveness, readiness, version and metrics (docs/operations.md#health-checks, #monitoring).
 * Liveness, readiness and version are public and reveal nothing beyond what the footer shows;
 * metrics are for admins and the scraper holding METRICS_TOKEN.
 */
export const systemRoutes: FastifyPluginAsyncZod<SystemRoutesOptions> = async (app, options) => {
  app.get(
    '/health',
    {
      config: { access: 'public' },
      schema: {
        tags: ['system'],
        summary:
          'Liveness: 200 while the process runs, with database reachability and whether rate limits are shared through Redis',
        response: { 200: healthResponseSchema, 500: errorBodySchema },
      },
    },
    // Always 200 while the process can answer: a supervisor restarting the app because the
    // database is down would not bring the database back. Readiness is `/health/ready`.
    async () => {
      const reachable = await checkDatabase(app.db);
      const uptime_s = Math.floor((app.clock.now().getTime() - options.startedAt) / 1000);
      return {
        status: reachable ? ('ok' as const) : ('degraded' as const),
        database: reachable ? ('ok' as const) : ('unavailable' as const),
        redis: app.rateLimiter.redis,
        uptime_s,
      };
    },
  );

  app.get(
    '/health/ready',
    {
      config: { access: 'public' },
      schema: {
        tags: ['system'],
        summary:
          'Readiness: 200 when this instance can serve, 503 when the database is unreachable or misses a migration',
        response: { 200: readinessResponseSchema, 503: readinessResponseSchema, 500: errorBodySchema },
      },
    },
    async (_request, reply) => {
      const readiness = await checkReadiness(app.db);
      return reply.code(readiness.status === 'ready' ? 200 : 503).send(readiness);
    },
  );

  const metrics = new OperationsMetrics({
    registry: app.metrics,
    db: app.db,
    clock: app.clock,
    github: options.github,
    serverToken: app.config.githubToken,
    poolStats: options.poolStats,
    redisStatus: () => app.rateLimiter.redis,
    jobs: app.services.registry,
  });
  app.get(
    '/metrics',
    {
      config: { access: 'metrics' },
      schema: {
        tags: ['system'],
        summary: 'Prometheus metrics (an admin’s bearer token or METRICS_TOKEN)',
        security: [{ bearerAuth: [] }],
        produces: ['text/plain'],
        response: {
          200: z.string().describe('Prometheus text exposition format 0.0.4'),
          401: errorBodySchema,
          403: errorBodySchema,
          500: errorBodySchema,
        },
      },
    },
    async (_request, reply) => {
      await metrics.refresh();
      return reply.type(app.metrics.contentType).send(await app.metrics.metrics());
    },
  );

  app.get(
    '/version',
    {
      config: { access: 'public' },
      schema: {
        tags: ['system'],
        summary: 'Application name, API version and commit, and whether badges and public pages are on',
        response: { 200: versionResponseSchema },
      },
    },
    async () => ({
      app_name: options.appName,
      api_version: options.apiVersion,
      git_commit: options.gitCommit,
      badges: options.badges,
      public_pages: options.publicPages,
    }),
  );
};
