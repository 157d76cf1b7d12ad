import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { SharedQuota } from '../github/quota.ts';
import { unauthorized } from '../lib/app-error.ts';
import type { Clock } from '../lib/clock.ts';
import type { Resolver } from '../lib/outbound-guard.ts';
import { SecretBox } from '../lib/secret-box.ts';
import { createMailer, type Mailer } from '../mail/mailer.ts';
import { AuthService } from '../modules/auth/auth.service.ts';
import { TokenService } from '../modules/auth/tokens.service.ts';
import { MeService } from '../modules/me/me.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    clock: Clock;
    mailer: Mailer;
    tokens: TokenService;
    authService: AuthService;
    secretBox: SecretBox;
    sharedQuota: SharedQuota;
    meService: MeService;
  }
}

export interface AuthPluginOptions {
  clock: Clock;
  mailer?: Mailer;
  /** DNS for webhook checks; tests pass a fixed answer. */
  resolve?: Resolver;
}

/**
 * Accounts and sessions: decorates the services every module uses and `authenticate`, which the
 * access plugin calls for `user` and `admin` routes (bearer JWT, checked against the database).
 */
async function auth(app: FastifyInstance, options: AuthPluginOptions) {
  const { clock } = options;
  const mailer = options.mailer ?? createMailer(app.config, app.log);
  const tokens = new TokenService(app.db, app.secretKey, clock);
  const sharedQuota = new SharedQuota();
  app.decorate('clock', clock);
  app.decorate('mailer', mailer);
  app.decorate('tokens', tokens);
  const secretBox = new SecretBox(app.secretKey);
  app.decorate('secretBox', secretBox);
  app.decorate('sharedQuota', sharedQuota);
  app.decorate(
    'authService',
    new AuthService({
      db: app.db,
      tokens,
      mailer,
      clock,
      config: app.config,
      log: app.log,
      quota: sharedQuota,
    }),
  );
  app.decorate(
    'meService',
    new MeService({
      db: app.db,
      clock,
      box: secretBox,
      quota: sharedQuota,
      config: app.config,
      resolve: options.resolve,
    }),
  );
  app.decorate('authenticate', async (request: FastifyRequest) => {
    const header = request.headers.authorization;
    const match = header?.match(/^Bearer\s+(\S+)$/i);
    if (!match?.[1]) throw unauthorized();
    const user = await tokens.verifyAccessToken(match[1]);
    return { id: user.id, is_admin: user.is_admin === 1 };
  });
  if (!options.mailer) app.addHook('onClose', async () => mailer.close());
}

export default fp(auth, { name: 'auth', dependencies: ['database'] });
