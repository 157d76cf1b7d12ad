import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '#shared/schemas/errors.ts';
import {
  commentBodySchema,
  commentResponseSchema,
  repositoryIdParamsSchema,
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

/** Comments on a repository (docs/product.md#repositories-api). */
export const discussionRoutes: FastifyPluginAsyncZod = async (app) => {
  const { discussion } = app.services;

  app.post(
    '/repositories/:id/comments',
    {
      config: member,
      schema: {
        tags,
        summary: 'Add a comment',
        security,
        params: repositoryIdParamsSchema,
        body: commentBodySchema,
        response: { 201: commentResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { comment, author } = request.body;
      const saved = await discussion.addComment(requireUser(request), request.params.id, comment, author);
      return reply.code(201).send({ comment: saved });
    },
  );
};
