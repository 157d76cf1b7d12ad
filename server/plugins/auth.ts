import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { unauthorized } from '../lib/app-error.ts';

/**
 * Authentication: decorates `authenticate`, which the access plugin calls for `user` and `admin`
 * routes (bearer JWT, checked against the database), and says at boot when stored secrets can't
 * be opened with this SECRET_KEY.
 */
async function auth(app: FastifyInstance) {
  const { tokens, me } = app.services;
  app.decorate('authenticate', async (request: FastifyRequest) => {
    const header = request.headers.authorization;
    const match = header?.match(/^Bearer\s+(\S+)$/i);
    if (!match?.[1]) throw unauthorized();
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

export default fp(auth, { name: 'auth', dependencies: ['database'] });
