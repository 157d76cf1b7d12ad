import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BADGE_MAX_AGE_SECONDS, badgeParamsSchema, badgeQuerySchema } from '#shared/schemas/badges.ts';
import { errorBodySchema } from '#shared/schemas/errors.ts';
import { clientKey } from '../../lib/client-key.ts';
import { matchesEtag } from '../../lib/etag.ts';

/** Badge fetches per client address and minute: pages of READMEs, not a crawl of the catalogue. */
export const BADGE_FETCHES_PER_WINDOW = 300;
const BADGE_WINDOW_MS = 60 * 1000;

/**
 * An SVG opened on its own is a document: no script, nothing loaded, only its inline styles
 * (docs/security.md#badges). The app's CSP would allow its own scripts.
 */
const BADGE_CSP = "default-src 'none'; style-src 'unsafe-inline'";

/** `GET /badge/{owner}/{name}/{kind}.svg` (docs/product.md#badges): public, cookie-less, cacheable. */
export const badgesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { badges } = app.services;

  app.get(
    '/badge/:owner/:name/:kind.svg',
    {
      // Anyone, signed in or not: the auth plugin is never asked and no cookie is read or set.
      config: { access: 'public' },
      onRequest: app.rateLimiter.hook({
        name: 'badges:ip',
        max: BADGE_FETCHES_PER_WINDOW,
        windowMs: BADGE_WINDOW_MS,
        key: clientKey,
      }),
      schema: {
        tags: ['badges'],
        summary: 'A status badge of a public repository, as SVG',
        description:
          'Kinds `stars`, `growth` (stars in the last 30 days), `health` (grade and score), `release` (the latest tracked version) and `advisories` (open advisories by highest severity); `status` (the ring in the newest published radar edition that holds the repository; 404 when none does or PUBLIC_PAGES=off). `style` is `flat` (default), `flat-square` or `for-the-badge` (anything else: 400); `label` (1–40 characters) replaces the left-hand text. Only for public repositories in the catalogue: a private or missing repository, or PUBLIC_BADGES=off, answers the same 404. ETag and `Cache-Control: public, max-age=3600`; `If-None-Match` with the ETag answers 304.',
        params: badgeParamsSchema,
        querystring: badgeQuerySchema,
        produces: ['image/svg+xml'],
        response: {
          200: z.string().describe('image/svg+xml, a shields.io-style badge'),
          304: z.null().describe('Not modified: the ETag sent in If-None-Match is current'),
          400: errorBodySchema,
          404: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const { owner, name, kind } = request.params;
      const badge = await badges.badge(`${owner}/${name}`, kind, request.query);
      reply
        .header('etag', badge.etag)
        .header('cache-control', `public, max-age=${BADGE_MAX_AGE_SECONDS}`)
        .header('content-security-policy', BADGE_CSP)
        // Embedded by other sites (READMEs, wikis): helmet's same-origin default would block it.
        .header('cross-origin-resource-policy', 'cross-origin');
      if (matchesEtag(request.headers['if-none-match'], badge.etag)) return reply.code(304).send(null);
      reply.header('content-type', 'image/svg+xml; charset=utf-8');
      return reply.send(badge.svg);
    },
  );
};
