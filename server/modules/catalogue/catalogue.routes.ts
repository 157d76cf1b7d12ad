import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { messageResponseSchema } from '#shared/schemas/auth.ts';
import {
  addRepositoryBodySchema,
  addRepositoryResponseSchema,
  type BatchResultItem,
  batchBodySchema,
  batchResponseSchema,
  countBatch,
  importBodySchema,
  metadataBodySchema,
  queuedResponseSchema,
  repositoryIdParamsSchema,
  repositoryResponseSchema,
} from '#shared/schemas/repositories.ts';
import type { LimitRule } from '../../lib/rate-limiter.ts';
import { requireUser } from '../../plugins/access.ts';
import { bearerSecurity, memberAccess, REPOSITORY_ERRORS } from '../../plugins/route-options.ts';

const tags = ['repositories'];

/** Restores per member per window that undo nothing (docs/product.md#rate-limits). */
export const RESTORE_MISSES_PER_MEMBER = 30;

/**
 * Restore is limited per member (issue 22, item 4): every call spends a point before anything
 * is looked up, and a restore that brought a deletion back gives it back. So an Undo of a whole
 * bulk deletion (up to 500, one call each) is never refused, while names tried in vain — hidden
 * and missing alike, since they answer alike — stop at 30 in 15 minutes.
 */
const restoreLimit: LimitRule = {
  name: 'restore:member',
  max: RESTORE_MISSES_PER_MEMBER,
  windowMs: 15 * 60 * 1000,
  key: (request) => String(requireUser(request).id),
  points: () => 1,
};

/** Adding to the catalogue and curating it (docs/product.md#repositories-api): one line, a batch, an import; delete and undo; tags and notes. */
export const catalogueRoutes: FastifyPluginAsyncZod = async (app) => {
  const { catalogue } = app.services;

  app.post(
    '/repositories/',
    {
      config: memberAccess,
      schema: {
        tags,
        summary: 'Add one repository from GitHub',
        security: bearerSecurity,
        description:
          '201 with the repository once added; 202 `{ queued, eta, message }` when GitHub’s pace for the token is spent for longer than a call waits: it is added in the background by `eta`.',
        body: addRepositoryBodySchema,
        response: { 201: addRepositoryResponseSchema, 202: queuedResponseSchema, ...REPOSITORY_ERRORS },
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
      config: memberAccess,
      schema: {
        tags,
        summary: 'Add many repositories, in order',
        description:
          'With `Accept: application/x-ndjson` the answer streams one line per item as it finishes (`{ index, input, ok, status, repository?, error?, eta? }`; status is added, skipped, queued or failed), then `{ done: true, succeeded, failed, skipped, queued }`. Otherwise one JSON object at the end.',
        security: bearerSecurity,
        body: batchBodySchema,
        response: { 200: batchResponseSchema, ...REPOSITORY_ERRORS },
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
      config: memberAccess,
      schema: {
        tags,
        summary: 'Import a user’s stars, or a user’s or organisation’s repositories',
        description:
          'Lists the repositories on GitHub (100 a page, at most 1,000), then adds them like the batch call, with the same two answer forms.',
        security: bearerSecurity,
        body: importBodySchema,
        response: { 200: batchResponseSchema, ...REPOSITORY_ERRORS },
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

  app.delete(
    '/repositories/:id',
    {
      config: memberAccess,
      schema: {
        tags,
        summary: 'Delete (the member who added it, or an admin)',
        security: bearerSecurity,
        params: repositoryIdParamsSchema,
        response: { 200: messageResponseSchema, ...REPOSITORY_ERRORS },
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
      config: memberAccess,
      preHandler: app.rateLimiter.hook(restoreLimit),
      schema: {
        tags,
        summary: 'Undo a deletion within 30 s (the member who deleted it, or an admin)',
        description:
          'The repository comes back with its tags, notes, comments, versions, history and events. 404 when there is nothing the caller may undo: the deletion is past 30 s, never happened, or is another member’s; 409 when the name is in the catalogue again. 30 restores that undo nothing per member in 15 minutes, then 429.',
        security: bearerSecurity,
        params: repositoryIdParamsSchema,
        response: { 200: repositoryResponseSchema, ...REPOSITORY_ERRORS },
      },
    },
    async (request) => {
      const repository = await catalogue.restore(requireUser(request), request.params.id);
      await app.rateLimiter.giveBack(request, restoreLimit);
      return { repository };
    },
  );

  app.put(
    '/repositories/:id/metadata/',
    {
      config: memberAccess,
      schema: {
        tags,
        summary: 'Save tags and notes',
        security: bearerSecurity,
        params: repositoryIdParamsSchema,
        body: metadataBodySchema,
        response: { 200: repositoryResponseSchema, ...REPOSITORY_ERRORS },
      },
    },
    async (request) => ({
      repository: await catalogue.updateMetadata(requireUser(request), request.params.id, request.body),
    }),
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
