import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bulkBodySchema, bulkResponseSchema } from '#shared/schemas/bulk.ts';
import { requireUser } from '../../plugins/access.ts';
import { bearerSecurity, memberAccess, REPOSITORY_ERRORS } from '../../plugins/route-options.ts';

const tags = ['repositories'];

/** The list's selection (docs/product.md#bulk-actions): one action on many repositories, each reported. */
export const bulkRoutes: FastifyPluginAsyncZod = async (app) => {
  const { bulk } = app.services;

  app.post(
    '/repositories/bulk',
    {
      config: memberAccess,
      schema: {
        tags,
        summary: 'Add or remove tags, update from GitHub, or delete several repositories',
        description:
          'Each repository is done on its own and gets its own result: one the caller may not see or change fails with the reason while the rest go ahead. Updates are queued for the sync engine (`status: queued`).',
        security: bearerSecurity,
        body: bulkBodySchema,
        response: { 200: bulkResponseSchema, ...REPOSITORY_ERRORS },
      },
    },
    async (request) =>
      bulk.run(requireUser(request), request.body.items, request.body.action, request.body.tags),
  );
};
