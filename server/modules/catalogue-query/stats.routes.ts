import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  catalogueCountsResponseSchema,
  catalogueFilterQuerySchema,
  catalogueStatsResponseSchema,
  tagsResponseSchema,
} from '../../../shared/schemas/catalogue.ts';
import { errorBodySchema } from '../../../shared/schemas/errors.ts';
import { requireUser } from '../../plugins/access.ts';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 429: errorBodySchema };
const security = [{ bearerAuth: [] }];
const member = { access: 'user' as const };

/**
 * The catalogue's aggregates, computed by the database over what the caller may see
 * (docs/product.md#catalogue-queries). The list, its export and the admin list take the same
 * filters in repos.routes.ts.
 */
export const catalogueRoutes: FastifyPluginAsyncZod = async (app) => {
  const catalogue = app.services.catalogueQuery;

  app.get(
    '/repositories/stats',
    {
      config: member,
      schema: {
        tags: ['repositories'],
        summary: 'Statistics over the visible repositories matching the filters',
        description:
          'Stat cards, licence distribution, top topics and star buckets over the filtered repositories; `options` lists the distinct tags, topics and licences of every visible repository, and `catalogue_total` counts them.',
        security,
        querystring: catalogueFilterQuerySchema,
        response: { 200: catalogueStatsResponseSchema, ...errors },
      },
    },
    async (request) => catalogue.stats(requireUser(request), request.query),
  );

  app.get(
    '/repositories/counts',
    {
      config: member,
      schema: {
        tags: ['repositories'],
        summary: 'The sidebar’s counts: visible repositories, the caller’s own, distinct tags',
        security,
        response: { 200: catalogueCountsResponseSchema, ...errors },
      },
    },
    async (request) => catalogue.counts(requireUser(request)),
  );

  app.get(
    '/tags',
    {
      config: member,
      schema: {
        tags: ['repositories'],
        summary: 'Every tag with its repository count, and the caller’s tag suggestions',
        description:
          'Tags over the visible repositories matching the filters, sorted by name; `suggestions` are the 8 most used tags of the caller’s own repositories.',
        security,
        querystring: catalogueFilterQuerySchema,
        response: { 200: tagsResponseSchema, ...errors },
      },
    },
    async (request) => catalogue.tags(requireUser(request), request.query),
  );
};
