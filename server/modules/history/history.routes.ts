import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '#shared/schemas/errors.ts';
import { backfillResponseSchema } from '#shared/schemas/history.ts';
import { metricsResponseSchema, repositoryIdParamsSchema } from '#shared/schemas/repositories.ts';
import { requireUser } from '../../plugins/access.ts';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 429: errorBodySchema };
const security = [{ bearerAuth: [] }];
const member = { access: 'user' as const };
const tags = ['repositories'];

/** "Backfill history" presses per member per window: each one may cost GitHub a few calls. */
export const BACKFILLS_PER_MEMBER = 10;
const BACKFILL_LIMIT_WINDOW_MS = 15 * 60 * 1000;

/** The history chart's data and the star-history backfill (docs/product.md#star-history). */
export const historyRoutes: FastifyPluginAsyncZod = async (app) => {
  const { history } = app.services;

  app.get(
    '/repositories/:id/metrics',
    {
      config: member,
      schema: {
        tags,
        summary: 'The history chart: daily metrics, star history from GitHub, and its backfill state',
        description:
          'One row per day the app recorded (every metric) and, once the star history was backfilled from GitHub, its rebuilt rows: one per day for the last 365 days and one per week before, with `stars` only (the other metrics null). `history` says whether the backfill is `none`, `pending`, `done`, `unavailable` (GitHub has none) or `failed`.',
        security,
        params: repositoryIdParamsSchema,
        response: { 200: metricsResponseSchema, ...errors },
      },
    },
    async (request) => history.metrics(requireUser(request), request.params.id),
  );

  app.post(
    '/repositories/:id/history/backfill',
    {
      config: member,
      // Counted per member, after sign-in resolved them (docs/product.md#rate-limits).
      preHandler: app.rateLimiter.hook({
        name: 'history-backfill:member',
        max: BACKFILLS_PER_MEMBER,
        windowMs: BACKFILL_LIMIT_WINDOW_MS,
        key: (request) => String(requireUser(request).id),
      }),
      schema: {
        tags,
        summary: 'Load (again) the full star history from GitHub (empty body)',
        description:
          '202: the engine reads it as soon as it has nothing more urgent, with the caller’s GitHub token if they stored one (else the server’s). 400 when no token can read it or the repository is gone from GitHub.',
        security,
        params: repositoryIdParamsSchema,
        response: { 202: backfillResponseSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await history.requestBackfill(requireUser(request), request.params.id)),
  );
};
