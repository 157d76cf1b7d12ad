import { type ZlibOptions, type ZstdOptions, constants as zlibConstants } from 'node:zlib';
import type { FastifyCompressOptions } from '@fastify/compress';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { exportSelectionBodySchema } from '#shared/schemas/bulk.ts';
import {
  adminRepositoryListOrPageResponseSchema,
  catalogueCountsResponseSchema,
  catalogueExportQuerySchema,
  catalogueFilterQuerySchema,
  catalogueListQuerySchema,
  catalogueStatsResponseSchema,
  isPageRequest,
  repositoryListOrPageResponseSchema,
  tagsResponseSchema,
} from '#shared/schemas/catalogue.ts';
import {
  existsResponseSchema,
  repositoryIdParamsSchema,
  repositoryResponseSchema,
} from '#shared/schemas/repositories.ts';
import { requireUser } from '../../plugins/access.ts';
import { bearerSecurity, memberAccess, REPOSITORY_ERRORS } from '../../plugins/route-options.ts';
import { CSV_CHUNK_BYTES, exportFileName, streamCsv } from './csv-export.ts';

const tags = ['repositories'];

/**
 * A 100,000-row export is ~32 MB of text. Each encoding at its fastest level still shrinks it
 * about threefold; zstd first when offered (Chromium offers it to HTTPS and loopback addresses),
 * then brotli, then gzip (docs/decisions.md, "CSV export and the tag filter at 100,000"). One
 * options object serves gzip, deflate and zstd in @fastify/compress: each takes its own keys.
 * The compressor hands on its output in pieces as large as the records' chunks, not zlib's
 * 16 KiB: eight times fewer writes to the socket and pieces for the client to take (a fresh
 * server's first export ×1.13 by hand on SQLite, ×1.09–1.11 in the bench on PostgreSQL;
 * docs/decisions.md).
 */
const FASTEST_ZLIB_AND_ZSTD: ZlibOptions & ZstdOptions = {
  level: 1,
  params: { [zlibConstants.ZSTD_c_compressionLevel]: 1 },
  chunkSize: CSV_CHUNK_BYTES,
};
const EXPORT_COMPRESSION: Pick<FastifyCompressOptions, 'encodings' | 'brotliOptions' | 'zlibOptions'> = {
  encodings: ['zstd', 'br', 'gzip', 'deflate'],
  brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 1 }, chunkSize: CSV_CHUNK_BYTES },
  zlibOptions: FASTEST_ZLIB_AND_ZSTD,
};

/**
 * Reading the catalogue (docs/product.md#catalogue-queries): the list and its pages, one
 * repository, the CSV exports, the aggregates and the tags, each computed by the database over
 * what the caller may see.
 */
