import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { messageResponseSchema } from '#shared/schemas/auth.ts';
import { errorBodySchema } from '#shared/schemas/errors.ts';
import {
  createSavedViewBodySchema,
  savedViewIdParamsSchema,
  savedViewResponseSchema,
  savedViewsResponseSchema,
  updateSavedViewBodySchema,
} from '#shared/schemas/views.ts';
import { requireUser } from '../../plugins/access.ts';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};
const security = [{ bearerAuth: [] }];
const route = { config: { access: 'user' as const } };
const tags = ['saved views'];

/** Saved views of the repository list (docs/product.md#saved-views). */
export const viewsRoutes: FastifyPluginAsyncZod = async (app) => {
  const views = app.services.savedViews;

  app.get(
    '/views',
    {
      ...route,
      schema: {
        tags,
        summary: "The caller's saved views and the team's shared ones",
        security,
        response: { 200: savedViewsResponseSchema, ...errors },
      },
    },
    async (request) => ({ views: await views.list(requireUser(request)) }),
  );

  app.post(
    '/views',
    {
      ...route,
      schema: {
        tags,
        summary: 'Save the list’s current search, filters, sort and layout under a name',
        security,
        body: createSavedViewBodySchema,
        response: { 201: savedViewResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const view = await views.create(requireUser(request), request.body);
      return reply.code(201).send({ view });
    },
  );

  app.patch(
    '/views/:id',
    {
      ...route,
      schema: {
        tags,
        summary: 'Rename, change or share a view (its owner; an admin for a shared view)',
        security,
        params: savedViewIdParamsSchema,
        body: updateSavedViewBodySchema,
        response: { 200: savedViewResponseSchema, ...errors },
      },
    },
    async (request) => ({
      view: await views.update(requireUser(request), request.params.id, request.body),
    }),
  );

  app.delete(
    '/views/:id',
    {
      ...route,
      schema: {
        tags,
        summary: 'Delete a view (its owner; an admin for a shared view)',
        security,
        params: savedViewIdParamsSchema,
        response: { 200: messageResponseSchema, ...errors },
      },
    },
    async (request) => {
      await views.remove(requireUser(request), request.params.id);
      return { message: 'View deleted.' };
    },
  );
};
