import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  commitsQuerySchema,
  commitsResponseSchema,
  queuedResponseSchema,
  repositoryIdParamsSchema,
  repositoryResponseSchema,
  SYNC_LIMIT_WINDOW_MS,
  SYNCS_PER_MEMBER,
} from '#shared/schemas/repositories.ts';
import { requireUser } from '../../plugins/access.ts';
import { bearerSecurity, memberAccess, REPOSITORY_ERRORS } from '../../plugins/route-options.ts';

const tags = ['repositories'];

/** A member's "Update from GitHub" and the recent commits (docs/product.md#repositories-api). */
export const syncRoutes: FastifyPluginAsyncZod = async (app) => {
  const { sync } = app.services;

  app.put(
    '/repositories/:id',
    {
      config: memberAccess,
      // Each update costs the shared quota two to four GitHub calls: one member can't spend
      // it all (docs/product.md#rate-limits). Counted per member, after sign-in resolved them,
      // in repositories: `POST /repositories/bulk { action: 'sync' }` spends from the same
      // 'sync:member' budget (catalogue/bulk.routes.ts; issue 22, item 3).
      preHandler: app.rateLimiter.hook({
        name: 'sync:member',
        max: SYNCS_PER_MEMBER,
        windowMs: SYNC_LIMIT_WINDOW_MS,
        key: (request) => String(requireUser(request).id),
        points: () => 1,
      }),
      schema: {
        tags,
        summary: 'Update from GitHub (empty body)',
        description:
          '200 with the refreshed repository; 202 `{ queued, eta, message }` when GitHub’s pace for the token is spent for longer than a call waits: the sync engine refreshes it by `eta`.',
        security: bearerSecurity,
        params: repositoryIdParamsSchema,
        response: { 200: repositoryResponseSchema, 202: queuedResponseSchema, ...REPOSITORY_ERRORS },
      },
    },
    async (request, reply) => {
      const outcome = await sync.update(requireUser(request), request.params.id);
      return 'queued' in outcome ? reply.code(202).send(outcome) : { repository: outcome };
    },
  );

  app.get(
    '/repositories/:id/commits/',
    {
      config: memberAccess,
      schema: {
        tags,
        summary: 'Recent commits of the default branch',
        security: bearerSecurity,
        params: repositoryIdParamsSchema,
        querystring: commitsQuerySchema,
        response: { 200: commitsResponseSchema, ...REPOSITORY_ERRORS },
      },
    },
    async (request) => sync.commits(requireUser(request), request.params.id, request.query.limit),
  );
};
