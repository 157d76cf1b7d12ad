import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  editionCompareParamsSchema,
  editionCompareSchema,
  publishEditionBodySchema,
  radarEditionResponseSchema,
  radarEditionsSchema,
  radarQuerySchema,
  radarSchema,
} from '#shared/schemas/radar.ts';
import { requireUser } from '../../plugins/access.ts';
import { bearerSecurity, errorResponses, memberAccess } from '../../plugins/route-options.ts';

const errors = errorResponses(400, 401, 403, 404, 409, 429);
const security = bearerSecurity;
// Every member reads the radar (private repositories only for who may see them, the service's
// rule); publishing an edition is the team's act, an admin's.
const member = memberAccess;
const admin = { access: 'admin' as const };
const tags = ['radar'];

/** The radar, its editions and build-your-own-radar's file (docs/product.md#the-radar). */
export const radarRoutes: FastifyPluginAsyncZod = async (app) => {
  const { radar } = app.services;

  app.get(
    '/radar',
    {
      config: member,
      schema: {
        tags,
        summary: 'The radar: blips numbered by quadrant and ring, Retired, reviews due',
        description:
          '`edition=` shows that published edition instead (reviews_due empty); `tag=` keeps repositories carrying the tag. `moved` compares with the edition published before.',
        security,
        querystring: radarQuerySchema,
        response: { 200: radarSchema, ...errors },
      },
    },
    async (request) => radar.radar(requireUser(request), request.query),
  );

  app.get(
    '/radar.json',
    {
      config: member,
      schema: {
        tags,
        summary: 'The same as GET /radar, as a file to download',
        security,
        querystring: radarQuerySchema,
        response: { 200: radarSchema, ...errors },
      },
    },
    async (request, reply) => {
      const file = await radar.json(requireUser(request), request.query);
      reply.header('content-disposition', `attachment; filename="${file.name}"`);
      return file.radar;
    },
  );

  app.get(
    '/radar.csv',
    {
      config: member,
      schema: {
        tags,
        summary: "build-your-own-radar's CSV: name, ring, quadrant, isNew, description",
        description: 'One record per blip in number order; Retired is left out (it is not a ring there).',
        security,
        querystring: radarQuerySchema,
        produces: ['text/csv'],
        response: { 200: z.string().describe('text/csv, RFC 4180'), ...errors },
      },
    },
    async (request, reply) => {
      const file = await radar.csv(requireUser(request), request.query);
      reply.header('content-type', 'text/csv; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="${file.name}"`);
      return file.body;
    },
  );

  app.get(
    '/radar/editions',
    {
      config: member,
      schema: {
        tags,
        summary: 'Published editions, newest first',
        security,
        response: { 200: radarEditionsSchema, ...errors },
      },
    },
    async (request) => ({ editions: await radar.editions(requireUser(request)) }),
  );

  app.post(
    '/radar/editions',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Publish the current radar as a frozen edition (admins)',
        description:
          'Copies every blip and retired entry, so the edition outlives repositories deleted later. 409 when the name is taken.',
        security,
        body: publishEditionBodySchema,
        response: { 201: radarEditionResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const edition = await radar.publish(requireUser(request), request.body.name);
      return reply.code(201).send({ edition });
    },
  );

  app.get(
    '/radar/editions/:a/compare/:b',
    {
      config: member,
      schema: {
        tags,
        summary: 'What moved from edition a to edition b: status or quadrant, arrivals and departures',
        security,
        params: editionCompareParamsSchema,
        response: { 200: editionCompareSchema, ...errors },
      },
    },
    async (request) => radar.compare(requireUser(request), request.params.a, request.params.b),
  );
};
