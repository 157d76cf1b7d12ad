import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  backupCreatedResponseSchema,
  backupListResponseSchema,
  backupNameParamsSchema,
} from '#shared/schemas/admin.ts';
import { messageResponseSchema } from '#shared/schemas/auth.ts';
import { errorBodySchema } from '#shared/schemas/errors.ts';
import { requireUser } from '../../plugins/access.ts';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema };
const security = [{ bearerAuth: [] }];

/** Backups, admins only: create, list, download and delete (docs/product.md#backups-api). */
export const backupRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.backups;
  const route = { config: { access: 'admin' as const } };

  app.post(
    '/health/backup',
    {
      ...route,
      schema: {
        tags: ['backups'],
        summary: 'Take a manual backup now (never rotated)',
        security,
        response: { 200: backupCreatedResponseSchema, ...errors },
      },
    },
    // `backup_path` is the file name only: the server's folders are nobody's business
    // (docs/product.md#backups-api).
    async (request) => {
      const created = await service.create('manual', requireUser(request).id);
      return { backup_path: created.name, name: created.name };
    },
  );

  app.post(
    '/health/backup/auto',
    {
      ...route,
      schema: {
        tags: ['backups'],
        summary: 'Take an automatic backup now; only the newest 10 automatic ones are kept',
        security,
        response: { 200: backupCreatedResponseSchema, ...errors },
      },
    },
    async (request) => {
      const created = await service.create('auto', requireUser(request).id);
      return { backup_path: created.name, name: created.name };
    },
  );

  app.get(
    '/health/backups',
    {
      ...route,
      schema: {
        tags: ['backups'],
        summary: 'Every backup, newest first',
        security,
        response: { 200: backupListResponseSchema, ...errors },
      },
    },
    async () => ({ backups: await service.list() }),
  );

  app.get(
    '/health/backups/:name',
    {
      ...route,
      schema: {
        tags: ['backups'],
        summary: 'Download one backup (gzip of JSON lines)',
        security,
        params: backupNameParamsSchema,
        response: {
          200: z.any().describe('The backup file, application/gzip'),
          404: errorBodySchema,
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const { name } = request.params;
      const file = await service.open(name);
      return reply
        .header('content-type', 'application/gzip')
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('content-length', String(file.size_bytes))
        .header('cache-control', 'no-store')
        .send(file.stream);
    },
  );

  app.delete(
    '/health/backups/:name',
    {
      ...route,
      schema: {
        tags: ['backups'],
        summary: 'Delete one backup',
        security,
        params: backupNameParamsSchema,
        response: { 200: messageResponseSchema, 404: errorBodySchema, ...errors },
      },
    },
    async (request) => {
      await service.remove(request.params.name, requireUser(request).id);
      return { message: `Backup ${request.params.name} deleted` };
    },
  );
};
