import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '#shared/schemas/errors.ts';
import {
  compareQuerySchema,
  compareResponseSchema,
  repositoryIdParamsSchema,
  versionBodySchema,
  versionResponseSchema,
  versionsQuerySchema,
  versionsResponseSchema,
} from '#shared/schemas/repositories.ts';
import { requireUser } from '../../plugins/access.ts';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  429: errorBodySchema,
  502: errorBodySchema,
};
const security = [{ bearerAuth: [] }];
const member = { access: 'user' as const };
const tags = ['repositories'];

/** Versions: recorded snapshots of a repository's metrics and their comparison (docs/product.md#repositories-api). */
export const versionsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { versions } = app.services;

  app.post(
    '/repositories/:id/versions',
    {
      config: member,
      schema: {
        tags,
        summary: 'Record a version snapshot of the current metrics',
        security,
        params: repositoryIdParamsSchema,
        body: versionBodySchema,
        response: { 201: versionResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const version = await versions.addVersion(requireUser(request), request.params.id, request.body);
      return reply.code(201).send({ version });
    },
  );

  app.get(
    '/api/get-versions',
    {
      config: member,
      schema: {
        tags,
        summary: 'Versions of a repository',
        security,
        querystring: versionsQuerySchema,
        response: { 200: versionsResponseSchema, ...errors },
      },
    },
    async (request) => ({
      versions: await versions.listVersions(requireUser(request), request.query.repo_id),
    }),
  );

  app.get(
    '/api/compare-versions',
    {
      config: member,
      schema: {
        tags,
        summary: 'Differences between two versions',
        security,
        querystring: compareQuerySchema,
        response: { 200: compareResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { repo_id, version1_id, version2_id } = request.query;
      return versions.compareVersions(requireUser(request), repo_id, version1_id, version2_id);
    },
  );
};
