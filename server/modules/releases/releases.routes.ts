import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '#shared/schemas/errors.ts';
import { releaseSettingsBodySchema, releaseTrackingResponseSchema } from '#shared/schemas/releases.ts';
import { repositoryIdParamsSchema } from '#shared/schemas/repositories.ts';
import { requireUser } from '../../plugins/access.ts';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 429: errorBodySchema };

/** Release tracking per repository (docs/product.md#releases). */
export const releasesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { releases } = app.services;

  app.put(
    '/repositories/:id/release-settings',
    {
      // Who may edit a repository's tags may choose which of its releases become versions.
      config: { access: 'user' },
      schema: {
        tags: ['repositories'],
        summary: 'Choose which releases become versions (pre-releases, tag pattern)',
        security: [{ bearerAuth: [] }],
        params: repositoryIdParamsSchema,
        body: releaseSettingsBodySchema,
        response: { 200: releaseTrackingResponseSchema, ...errors },
      },
    },
    async (request) => ({
      release_tracking: await releases.updateSettings(requireUser(request), request.params.id, request.body),
    }),
  );
};
