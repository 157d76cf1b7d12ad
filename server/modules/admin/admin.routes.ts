import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminStatsSchema,
  adminSyncSchema,
  adminUserIdParamsSchema,
  adminUserPatchBodySchema,
  adminUserResponseSchema,
  adminUsersQuerySchema,
  adminUsersResponseSchema,
} from '#shared/schemas/admin.ts';
import { errorBodySchema } from '#shared/schemas/errors.ts';
import { requireUser } from '../../plugins/access.ts';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema };
const security = [{ bearerAuth: [] }];

/** User management and statistics, admins only (docs/product.md#admin-api). */
export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.admin;
  const route = { config: { access: 'admin' as const } };

  app.get(
    '/auth/admin/users',
    {
      ...route,
      schema: {
        tags: ['admin'],
        summary: 'Users, paged, with search (username, e-mail, names) and an active filter',
        security,
        querystring: adminUsersQuerySchema,
        response: { 200: adminUsersResponseSchema, ...errors },
      },
    },
    async (request) => service.listUsers(request.query),
  );

  app.get(
    '/auth/admin/users/:id',
    {
      ...route,
      schema: {
        tags: ['admin'],
        summary: 'One user with their repository count',
        security,
        params: adminUserIdParamsSchema,
        response: { 200: adminUserResponseSchema, 404: errorBodySchema, ...errors },
      },
    },
    async (request) => ({ user: await service.getUser(request.params.id) }),
  );

  app.patch(
    '/auth/admin/users/:id',
    {
      ...route,
      schema: {
        tags: ['admin'],
        summary: 'Set one flag (is_active, is_verified or is_admin); audited',
        description:
          'No self-demotion or self-deactivation, and the last active admin can never be demoted or deactivated (409). Deactivation and demotion end the user’s sessions at once.',
        security,
        params: adminUserIdParamsSchema,
        body: adminUserPatchBodySchema,
        response: { 200: adminUserResponseSchema, 404: errorBodySchema, 409: errorBodySchema, ...errors },
      },
    },
    async (request) => ({
      user: await service.updateUserFlag(requireUser(request).id, request.params.id, request.body),
    }),
  );

  app.get(
    '/auth/admin/stats',
    {
      ...route,
      schema: {
        tags: ['admin'],
        summary: 'User and repository counts',
        security,
        response: { 200: adminStatsSchema, ...errors },
      },
    },
    async () => service.stats(),
  );

  app.get(
    '/auth/admin/sync',
    {
      ...route,
      schema: {
        tags: ['admin'],
        summary: 'The sync engine: due and running repositories, tokens, recent failures',
        security,
        response: { 200: adminSyncSchema, ...errors },
      },
    },
    async () => app.services.sync.overview(),
  );
};
