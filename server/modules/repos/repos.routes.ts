import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messageResponseSchema } from '../../../shared/schemas/auth.ts';
import { errorBodySchema } from '../../../shared/schemas/errors.ts';
import {
  addRepositoryBodySchema,
  adminRepositoryListResponseSchema,
  type BatchResultItem,
  batchBodySchema,
  batchResponseSchema,
  commentBodySchema,
  commentResponseSchema,
  commitsQuerySchema,
  commitsResponseSchema,
  compareQuerySchema,
  compareResponseSchema,
  existsResponseSchema,
  importBodySchema,
  metadataBodySchema,
  metricsResponseSchema,
  repositoryIdParamsSchema,
  repositoryListResponseSchema,
  repositoryResponseSchema,
  versionBodySchema,
  versionResponseSchema,
  versionsQuerySchema,
  versionsResponseSchema,
} from '../../../shared/schemas/repositories.ts';
import { unauthorized } from '../../lib/app-error.ts';
import { exportFileName, streamCsv } from './csv-export.ts';

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

const addResponseSchema = repositoryResponseSchema.extend({
  notification: z.object({ sent: z.boolean(), error: z.string().optional() }).optional(),
});

/** SPEC §7 "Repositories" and the versions calls under /api (DESIGN §4 shapes). */
export const reposRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.repos;
  const viewerOf = (user: { id: number; is_admin: boolean } | null) => {
    if (!user) throw unauthorized();
    return user;
  };

  app.get(
    '/repositories/',
    {
      config: member,
      schema: {
        tags,
        summary: 'Every repository the caller may see',
        security,
        response: { 200: repositoryListResponseSchema, ...errors },
      },
    },
    async (request) => ({ repositories: await service.list(viewerOf(request.user)) }),
  );

  app.post(
    '/repositories/',
    {
      config: member,
      schema: {
        tags,
        summary: 'Add one repository from GitHub',
        security,
        body: addRepositoryBodySchema,
        response: { 201: addResponseSchema, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await service.add(viewerOf(request.user), request.body)),
  );

  app.post(
    '/repositories/batch',
    {
      config: member,
      schema: {
        tags,
        summary: 'Add many repositories, in order',
        description:
          'With `Accept: application/x-ndjson` the answer streams one line per item as it finishes (`{ index, input, ok, repository?, error? }`), then `{ done: true, succeeded, failed }`. Otherwise one JSON object at the end.',
        security,
        body: batchBodySchema,
        response: { 200: batchResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const viewer = viewerOf(request.user);
      const { items, tags: sharedTags, notify_slack } = request.body;
      return sendBatch(
        request.headers.accept,
        reply,
        service.addBatch(viewer, items, sharedTags, notify_slack),
      );
    },
  );

  app.post(
    '/repositories/import',
    {
      config: member,
      schema: {
        tags,
        summary: 'Import a user’s stars, or a user’s or organisation’s repositories',
        description:
          'Lists the repositories on GitHub (100 a page, at most 1,000), then adds them like the batch call, with the same two answer forms.',
        security,
        body: importBodySchema,
        response: { 200: batchResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const viewer = viewerOf(request.user);
      const { source, login, tags: sharedTags, notify_slack } = request.body;
      const names = await service.listImportNames(viewer, source, login);
      return sendBatch(
        request.headers.accept,
        reply,
        service.addBatch(
          viewer,
          names.map((id) => ({ id })),
          sharedTags,
          notify_slack,
        ),
      );
    },
  );

  app.get(
    '/repositories/export',
    {
      config: member,
      schema: {
        tags,
        summary: 'CSV of every repository the caller may see',
        security,
        produces: ['text/csv'],
        response: { 200: z.string().describe('text/csv, RFC 4180'), ...errors },
      },
    },
    async (request, reply) => {
      const repositories = await service.list(viewerOf(request.user));
      const name = exportFileName(app.clock.now());
      request.log.info({ user_id: request.user?.id, rows: repositories.length }, 'repositories exported');
      reply.header('content-type', 'text/csv; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="${name}"`);
      return reply.send(streamCsv(repositories) as never);
    },
  );

  app.get(
    '/repositories/check/:id',
    {
      config: member,
      schema: {
        tags,
        summary: 'Whether a repository is in the catalogue',
        security,
        params: repositoryIdParamsSchema,
        response: { 200: existsResponseSchema, ...errors },
      },
    },
    async (request) => ({ exists: await service.exists(viewerOf(request.user), request.params.id) }),
  );

  app.get(
    '/repositories/:id',
    {
      config: member,
      schema: {
        tags,
        summary: 'One repository with comments, versions and recent commits',
        security,
        params: repositoryIdParamsSchema,
        response: { 200: repositoryResponseSchema, ...errors },
      },
    },
    async (request) => ({ repository: await service.get(viewerOf(request.user), request.params.id) }),
  );

  app.put(
    '/repositories/:id',
    {
      config: member,
      schema: {
        tags,
        summary: 'Update from GitHub (empty body)',
        security,
        params: repositoryIdParamsSchema,
        response: { 200: repositoryResponseSchema, ...errors },
      },
    },
    async (request) => ({ repository: await service.sync(viewerOf(request.user), request.params.id) }),
  );

  app.delete(
    '/repositories/:id',
    {
      config: member,
      schema: {
        tags,
        summary: 'Delete (the member who added it, or an admin)',
        security,
        params: repositoryIdParamsSchema,
        response: { 200: messageResponseSchema, ...errors },
      },
    },
    async (request) => {
      await service.remove(viewerOf(request.user), request.params.id);
      return { message: `${request.params.id} was removed from the catalogue.` };
    },
  );

  app.put(
    '/repositories/:id/metadata/',
    {
      config: member,
      schema: {
        tags,
        summary: 'Save tags and notes',
        security,
        params: repositoryIdParamsSchema,
        body: metadataBodySchema,
        response: { 200: repositoryResponseSchema, ...errors },
      },
    },
    async (request) => ({
      repository: await service.updateMetadata(viewerOf(request.user), request.params.id, request.body),
    }),
  );

  app.get(
    '/repositories/:id/metrics',
    {
      config: member,
      schema: {
        tags,
        summary: 'Daily metrics recorded at each sync (history chart)',
        security,
        params: repositoryIdParamsSchema,
        response: { 200: metricsResponseSchema, ...errors },
      },
    },
    async (request) => ({ metrics: await service.metrics(viewerOf(request.user), request.params.id) }),
  );

  app.get(
    '/repositories/:id/commits/',
    {
      config: member,
      schema: {
        tags,
        summary: 'Recent commits of the default branch',
        security,
        params: repositoryIdParamsSchema,
        querystring: commitsQuerySchema,
        response: { 200: commitsResponseSchema, ...errors },
      },
    },
    async (request) => service.commits(viewerOf(request.user), request.params.id, request.query.limit),
  );

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
      const saved = await service.addComment(viewerOf(request.user), request.params.id, comment, author);
      return reply.code(201).send({ comment: saved });
    },
  );

  app.post(
    '/repositories/:id/versions',
    {
      config: member,
      schema: {
        tags,
        summary: 'Record a version snapshot of the current metrics',
        security,
        params: repositoryIdParamsSchema,
        body: versionBodySchema,
        response: { 201: versionResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const version = await service.addVersion(viewerOf(request.user), request.params.id, request.body);
      return reply.code(201).send({ version });
    },
  );

  app.get(
    '/api/get-versions',
    {
      config: member,
      schema: {
        tags,
        summary: 'Versions of a repository',
        security,
        querystring: versionsQuerySchema,
        response: { 200: versionsResponseSchema, ...errors },
      },
    },
    async (request) => ({
      versions: await service.listVersions(viewerOf(request.user), request.query.repo_id),
    }),
  );

  app.get(
    '/api/compare-versions',
    {
      config: member,
      schema: {
        tags,
        summary: 'Differences between two versions',
        security,
        querystring: compareQuerySchema,
        response: { 200: compareResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { repo_id, version1_id, version2_id } = request.query;
      return service.compareVersions(viewerOf(request.user), repo_id, version1_id, version2_id);
    },
  );

  app.get(
    '/auth/admin/repositories',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['admin'],
        summary: 'Every repository, private ones included',
        security,
        response: { 200: adminRepositoryListResponseSchema, ...errors },
      },
    },
    async () => {
      const repositories = await service.listAll();
      return { repositories, total: repositories.length };
    },
  );
};

/** The batch answer in the form asked for: NDJSON lines as items finish, or one JSON object. */
async function sendBatch(
  accept: string | undefined,
  reply: FastifyReply,
  results: AsyncGenerator<BatchResultItem>,
) {
  if (String(accept ?? '').includes('application/x-ndjson')) {
    reply.header('content-type', 'application/x-ndjson; charset=utf-8');
    // Keep proxies from buffering the progress lines.
    reply.header('x-accel-buffering', 'no');
    // A stream bypasses the serializer; the type provider only types JSON bodies.
    return reply.send(Readable.from(ndjsonLines(results)) as never);
  }
  const collected: BatchResultItem[] = [];
  for await (const item of results) collected.push(item);
  const succeeded = collected.filter((item) => item.ok).length;
  return reply.send({ results: collected, succeeded, failed: collected.length - succeeded });
}

async function* ndjsonLines(results: AsyncGenerator<BatchResultItem>) {
  let succeeded = 0;
  let failed = 0;
  for await (const item of results) {
    if (item.ok) succeeded += 1;
    else failed += 1;
    yield `${JSON.stringify(item)}\n`;
  }
  yield `${JSON.stringify({ done: true, succeeded, failed })}\n`;
}
