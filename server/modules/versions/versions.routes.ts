import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
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
import { bearerSecurity, memberAccess, REPOSITORY_ERRORS } from '../../plugins/route-options.ts';

const tags = ['repositories'];

/** Versions: recorded snapshots of a repository's metrics and their comparison (docs/product.md#repositories-api). */
export const versionsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { versions } = app.services;

  app.post(
    '/repositories/:id/versions',
    {
      config: memberAccess,
      schema: {
        tags,
        summary: 'Record a version snapshot of the current metrics',
        security: bearerSecurity,
        params: repositoryIdParamsSchema,
        body: versionBodySchema,
        response: { 201: versionResponseSchema, ...REPOSITORY_ERRORS },
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
      config: memberAccess,
      schema: {
        tags,
        summary: 'Versions of a repository',
        security: bearerSecurity,
        querystring: versionsQuerySchema,
        response: { 200: versionsResponseSchema, ...REPOSITORY_ERRORS },
      },
    },
    async (request) => ({
      versions: await versions.listVersions(requireUser(request), request.query.repo_id),
    }),
  );

  app.get(
    '/api/compare-versions',
    {
      config: memberAccess,
      schema: {
        tags,
        summary: 'Differences between two versions',
        security: bearerSecurity,
        querystring: compareQuerySchema,
        response: { 200: compareResponseSchema, ...REPOSITORY_ERRORS },
      },
    },
    async (request) => {
      const { repo_id, version1_id, version2_id } = request.query;
      return versions.compareVersions(requireUser(request), repo_id, version1_id, version2_id);
    },
  );
};
