import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bulkBodySchema, bulkResponseSchema } from '#shared/schemas/bulk.ts';
import { errorBodySchema } from '#shared/schemas/errors.ts';
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

/** The list's selection (docs/product.md#bulk-actions): one action on many repositories, each reported. */
export const bulkRoutes: FastifyPluginAsyncZod = async (app) => {
  const { bulk } = app.services;

  app.post(
    '/repositories/bulk',
    {
      config: member,
      schema: {
        tags,
        summary: 'Add or remove tags, update from GitHub, or delete several repositories',
        description:
          'Each repository is done on its own and gets its own result: one the caller may not see or change fails with the reason while the rest go ahead. Updates are queued for the sync engine (`status: queued`).',
        security,
        body: bulkBodySchema,
        response: { 200: bulkResponseSchema, ...errors },
      },
    },
    async (request) =>
      bulk.run(requireUser(request), request.body.items, request.body.action, request.body.tags),
  );
};
