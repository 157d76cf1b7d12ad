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
import { MeService, secretContext } from '../modules/me/me.service.ts';

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
  app.addHook('onReady', async () => {
    const unreadable = await countUnreadableSecrets(app, secretBox);
    // A different SECRET_KEY than the one that sealed them (a restore without the key file):
    // members must store their token and webhook again; say so loudly instead of failing later.
    if (unreadable > 0)
      app.log.error({ unreadable }, 'stored secrets cannot be decrypted with this SECRET_KEY');
  });
}

/** SECURITY.md E1: every stored secret must open with the configured key. */
async function countUnreadableSecrets(app: FastifyInstance, box: SecretBox): Promise<number> {
  const rows = await app.db
    .selectFrom('users')
    .select(['id', 'github_token_enc', 'slack_webhook_enc'])
    .where((eb) => eb.or([eb('github_token_enc', 'is not', null), eb('slack_webhook_enc', 'is not', null)]))
    .execute();
  let unreadable = 0;
  for (const row of rows) {
    for (const [field, sealed] of [
      ['github_token', row.github_token_enc],
      ['slack_webhook', row.slack_webhook_enc],
    ] as const) {
      if (!sealed) continue;
      try {
        box.open(sealed, secretContext(row.id, field));
      } catch {
        unreadable += 1;
      }
    }
  }
  return unreadable;
}

export default fp(auth, { name: 'auth', dependencies: ['database'] });
