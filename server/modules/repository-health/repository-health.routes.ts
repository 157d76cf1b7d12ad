import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '#shared/schemas/errors.ts';
import { healthOverrideBodySchema, healthResponseSchema } from '#shared/schemas/health.ts';
import { repositoryIdParamsSchema } from '#shared/schemas/repositories.ts';
import { requireUser } from '../../plugins/access.ts';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 429: errorBodySchema };
const security = [{ bearerAuth: [] }];
// Whoever may see a repository (and so change its tags) may read and override its health.
const member = { access: 'user' as const };
const tags = ['repositories'];

/** A repository's health, its signals and the team's override (docs/health.md). */
export const repositoryHealthRoutes: FastifyPluginAsyncZod = async (app) => {
  const { health } = app.services;

  app.get(
    '/repositories/:id/health',
    {
      config: member,
      schema: {
        tags,
        summary: 'Health: score, grade and every signal with its raw value, date and points',
        description:
          'The formula is docs/health.md (`formula_version`). A signal GitHub has not told the app yet is `null` with `points: null`, left out of the score; too little known gives grade `unknown`.',
        security,
        params: repositoryIdParamsSchema,
        response: { 200: healthResponseSchema, ...errors },
      },
    },
    async (request) => ({ health: await health.health(requireUser(request), request.params.id) }),
  );

  app.put(
    '/repositories/:id/health/override',
    {
      config: member,
      schema: {
        tags,
        summary: 'Mark it finished: stable, no activity expected (activity signals count as met)',
        security,
        params: repositoryIdParamsSchema,
        body: healthOverrideBodySchema,
        response: { 200: healthResponseSchema, ...errors },
      },
    },
    async (request) => ({
      health: await health.setOverride(requireUser(request), request.params.id, request.body),
    }),
  );

  app.delete(
    '/repositories/:id/health/override',
    {
      config: member,
      schema: {
        tags,
        summary: 'Remove the "finished" mark: activity is judged again',
        security,
        params: repositoryIdParamsSchema,
        response: { 200: healthResponseSchema, ...errors },
      },
    },
    async (request) => ({ health: await health.clearOverride(requireUser(request), request.params.id) }),
  );
};
