import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  apiTokenCreatedSchema,
  apiTokenListSchema,
  apiTokenParamsSchema,
  apiTokensRevokedSchema,
  createApiTokenBodySchema,
} from '#shared/schemas/api-tokens.ts';
import { errorBodySchema } from '#shared/schemas/errors.ts';
import { requireUser } from '../../plugins/access.ts';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};
const security = [{ bearerAuth: [] }];
const tags = ['account'];

/**
 * The caller's personal API tokens (docs/product.md#api-tokens). Managing tokens needs a
 * session: a token can't list, create or revoke tokens (`apiTokens: false`).
 */
export const apiTokenRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.apiTokens;
  const config = { access: 'user' as const, apiTokens: false };

  app.get(
    '/auth/me/tokens',
    {
      config,
      schema: {
        tags,
        summary: 'The caller’s API tokens (never the tokens themselves)',
        security,
        response: { 200: apiTokenListSchema, ...errors },
      },
    },
    async (request) => service.list(requireUser(request).id),
  );

  app.post(
    '/auth/me/tokens',
    {
      config,
      schema: {
        tags,
        summary: 'Create an API token; the token is answered once',
        description:
          'Send it as `Authorization: Bearer rt_…`. `read`: GET and HEAD only; `write`: what a member can do on screen; `admin`: admin routes too (admins only). Never accepted on account-security or secret-setting routes (403). At most 20 tokens per member.',
        security,
        body: createApiTokenBodySchema,
        response: { 201: apiTokenCreatedSchema, ...errors },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      return reply.code(201).send(await service.create(user.id, user.is_admin, request.body));
    },
  );

  app.delete(
    '/auth/me/tokens',
    {
      config,
      schema: {
        tags,
        summary: 'Revoke every API token of the caller',
        security,
        response: { 200: apiTokensRevokedSchema, ...errors },
      },
    },
    async (request) => service.revokeAll(requireUser(request).id),
  );

  app.delete(
    '/auth/me/tokens/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Revoke one API token',
        security,
        params: apiTokenParamsSchema,
        response: { 200: apiTokensRevokedSchema, ...errors },
      },
    },
    async (request) => service.revoke(requireUser(request).id, request.params.id),
  );
};
