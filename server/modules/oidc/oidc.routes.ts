import fastifyCookie, { type CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '#shared/schemas/errors.ts';
import {
  adminSignInSchema,
  authProvidersSchema,
  linkedIdentitiesSchema,
  oidcCallbackQuerySchema,
  oidcExchangeBodySchema,
  oidcLinkBodySchema,
  oidcLinkDetailsBodySchema,
  oidcLinkDetailsSchema,
  oidcSignInResponseSchema,
  oidcStartQuerySchema,
} from '#shared/schemas/oidc.ts';
import { clientKey } from '../../lib/client-key.ts';
import type { LimitRule } from '../../lib/rate-limiter.ts';
import { hashToken } from '../../lib/secret-box.ts';
import { requireUser } from '../../plugins/access.ts';
import { STATE_SECONDS } from './oidc.service.ts';
import { SignInFailure } from './oidc-accounts.ts';

const FIFTEEN_MINUTES = 15 * 60 * 1000;
const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  429: errorBodySchema,
};
/** The browser binding of a sign-in in flight: HttpOnly, only sent to the callback's path. */
export const BROWSER_COOKIE = 'rt_oidc';
const COOKIE_PATH = '/auth/oidc';

const perClient = (name: string, max: number): LimitRule => ({
  name: `${name}:ip`,
  max,
  windowMs: FIFTEEN_MINUTES,
  key: clientKey,
});

/** The one-time code of a body, hashed: a link code's password attempts are counted per code. */
function codeKey(request: FastifyRequest): string {
  const value = (request.body as Record<string, unknown> | undefined)?.code;
  return typeof value === 'string' ? hashToken(value.trim()) : '';
}

/** A navigation answer: 302, never cached, never leaking the URL onwards. */
function redirect(reply: FastifyReply, location: string) {
  return reply
    .code(302)
    .header('location', location)
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .send();
}

/**
 * Single sign-on (docs/product.md#single-sign-on): which sign-in methods exist, the browser's
 * round trip through the provider (start, callback: navigations answered with 302), the app's
 * calls that turn the callback's one-time code into a session, the caller's linked identities,
 * and the admin "Sign-in" section.
 */
export const oidcRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.oidc;
  const limit = (...rules: LimitRule[]) => app.rateLimiter.hook(...rules);
  // Parsed for these routes only: no other route reads a cookie (sessions are bearer tokens).
  await app.register(fastifyCookie);
  const browserCookie: CookieSerializeOptions = {
    path: COOKIE_PATH,
    httpOnly: true,
    sameSite: 'lax',
    secure: app.config.publicUrl.startsWith('https:'),
  };

  app.get(
    '/auth/providers',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'The sign-in methods of this instance',
        response: { 200: authProvidersSchema },
      },
    },
    async () => service.providers(),
  );

  app.get(
    '/auth/oidc/start',
    {
      config: { access: 'public' },
      onRequest: limit(perClient('oidc-start', 60)),
      schema: {
        tags: ['auth'],
        summary: 'Start single sign-on: 302 to the provider',
        description:
          'A browser navigation. `return_to` is an in-app path the sign-in answer gives back. When the provider cannot be reached, 302 to `/#/login?oidc_error=provider_unavailable`.',
        querystring: oidcStartQuerySchema,
        response: { 302: z.null().describe('To the provider, or to the app with `oidc_error`'), ...errors },
      },
    },
    async (request, reply) => {
      const rememberMe = request.query.remember_me === 'true' || request.query.remember_me === '1';
      try {
        const started = await service.start(request.query.return_to ?? null, rememberMe);
        reply.setCookie(BROWSER_COOKIE, started.browser, { ...browserCookie, maxAge: STATE_SECONDS });
        return redirect(reply, started.location);
      } catch (error) {
        if (error instanceof SignInFailure)
          return redirect(reply, service.appUrl({ oidc_error: error.code }));
        throw error;
      }
    },
  );

  app.get(
    '/auth/oidc/callback',
    {
      config: { access: 'public' },
      onRequest: limit(perClient('oidc-callback', 60)),
      schema: {
        tags: ['auth'],
        summary: 'The provider’s answer: 302 to the app',
        description:
          '302 to `/#/login?oidc_code=…` (exchange it), `/#/login?oidc_link=…` (link an existing account with its password) or `/#/login?oidc_error=<code>`.',
        querystring: oidcCallbackQuerySchema,
        response: {
          302: z.null().describe('To the app: `oidc_code`, `oidc_link` or `oidc_error`'),
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const raw = request.raw.url ?? '';
      const rawQuery = raw.includes('?') ? raw.slice(raw.indexOf('?') + 1) : '';
      const location = await service.callback(request.query, rawQuery, request.cookies[BROWSER_COOKIE]);
      reply.clearCookie(BROWSER_COOKIE, browserCookie);
      return redirect(reply, location);
    },
  );

  app.post(
    '/auth/oidc/exchange',
    {
      config: { access: 'public' },
      onRequest: limit(perClient('oidc-exchange', 60)),
      schema: {
        tags: ['auth'],
        summary: 'Turn the callback’s one-time code into a session',
        body: oidcExchangeBodySchema,
        response: { 200: oidcSignInResponseSchema, ...errors },
      },
    },
    async (request) => service.exchange(request.body.code),
  );

  app.post(
    '/auth/oidc/link',
    {
      config: { access: 'public' },
      onRequest: limit(perClient('oidc-link', 10)),
      preHandler: limit({ name: 'oidc-link:code', max: 5, windowMs: FIFTEEN_MINUTES, key: codeKey }),
      schema: {
        tags: ['auth'],
        summary: 'Link your account: prove its password once, then sign in',
        description:
          'For a callback that answered `oidc_link`: the provider verified an e-mail of an existing account, which is never taken over without its password.',
        body: oidcLinkBodySchema,
        response: { 200: oidcSignInResponseSchema, ...errors },
      },
    },
    async (request) => service.link(request.body.code, request.body.password),
  );

  app.post(
    '/auth/oidc/link/details',
    {
      config: { access: 'public' },
      onRequest: limit(perClient('oidc-link-details', 60)),
      schema: {
        tags: ['auth'],
        summary: 'The e-mail of the account a link code links, for the "Link your account" form',
        body: oidcLinkDetailsBodySchema,
        response: { 200: oidcLinkDetailsSchema, ...errors },
      },
    },
    async (request) => service.linkDetails(request.body.code),
  );

  app.get(
    '/auth/me/identities',
    {
      config: { access: 'user', apiTokens: false },
      schema: {
        tags: ['account'],
        summary: 'The single sign-on identities linked to the caller’s account',
        security: [{ bearerAuth: [] }],
        response: { 200: linkedIdentitiesSchema, ...errors },
      },
    },
    async (request) => service.identities(requireUser(request).id),
  );

  app.get(
    '/auth/admin/sign-in',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['admin'],
        summary: 'Sign-in methods, the provider’s discovery result and recent sign-in problems',
        security: [{ bearerAuth: [] }],
        response: { 200: adminSignInSchema, ...errors },
      },
    },
    async () => service.adminSummary(),
  );
};
