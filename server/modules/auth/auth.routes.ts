import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  emailOnlyBodySchema,
  loginBodySchema,
  loginResponseSchema,
  logoutResponseSchema,
  messageResponseSchema,
  refreshBodySchema,
  refreshResponseSchema,
  registerBodySchema,
  resetPasswordBodySchema,
  resetTokenQuerySchema,
  successResponseSchema,
  verifyEmailBodySchema,
  verifyResetTokenBodySchema,
} from '#shared/schemas/auth.ts';
import { errorBodySchema } from '#shared/schemas/errors.ts';
import { clientKey } from '../../lib/client-key.ts';
import type { LimitRule } from '../../lib/rate-limiter.ts';
import { requireUser } from '../../plugins/access.ts';

const FIFTEEN_MINUTES = 15 * 60 * 1000;
const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  409: errorBodySchema,
  429: errorBodySchema,
};

const HOUR = 60 * 60 * 1000;

/**
 * The second counter (docs/product.md#rate-limits): per e-mail address, whichever client address
 * the attempts come from. (Sign-in counts per account, see `loginLimitKey`.)
 */
function emailKey(request: FastifyRequest) {
  const value = (request.body as Record<string, unknown> | undefined)?.email;
  return typeof value === 'string' ? value.trim().toLowerCase() : '';
}

const perClient = (name: string, max: number, windowMs: number): LimitRule => ({
  name: `${name}:ip`,
  max,
  windowMs,
  key: clientKey,
});
const perAccount = (name: string, max: number, windowMs: number): LimitRule => ({
  name: `${name}:account`,
  max,
  windowMs,
  key: emailKey,
});

/** Sign-up, sign-in and recovery: all public, all rate limited per client and per account. */
export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.auth;
  const limit = (...rules: LimitRule[]) => app.rateLimiter.hook(...rules);

  app.post(
    '/auth/register',
    {
      config: { access: 'public' },
      onRequest: limit(perClient('register', 10, HOUR)),
      schema: {
        tags: ['auth'],
        summary: 'Create an account',
        body: registerBodySchema,
        response: { 201: messageResponseSchema, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await service.register(request.body)),
  );

  app.post(
    '/auth/login',
    {
      config: { access: 'public' },
      onRequest: limit(perClient('login', 10, FIFTEEN_MINUTES)),
      // Keyed on the account the identifier names, not on the typed string: `victim` and
      // `victim@example.com` share one counter instead of getting ten attempts each.
      preHandler: limit({
        name: 'login:account',
        max: 10,
        windowMs: FIFTEEN_MINUTES,
        key: (request) => {
          const value = (request.body as Record<string, unknown> | undefined)?.email_or_username;
          return service.loginLimitKey(typeof value === 'string' ? value : '');
        },
      }),
      schema: {
        tags: ['auth'],
        summary: 'Sign in',
        body: loginBodySchema,
        response: { 200: loginResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { email_or_username, password, remember_me } = request.body;
      return service.login(email_or_username, password, remember_me);
    },
  );

  app.post(
    '/auth/refresh',
    {
      config: { access: 'public' },
      onRequest: limit(perClient('refresh', 120, FIFTEEN_MINUTES)),
      schema: {
        tags: ['auth'],
        summary: 'Rotate a refresh token',
        body: refreshBodySchema,
        response: { 200: refreshResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { access_token, refresh_token } = await app.services.tokens.rotate(request.body.refresh_token);
      return { access_token, refresh_token };
    },
  );

  app.post(
    '/auth/logout',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Revoke a session',
        description:
          'A session that came from single sign-on also answers `end_session_url`, the provider’s sign-out page, when the provider has one.',
        body: refreshBodySchema,
        response: { 200: logoutResponseSchema, ...errors },
      },
    },
    async (request) => service.logout(request.body.refresh_token),
  );

  app.post(
    '/auth/logout-all',
    {
      config: { access: 'user', apiTokens: false },
      schema: {
        tags: ['auth'],
        summary: 'Revoke every session of the caller, and the Atom feed token',
        description:
          'API tokens are not sessions and keep working: revoke them with `DELETE /auth/me/tokens`.',
        security: [{ bearerAuth: [] }],
        response: { 200: messageResponseSchema, ...errors },
      },
    },
    async (request) => service.logoutEverywhere(requireUser(request).id),
  );

  app.post(
    '/auth/verify-email',
    {
      config: { access: 'public' },
      onRequest: limit(perClient('verify-email', 30, FIFTEEN_MINUTES)),
      schema: {
        tags: ['auth'],
        summary: 'Confirm an e-mail address',
        body: verifyEmailBodySchema,
        response: { 200: successResponseSchema, 404: errorBodySchema, ...errors },
      },
    },
    async (request) => service.verifyEmail(request.body.token),
  );

  app.post(
    '/auth/resend-verification',
    {
      config: { access: 'public' },
      onRequest: limit(perClient('resend', 3, FIFTEEN_MINUTES)),
      preHandler: limit(perAccount('resend', 3, FIFTEEN_MINUTES)),
      schema: {
        tags: ['auth'],
        summary: 'Send a new verification link',
        body: emailOnlyBodySchema,
        response: { 200: successResponseSchema, ...errors },
      },
    },
    async (request) => service.resendVerification(request.body.email),
  );

  app.post(
    '/auth/forgot-password',
    {
      config: { access: 'public' },
      onRequest: limit(perClient('forgot', 3, FIFTEEN_MINUTES)),
      preHandler: limit(perAccount('forgot', 3, FIFTEEN_MINUTES)),
      schema: {
        tags: ['auth'],
        summary: 'Send a password reset link',
        body: emailOnlyBodySchema,
        response: { 200: successResponseSchema, ...errors },
      },
    },
    async (request) => service.forgotPassword(request.body.email),
  );

  app.get(
    '/auth/verify-reset-token',
    {
      config: { access: 'public' },
      onRequest: limit(perClient('verify-reset', 30, FIFTEEN_MINUTES)),
      schema: {
        tags: ['auth'],
        summary: 'Check a reset link before showing the form',
        querystring: resetTokenQuerySchema,
        response: { 200: successResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      // The reset page must not leak its token to anything it links to (docs/security.md#b3).
      reply.header('referrer-policy', 'no-referrer');
      return service.verifyResetToken(request.query.token);
    },
  );

  // The same check with the token in the body, which the web app uses: a URL's query string
  // ends up in proxies' and servers' logs, and checking doesn't spend the token.
  app.post(
    '/auth/verify-reset-token',
    {
      config: { access: 'public' },
      onRequest: limit(perClient('verify-reset', 30, FIFTEEN_MINUTES)),
      schema: {
        tags: ['auth'],
        summary: 'Check a reset link before showing the form',
        body: verifyResetTokenBodySchema,
        response: { 200: successResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('referrer-policy', 'no-referrer');
      return service.verifyResetToken(request.body.token);
    },
  );

  app.post(
    '/auth/reset-password',
    {
      config: { access: 'public' },
      onRequest: limit(perClient('reset', 10, FIFTEEN_MINUTES)),
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with a reset link',
        body: resetPasswordBodySchema,
        response: { 200: successResponseSchema, ...errors },
      },
    },
    async (request) => service.resetPassword(request.body.token, request.body.new_password),
  );
};
