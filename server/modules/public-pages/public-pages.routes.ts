import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '#shared/schemas/errors.ts';
import {
  PUBLIC_PAGE_MAX_AGE_SECONDS,
  publicationResponseSchema,
  publicationSchema,
  publicPageIdParamsSchema,
  publicPageListSchema,
  publicRadarPageSchema,
  publicSlugParamsSchema,
  publicViewPageSchema,
  publishEditionBodySchema,
  publishViewBodySchema,
} from '#shared/schemas/public-pages.ts';
import { notFound } from '../../lib/app-error.ts';
import { clientKey } from '../../lib/client-key.ts';
import { matchesEtag } from '../../lib/etag.ts';
import { requireUser } from '../../plugins/access.ts';
import { bearerSecurity, errorResponses, memberAccess } from '../../plugins/route-options.ts';
import { PUBLIC_PAGE_CSP, renderRadarPage, renderViewPage } from './public-page-html.ts';
import { PAGE_NOT_FOUND } from './public-pages.service.ts';

/**
 * The slug of `/p/{slug}` (or `{slug}.json`, `{slug}.atom` where allowed): 43 characters of
 * base64url. Anything else is the same 404 as an unknown address, never a validation message
 * that would tell a malformed guess from a withdrawn page.
 */
function pageSlug(raw: string, variants: readonly string[]): string {
  const match = /^([A-Za-z0-9_-]{43})(?:\.([a-z]+))?$/.exec(raw);
  if (!match?.[1] || (match[2] !== undefined && !variants.includes(match[2]))) throw notFound(PAGE_NOT_FOUND);
  return match[1];
}

/** Page reads per client address and minute: people reading, not a crawl. */
export const PUBLIC_PAGE_READS_PER_WINDOW = 120;
const WINDOW_MS = 60 * 1000;

const errors = errorResponses(400, 401, 403, 404, 429);
const admin = { access: 'admin' as const };
const tags = ['public pages'];
const idParams = publicPageIdParamsSchema;

/**
 * Publishing views and radar editions, and the public pages themselves (docs/product.md#public-pages).
 * The pages are public: no cookie or token is read or set, answers are cacheable for five
 * minutes with an ETag, and each address is rate-limited.
 */
