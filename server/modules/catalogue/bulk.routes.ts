import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  type BulkBody,
  bulkBodySchema,
  bulkResponseSchema,
  distinctRepositories,
} from '#shared/schemas/bulk.ts';
import { SYNC_LIMIT_WINDOW_MS, SYNCS_PER_MEMBER } from '#shared/schemas/repositories.ts';
import type { LimitRule } from '../../lib/rate-limiter.ts';
import { requireUser } from '../../plugins/access.ts';
import { bearerSecurity, memberAccess, REPOSITORY_ERRORS } from '../../plugins/route-options.ts';

/**
 * A bulk update spends the member's budget of manual updates (docs/product.md#rate-limits) —
 * the 'sync:member' counter `PUT /repositories/{id}` spends (sync/sync.routes.ts) — one point
 * per repository selected, before anything is made due. One asking for more than is left is
 * refused whole with `retry_after` and spends nothing (issue 22, item 3); other actions spend
 * nothing.
 */
const bulkSyncBudget: LimitRule = {
  name: 'sync:member',
  max: SYNCS_PER_MEMBER,
  windowMs: SYNC_LIMIT_WINDOW_MS,
  key: (request) => String(requireUser(request).id),
  points: (request) => {
    const body = request.body as BulkBody;
    return body.action === 'sync' ? distinctRepositories(body.items) : 0;
  },
  refusal: ({ left, retryAfter }) => {
    if (left === 0) return undefined;
    const minutes = Math.ceil(retryAfter / 60);
    return `Too many requests: you can update ${left} more ${left === 1 ? 'repository' : 'repositories'} from GitHub in the next ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}. Select fewer, or try again later.`;
  },
};

const tags = ['repositories'];

/** The list's selection (docs/product.md#bulk-actions): one action on many repositories, each reported. */
export const bulkRoutes: FastifyPluginAsyncZod = async (app) => {
  const { bulk } = app.services;

  app.post(
    '/repositories/bulk',
    {
      config: memberAccess,
      preHandler: app.rateLimiter.hook(bulkSyncBudget),
      schema: {
        tags,
        summary:
          'Add or remove tags, update from GitHub, delete, or set the decision status of several repositories',
        description:
          'Each repository is done on its own and gets its own result: one the caller may not see or change fails with the reason while the rest go ahead. Updates are queued for the sync engine (`status: queued`); they spend the member’s budget of manual updates (30 repositories in 15 minutes, shared with `PUT /repositories/{id}`): a selection of more than 30 is invalid (400), and one of more than is left is refused whole (429 with `retry_after`). `set_status` writes one decision record per repository with the body’s status, quadrant, rationale, links and review date, under the rules of `PUT /repositories/{id}/decision` (400 for the whole request on a bad field; 403 for members when DECISIONS_BY=admins).',
        security: bearerSecurity,
        body: bulkBodySchema,
        response: { 200: bulkResponseSchema, ...REPOSITORY_ERRORS },
      },
    },
    async (request) => bulk.run(requireUser(request), request.body),
  );
};
