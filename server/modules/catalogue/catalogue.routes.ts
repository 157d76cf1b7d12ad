import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messageResponseSchema } from '../../../shared/schemas/auth.ts';
import {
  adminRepositoryListOrPageResponseSchema,
  catalogueExportQuerySchema,
  catalogueListQuerySchema,
  isPageRequest,
  repositoryListOrPageResponseSchema,
} from '../../../shared/schemas/catalogue.ts';
import { errorBodySchema } from '../../../shared/schemas/errors.ts';
import {
  addRepositoryBodySchema,
  addRepositoryResponseSchema,
  type BatchResultItem,
  batchBodySchema,
  batchResponseSchema,
  commentBodySchema,
  commentResponseSchema,
  commitsQuerySchema,
  commitsResponseSchema,
  compareQuerySchema,
  compareResponseSchema,
  countBatch,
  existsResponseSchema,
  importBodySchema,
  metadataBodySchema,
  queuedResponseSchema,
  repositoryIdParamsSchema,
  repositoryResponseSchema,
  versionBodySchema,
  versionResponseSchema,
  versionsQuerySchema,
  versionsResponseSchema,
} from '../../../shared/schemas/repositories.ts';
import { requireUser } from '../../plugins/access.ts';
import { exportFileName, streamCsv } from '../catalogue-query/csv-export.ts';

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
/** Manual updates from GitHub per member per window. */
export const SYNCS_PER_MEMBER = 30;
const SYNC_LIMIT_WINDOW_MS = 15 * 60 * 1000;
const member = { access: 'user' as const };
const tags = ['repositories'];

