import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { API_TOKEN_REQUESTS_MAX, API_TOKEN_REQUESTS_WINDOW_MS } from '#shared/constants.ts';
import { unauthorized } from '../lib/app-error.ts';

/**
 * Authentication: decorates `authenticate`, which the access plugin calls for `user` and `admin`
 * routes (a bearer JWT, or a personal API token `rt_…`, both checked against the database), and
 * says at boot when stored secrets can't be opened with this SECRET_KEY.
 */
async function auth(app: FastifyInstance) {
  const { tokens, me, apiTokens } = app.services;
  app.decorate('authenticate', async (request: FastifyRequest) => {
    const header = request.headers.authorization;
    const match = header?.match(/^Bearer\s+(\S+)$/i);
    if (!match?.[1]) throw unauthorized();
    if (apiTokens.isApiToken(match[1])) {
      const caller = await apiTokens.authenticate(match[1], request.ip);
      // Each token has its own counter (docs/product.md#rate-limits), shared through Redis when
      // configured; a script can't starve its owner's sessions or other tokens.
      await app.rateLimiter.hook({
        name: 'api-token',
        max: API_TOKEN_REQUESTS_MAX,
        windowMs: API_TOKEN_REQUESTS_WINDOW_MS,
        key: () => String(caller.tokenId),
      })(request);
      return {
        id: caller.userId,
        // The owner's flag now, not at creation: a demoted admin's token loses admin at once.
        is_admin: caller.scope === 'admin' && caller.ownerIsAdmin,
        apiToken: { id: caller.tokenId, scope: caller.scope },
      };
    }
    const user = await tokens.verifyAccessToken(match[1]);
    return { id: user.id, is_admin: user.is_admin === 1 };
  });
  app.addHook('onReady', async () => {
    const unreadable = await me.countUnreadableSecrets();
    // A different SECRET_KEY than the one that sealed them (a restore without the key file):
    // members must store their token and webhook again; say so loudly instead of failing later.
    if (unreadable > 0)
      app.log.error({ unreadable }, 'stored secrets cannot be decrypted with this SECRET_KEY');
  });
}

export default fp(auth, { name: 'auth', dependencies: ['database', 'rate-limit'] });
