import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  commentBodySchema,
  commentResponseSchema,
  repositoryIdParamsSchema,
} from '#shared/schemas/repositories.ts';
import { requireUser } from '../../plugins/access.ts';
import { bearerSecurity, memberAccess, REPOSITORY_ERRORS } from '../../plugins/route-options.ts';

const tags = ['repositories'];

/** Comments on a repository (docs/product.md#repositories-api). */
export const discussionRoutes: FastifyPluginAsyncZod = async (app) => {
  const { discussion } = app.services;

  app.post(
    '/repositories/:id/comments',
    {
      config: memberAccess,
      schema: {
        tags,
        summary: 'Add a comment',
        security: bearerSecurity,
        params: repositoryIdParamsSchema,
        body: commentBodySchema,
        response: { 201: commentResponseSchema, ...REPOSITORY_ERRORS },
      },
    },
    async (request, reply) => {
      const { comment, author } = request.body;
      const saved = await discussion.addComment(requireUser(request), request.params.id, comment, author);
      return reply.code(201).send({ comment: saved });
    },
  );
};
