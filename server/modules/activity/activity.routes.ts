import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  activityPageSchema,
  activityQuerySchema,
  feedQuerySchema,
  feedTokenCreatedSchema,
  feedTokenStatusSchema,
} from '#shared/schemas/activity.ts';
import { errorBodySchema } from '#shared/schemas/errors.ts';
import { clientKey } from '../../lib/client-key.ts';
import { requireUser } from '../../plugins/access.ts';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 429: errorBodySchema };
const security = [{ bearerAuth: [] }];
const member = { access: 'user' as const };
/** The feed token is a secret: managed with a session only, never with an API token. */
const feedTokenConfig = { access: 'user' as const, apiTokens: false };

/** Feed fetches per client address: readers poll every few minutes at most; guessing gets nowhere. */
export const FEED_FETCHES_PER_WINDOW = 120;
const FEED_WINDOW_MS = 10 * 60 * 1000;

/** The activity feed, its Atom form and the Atom feed's token (docs/product.md#activity). */
export const activityRoutes: FastifyPluginAsyncZod = async (app) => {
  const { activity } = app.services;

  app.get(
    '/activity',
    {
      config: member,
      schema: {
        tags: ['activity'],
        summary: 'What changed in the catalogue, newest first',
        description:
          'Events of the repositories the caller may see (docs/product.md#activity), filtered by `type`, `tag` and `repository`, one page at a time: pass `next_cursor` back as `cursor` for the next.',
        security,
        querystring: activityQuerySchema,
        response: { 200: activityPageSchema, ...errors },
      },
    },
    async (request) => activity.page(requireUser(request), request.query),
  );

  app.get(
    '/feeds/activity.atom',
    {
      // Feed readers can't send a bearer token: the feed token in the query string is the one
      // exception to "no tokens in URLs" (docs/security.md). Logs show the route, never the URL.
      config: { access: 'public' },
      onRequest: app.rateLimiter.hook({
        name: 'activity-feed:ip',
        max: FEED_FETCHES_PER_WINDOW,
        windowMs: FEED_WINDOW_MS,
        key: clientKey,
      }),
      schema: {
        tags: ['activity'],
        summary: 'The activity as an Atom feed, for feed readers',
        description:
          'Authenticated by the feed token from Settings (`GET/POST/DELETE /auth/me/feed-token`), read-only; the token owner’s view of the activity, all or one `tag`. A wrong or revoked token answers 401 (no hint which); none at all, 400.',
        querystring: feedQuerySchema,
        produces: ['application/atom+xml'],
        response: { 200: z.string().describe('application/atom+xml, Atom 1.0'), ...errors },
      },
    },
    async (request, reply) => {
      const xml = await activity.atomFeed(request.query.token, request.query.tag);
      reply.header('content-type', 'application/atom+xml; charset=utf-8');
      // A personal document: never kept by a shared cache.
      reply.header('cache-control', 'private, no-cache');
      return reply.send(xml);
    },
  );

  const tokenTags = ['account'];
  app.get(
    '/auth/me/feed-token',
    {
      config: feedTokenConfig,
      schema: {
        tags: tokenTags,
        summary: 'Whether the caller has an activity feed token',
        security,
        response: { 200: feedTokenStatusSchema, ...errors },
      },
    },
    async (request) => activity.feedTokenStatus(requireUser(request).id),
  );
  app.post(
    '/auth/me/feed-token',
    {
      config: feedTokenConfig,
      schema: {
        tags: tokenTags,
        summary: 'Create or regenerate the activity feed token',
        description:
          'Answers the new token and the whole feed address once; only its hash is kept. The previous token stops working at once.',
        security,
        response: { 200: feedTokenCreatedSchema, ...errors },
      },
    },
    async (request) => activity.createFeedToken(requireUser(request).id),
  );
  app.delete(
    '/auth/me/feed-token',
    {
      config: feedTokenConfig,
      schema: {
        tags: tokenTags,
        summary: 'Revoke the activity feed token',
        security,
        response: { 200: feedTokenStatusSchema, ...errors },
      },
    },
    async (request) => activity.revokeFeedToken(requireUser(request).id),
  );
};