export const publicPagesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { publicPages } = app.services;

  // ---- publishing ------------------------------------------------------------------------------

  app.get(
    '/views/:id/publish',
    {
      config: memberAccess,
      schema: {
        tags,
        summary: 'Whether a view is published, where and with which fields (its owner; an admin)',
        security: bearerSecurity,
        params: idParams,
        response: { 200: publicationResponseSchema, ...errors },
      },
    },
    async (request) => ({
      publication: await publicPages.viewPublication(requireUser(request), request.params.id),
    }),
  );

  app.post(
    '/views/:id/publish',
    {
      config: memberAccess,
      schema: {
        tags,
        summary: 'Publish a shared view at a new unguessable address, with these fields',
        description:
          'Fields: description, stars, growth, health, status, release, tags, notes (notes only when listed). Publishing again gives a new address; the old one answers 404. PUBLIC_PAGES=off: 404.',
        security: bearerSecurity,
        params: idParams,
        body: publishViewBodySchema,
        response: { 201: publicationSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await publicPages.publishView(requireUser(request), request.params.id, request.body)),
  );

  app.delete(
    '/views/:id/publish',
    {
      config: memberAccess,
      schema: {
        tags,
        summary: 'Unpublish a view: its address answers 404 from now on',
        security: bearerSecurity,
        params: idParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await publicPages.unpublishView(requireUser(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/radar/editions/:id/publish',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Whether a radar edition is published, and where',
        security: bearerSecurity,
        params: idParams,
        response: { 200: publicationResponseSchema, ...errors },
      },
    },
    async (request) => ({ publication: await publicPages.editionPublication(request.params.id) }),
  );

  app.post(
    '/radar/editions/:id/publish',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Publish a radar edition at a new unguessable address (rationales only when asked)',
        security: bearerSecurity,
        params: idParams,
        body: publishEditionBodySchema,
        response: { 201: publicationSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await publicPages.publishEdition(requireUser(request), request.params.id, request.body)),
  );

  app.delete(
    '/radar/editions/:id/publish',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Unpublish a radar edition',
        security: bearerSecurity,
        params: idParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await publicPages.unpublishEdition(request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/public-pages',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Everything published: views and radar editions, by whom, with their addresses',
        security: bearerSecurity,
        response: { 200: publicPageListSchema, ...errors },
      },
    },
    async () => ({ pages: await publicPages.list() }),
  );

  app.delete(
    '/public-pages/:id',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Unpublish any page (an admin)',
        security: bearerSecurity,
        params: idParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await publicPages.unpublish(request.params.id);
      return reply.code(204).send(null);
    },
  );

  // ---- the pages ---------------------------------------------------------------------------------

  const read = {
    config: { access: 'public' as const },
    onRequest: app.rateLimiter.hook({
      name: 'public-pages:ip',
      max: PUBLIC_PAGE_READS_PER_WINDOW,
      windowMs: WINDOW_MS,
      key: clientKey,
    }),
  };
  const pageAnswers = {
    200: z.union([z.string(), publicViewPageSchema, publicRadarPageSchema]),
    304: z.null().describe('Not modified: the ETag sent in If-None-Match is current'),
    400: errorBodySchema,
    404: errorBodySchema,
    429: errorBodySchema,
  };
  const indexable = app.config.publicPagesIndex;
  const appName = app.config.appName;

  /** Cacheable, cookie-less, noindex unless allowed; 304 when the reader has this version. */
  const answer = (
    request: { headers: Record<string, string | string[] | undefined> },
    reply: import('fastify').FastifyReply,
    etag: string,
    type: string,
    body: unknown,
  ) => {
    reply
      .header('etag', etag)
      .header('cache-control', `public, max-age=${PUBLIC_PAGE_MAX_AGE_SECONDS}`)
      .header('content-security-policy', PUBLIC_PAGE_CSP)
      .header('vary', 'accept-encoding');
    if (!indexable) reply.header('x-robots-tag', 'noindex');
    const header = request.headers['if-none-match'];
    if (matchesEtag(Array.isArray(header) ? header.join(',') : header, etag))
      return reply.code(304).send(null);
    return reply.header('content-type', type).send(body);
  };

  app.get(
    '/p/:slug',
    {
      ...read,
      schema: {
        tags,
        summary:
          'A published view: HTML, or `{slug}.json` (the same rows), or `{slug}.atom` (their GitHub activity)',
        description:
          'Public repositories only, with the fields the publisher chose. `Cache-Control: public, max-age=300` and an ETag (`If-None-Match` → 304). PUBLIC_PAGES=off, an unknown or withdrawn address: 404.',
        params: publicSlugParamsSchema,
        produces: ['text/html', 'application/json', 'application/atom+xml'],
        response: pageAnswers,
      },
    },
    async (request, reply) => {
      const { slug: raw } = request.params;
      const slug = pageSlug(raw, ['json', 'atom']);
      if (raw.endsWith('.atom')) {
        const { page, etag } = await publicPages.viewAtom(slug);
        return answer(request, reply, etag, 'application/atom+xml; charset=utf-8', page);
      }
      const { page, etag } = await publicPages.viewPage(slug);
      if (raw.endsWith('.json')) return answer(request, reply, etag, 'application/json; charset=utf-8', page);
      return answer(
        request,
        reply,
        `${etag.slice(0, -1)}h"`,
        'text/html; charset=utf-8',
        renderViewPage(page, { appName, indexable, slug }),
      );
    },
  );

  app.get(
    '/p/radar/:slug',
    {
      ...read,
      schema: {
        tags,
        summary: 'A published radar edition: HTML, or `{slug}.json`',
        description:
          'Its entries of public repositories by quadrant and ring; rationales only when the admin included them. Cacheable as `/p/{slug}`.',
        params: publicSlugParamsSchema,
        produces: ['text/html', 'application/json'],
        response: pageAnswers,
      },
    },
    async (request, reply) => {
      const { slug: raw } = request.params;
      const slug = pageSlug(raw, ['json']);
      const { page, etag } = await publicPages.radarPage(slug);
      if (raw.endsWith('.json')) return answer(request, reply, etag, 'application/json; charset=utf-8', page);
      return answer(
        request,
        reply,
        `${etag.slice(0, -1)}h"`,
        'text/html; charset=utf-8',
        renderRadarPage(page, { appName, indexable, slug }),
      );
    },
  );
};
