import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../../shared/schemas/errors.ts';
import { healthResponseSchema, versionResponseSchema } from '../../../shared/schemas/system.ts';
import { checkDatabase } from './health.service.ts';

export interface HealthRoutesOptions {
  appName: string;
  apiVersion: string;
  gitCommit: string | null;
  startedAt: number;
}

/** Liveness and version: public, and they reveal nothing beyond what the footer shows. */
export const healthRoutes: FastifyPluginAsyncZod<HealthRoutesOptions> = async (app, options) => {
  app.get(
    '/health',
    {
      config: { access: 'public' },
      schema: {
        tags: ['system'],
        summary: 'Liveness, database reachability and whether rate limits are shared through Redis',
        response: { 200: healthResponseSchema, 503: healthResponseSchema, 500: errorBodySchema },
      },
    },
    async (_request, reply) => {
      const database = (await checkDatabase(app.db)) ? 'ok' : 'unavailable';
      const uptime_s = Math.floor((app.clock.now().getTime() - options.startedAt) / 1000);
      const status = database === 'ok' ? 'ok' : 'degraded';
      return reply
        .code(database === 'ok' ? 200 : 503)
        .send({ status, database, redis: app.rateLimiter.redis, uptime_s });
    },
  );

  app.get(
    '/version',
    {
      config: { access: 'public' },
      schema: {
        tags: ['system'],
        summary: 'Application name, API version and commit',
        response: { 200: versionResponseSchema },
      },
    },
    async () => ({
      app_name: options.appName,
      api_version: options.apiVersion,
      git_commit: options.gitCommit,
    }),
  );
};