export const catalogueQueryRoutes: FastifyPluginAsyncZod = async (app) => {
  const { catalogueQuery } = app.services;

  app.get(
    '/repositories/',
    {
      config: memberAccess,
      schema: {
        tags,
        summary: 'Every repository the caller may see, or one page of a search',
        description:
          'Without query parameters: every visible repository, `{ repositories }`. With any of them: one page `{ repositories, total, next_cursor }` of the visible repositories matching the filters, in the chosen order (docs/product.md#catalogue-queries).',
        security: bearerSecurity,
        querystring: catalogueListQuerySchema,
        response: { 200: repositoryListOrPageResponseSchema, ...REPOSITORY_ERRORS },
      },
    },
    async (request) => {
      const viewer = requireUser(request);
      if (isPageRequest(request.query)) return catalogueQuery.page(viewer, request.query);
      return { repositories: await catalogueQuery.list(viewer) };
    },
  );

  app.get(
    '/repositories/export',
    {
      config: memberAccess,
      compress: EXPORT_COMPRESSION,
      schema: {
        tags,
        summary: 'CSV of the visible repositories matching the filters, in list order',
        description:
          'Takes the list’s filters and sort (no paging): every matching row, streamed from the database in batches as the client reads.',
        security: bearerSecurity,
        querystring: catalogueExportQuerySchema,
        produces: ['text/csv'],
        response: { 200: z.string().describe('text/csv, RFC 4180'), ...REPOSITORY_ERRORS },
      },
    },
    async (request, reply) => {
      const viewer = requireUser(request);
      const name = exportFileName(app.clock.now());
      const rows = catalogueQuery.exportBatches(viewer, request.query);
      const report = (count: number, complete: boolean) =>
        request.log.info(
          { user_id: viewer.id, rows: count, complete },
          complete ? 'repositories exported' : 'repositories export stopped: the client went away',
        );
      reply.header('content-type', 'text/csv; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="${name}"`);
      return reply.send(streamCsv(rows, report) as never);
    },
  );

  app.post(
    '/repositories/export',
    {
      config: memberAccess,
      compress: EXPORT_COMPRESSION,
      schema: {
        tags,
        summary: 'CSV of the selected repositories the caller may see, in the order given',
        security: bearerSecurity,
        body: exportSelectionBodySchema,
        produces: ['text/csv'],
        response: { 200: z.string().describe('text/csv, RFC 4180'), ...REPOSITORY_ERRORS },
      },
    },
    async (request, reply) => {
      const rows = catalogueQuery.exportSelection(requireUser(request), request.body.items);
      reply.header('content-type', 'text/csv; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="${exportFileName(app.clock.now())}"`);
      return reply.send(streamCsv(rows) as never);
    },
  );

  app.get(
    '/repositories/stats',
    {
      config: memberAccess,
      schema: {
        tags: ['repositories'],
        summary: 'Statistics over the visible repositories matching the filters',
        description:
          'Stat cards, licence distribution, top topics and star buckets over the filtered repositories; `options` lists the distinct tags, topics and licences of every visible repository, and `catalogue_total` counts them.',
        security: bearerSecurity,
        querystring: catalogueFilterQuerySchema,
        response: { 200: catalogueStatsResponseSchema, ...REPOSITORY_ERRORS },
      },
    },
    async (request) => catalogueQuery.stats(requireUser(request), request.query),
  );

  app.get(
    '/repositories/counts',
    {
      config: memberAccess,
      schema: {
        tags: ['repositories'],
        summary: 'The sidebar’s counts: visible repositories, the caller’s own, distinct tags',
        security: bearerSecurity,
        response: { 200: catalogueCountsResponseSchema, ...REPOSITORY_ERRORS },
      },
    },
    async (request) => catalogueQuery.counts(requireUser(request)),
  );

  app.get(
    '/repositories/check/:id',
    {
      config: memberAccess,
      schema: {
        tags,
        summary: 'Whether a repository is in the catalogue',
        security: bearerSecurity,
        params: repositoryIdParamsSchema,
        response: { 200: existsResponseSchema, ...REPOSITORY_ERRORS },
      },
    },
    async (request) => ({ exists: await catalogueQuery.exists(requireUser(request), request.params.id) }),
  );

  app.get(
    '/repositories/:id',
    {
      config: memberAccess,
      schema: {
        tags,
        summary: 'One repository with comments, versions and recent commits',
        security: bearerSecurity,
        params: repositoryIdParamsSchema,
        response: { 200: repositoryResponseSchema, ...REPOSITORY_ERRORS },
      },
    },
    async (request) => ({ repository: await catalogueQuery.get(requireUser(request), request.params.id) }),
  );

  app.get(
    '/tags',
    {
      config: memberAccess,
      schema: {
        tags: ['repositories'],
        summary: 'Every tag with its repository count, and the caller’s tag suggestions',
        description:
          'Tags over the visible repositories matching the filters, sorted by name; `suggestions` are the 8 most used tags of the caller’s own repositories.',
        security: bearerSecurity,
        querystring: catalogueFilterQuerySchema,
        response: { 200: tagsResponseSchema, ...REPOSITORY_ERRORS },
      },
    },
    async (request) => catalogueQuery.tags(requireUser(request), request.query),
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
        security: bearerSecurity,
        querystring: catalogueListQuerySchema,
        response: { 200: adminRepositoryListOrPageResponseSchema, ...REPOSITORY_ERRORS },
      },
    },
    async (request) => {
      const admin = requireUser(request);
      if (isPageRequest(request.query))
        return catalogueQuery.page({ id: admin.id, is_admin: true }, request.query);
      const repositories = await catalogueQuery.listAll();
      return { repositories, total: repositories.length };
    },
  );
};