/** The repository calls and the versions calls under /api (docs/product.md#repositories-api). */
export const reposRoutes: FastifyPluginAsyncZod = async (app) => {
  const { catalogue, catalogueQuery, sync, versions } = app.services;

  app.get(
    '/repositories/',
    {
      config: member,
      schema: {
        tags,
        summary: 'Every repository the caller may see, or one page of a search',
        description:
          'Without query parameters: every visible repository, `{ repositories }`. With any of them: one page `{ repositories, total, next_cursor }` of the visible repositories matching the filters, in the chosen order (docs/product.md#catalogue-queries).',
        security,
        querystring: catalogueListQuerySchema,
        response: { 200: repositoryListOrPageResponseSchema, ...errors },
      },
    },
    async (request) => {
      const viewer = requireUser(request);
      if (isPageRequest(request.query)) return catalogueQuery.page(viewer, request.query);
      return { repositories: await catalogue.list(viewer) };
    },
  );

  app.post(
    '/repositories/',
    {
      config: member,
      schema: {
        tags,
        summary: 'Add one repository from GitHub',
        security,
        description:
          '201 with the repository once added; 202 `{ queued, eta, message }` when GitHub’s pace for the token is spent for longer than a call waits: it is added in the background by `eta`.',
        body: addRepositoryBodySchema,
        response: { 201: addRepositoryResponseSchema, 202: queuedResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const outcome = await catalogue.add(requireUser(request), request.body);
      return 'queued' in outcome ? reply.code(202).send(outcome) : reply.code(201).send(outcome);
    },
  );

  app.post(
    '/repositories/batch',
    {
      config: member,
      schema: {
        tags,
        summary: 'Add many repositories, in order',
        description:
          'With `Accept: application/x-ndjson` the answer streams one line per item as it finishes (`{ index, input, ok, status, repository?, error?, eta? }`; status is added, skipped, queued or failed), then `{ done: true, succeeded, failed, skipped, queued }`. Otherwise one JSON object at the end.',
        security,
        body: batchBodySchema,
        response: { 200: batchResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const viewer = requireUser(request);
      const { items, tags: sharedTags, notify_slack } = request.body;
      return sendBatch(
        request.headers.accept,
        reply,
        catalogue.addBatch(viewer, items, sharedTags, notify_slack),
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
      const viewer = requireUser(request);
      const { source, login, tags: sharedTags, notify_slack } = request.body;
      const names = await catalogue.listImportNames(viewer, source, login);
      return sendBatch(
        request.headers.accept,
        reply,
        catalogue.addBatch(
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
      // A 100,000-row export is ~30 MB of text: gzip's fastest level still shrinks it about
      // fourfold at three times the speed of the default (docs/benchmarks.md).
      compress: { encodings: ['gzip', 'deflate'], zlibOptions: { level: 1 } },
      schema: {
        tags,
        summary: 'CSV of the visible repositories matching the filters, in list order',
        description:
          'Takes the list’s filters and sort (no paging): every matching row, streamed from the database in batches as the client reads.',
        security,
        querystring: catalogueExportQuerySchema,
        produces: ['text/csv'],
        response: { 200: z.string().describe('text/csv, RFC 4180'), ...errors },
      },
    },
    async (request, reply) => {
      const viewer = requireUser(request);
      const name = exportFileName(app.clock.now());
      const rows = countedExport(catalogueQuery.exportRows(viewer, request.query), (count, complete) =>
        request.log.info(
          { user_id: viewer.id, rows: count, complete },
          complete ? 'repositories exported' : 'repositories export stopped: the client went away',
        ),
      );
      reply.header('content-type', 'text/csv; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="${name}"`);
      return reply.send(streamCsv(rows) as never);
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
    async (request) => ({ exists: await catalogue.exists(requireUser(request), request.params.id) }),
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
    async (request) => ({ repository: await catalogue.get(requireUser(request), request.params.id) }),
  );

  app.put(
    '/repositories/:id',
    {
      config: member,
      // Each update costs the shared quota two to four GitHub calls: one member can't spend
      // it all (docs/product.md#rate-limits). Counted per member, after sign-in resolved them.
      preHandler: app.rateLimiter.hook({
        name: 'sync:member',
        max: SYNCS_PER_MEMBER,
        windowMs: SYNC_LIMIT_WINDOW_MS,
        key: (request) => String(requireUser(request).id),
      }),
      schema: {
        tags,
        summary: 'Update from GitHub (empty body)',
        description:
          '200 with the refreshed repository; 202 `{ queued, eta, message }` when GitHub’s pace for the token is spent for longer than a call waits: the sync engine refreshes it by `eta`.',
        security,
        params: repositoryIdParamsSchema,
        response: { 200: repositoryResponseSchema, 202: queuedResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const outcome = await sync.sync(requireUser(request), request.params.id);
      return 'queued' in outcome ? reply.code(202).send(outcome) : { repository: outcome };
    },
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
      await catalogue.remove(requireUser(request), request.params.id);
      return { message: `${request.params.id} was removed from the catalogue.` };
    },
  );

  app.post(
    '/repositories/:id/restore',
    {
      config: member,
      schema: {
        tags,
        summary: 'Undo a deletion within 30 s (the member who deleted it, or an admin)',
        description:
          'The repository comes back with its tags, notes, comments, versions, history and events. 404 once the deletion can no longer be undone; 409 when the name is in the catalogue again.',
        security,
        params: repositoryIdParamsSchema,
        response: { 200: repositoryResponseSchema, ...errors },
      },
    },
    async (request) => ({ repository: await catalogue.restore(requireUser(request), request.params.id) }),
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
      repository: await catalogue.updateMetadata(requireUser(request), request.params.id, request.body),
    }),
  );

  // GET /repositories/:id/metrics (the history chart) is in modules/history/history.routes.ts.

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
    async (request) => sync.commits(requireUser(request), request.params.id, request.query.limit),
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
      const saved = await catalogue.addComment(requireUser(request), request.params.id, comment, author);
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
      const version = await versions.addVersion(requireUser(request), request.params.id, request.body);
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
      versions: await versions.listVersions(requireUser(request), request.query.repo_id),
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
      return versions.compareVersions(requireUser(request), repo_id, version1_id, version2_id);
    },
  );

  app.get(
    '/auth/admin/repositories',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['admin'],
        summary: 'Every repository, private ones included, or one page of a search',
        description:
          'The query parameters of `GET /repositories/`; with any of them one page `{ repositories, total, next_cursor }`.',
        security,
        querystring: catalogueListQuerySchema,
        response: { 200: adminRepositoryListOrPageResponseSchema, ...errors },
      },
    },
    async (request) => {
      const admin = requireUser(request);
      if (isPageRequest(request.query))
        return catalogueQuery.page({ id: admin.id, is_admin: true }, request.query);
      const repositories = await catalogue.listAll();
      return { repositories, total: repositories.length };
    },
  );
};

/** The export's rows, reporting how many went out and whether all did once the stream ends or is torn down. */
async function* countedExport<T>(
  rows: AsyncGenerator<T>,
  report: (count: number, complete: boolean) => void,
) {
  let count = 0;
  let complete = false;
  try {
    for await (const row of rows) {
      count += 1;
      yield row;
    }
    complete = true;
  } finally {
    report(count, complete);
  }
}

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
  return reply.send({ results: collected, ...countBatch(collected) });
}

async function* ndjsonLines(results: AsyncGenerator<BatchResultItem>) {
  const seen: Pick<BatchResultItem, 'status'>[] = [];
  for await (const item of results) {
    seen.push({ status: item.status });
    yield `${JSON.stringify(item)}\n`;
  }
  yield `${JSON.stringify({ done: true, ...countBatch(seen) })}\n`;
}
