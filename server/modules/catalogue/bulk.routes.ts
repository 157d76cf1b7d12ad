import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  bulkBodySchema,
  bulkResponseSchema,
  exportSelectionBodySchema,
} from '../../../shared/schemas/bulk.ts';
import { errorBodySchema } from '../../../shared/schemas/errors.ts';
import { requireUser } from '../../plugins/access.ts';
import { exportFileName, streamCsv } from '../catalogue-query/csv-export.ts';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema };
const security = [{ bearerAuth: [] }];
const member = { access: 'user' as const };
const tags = ['repositories'];

/** The list's selection (docs/product.md#bulk-actions): one action, or its CSV. */
export const bulkRoutes: FastifyPluginAsyncZod = async (app) => {
  const bulk = app.services.bulk;

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

  app.post(
    '/repositories/export',
    {
      config: member,
      compress: { encodings: ['gzip', 'deflate'], zlibOptions: { level: 1 } },
      schema: {
        tags,
        summary: 'CSV of the selected repositories the caller may see, in the order given',
        security,
        body: exportSelectionBodySchema,
        produces: ['text/csv'],
        response: { 200: z.string().describe('text/csv, RFC 4180'), ...errors },
      },
    },
    async (request, reply) => {
      const rows = bulk.exportRows(requireUser(request), request.body.items);
      reply.header('content-type', 'text/csv; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="${exportFileName(app.clock.now())}"`);
      return reply.send(streamCsv(rows) as never);
    },
  );
};
