import { randomUUID } from 'node:crypto';
import compress from '@fastify/compress';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { BODY_LIMIT_BYTES } from '#shared/constants.ts';
import packageJson from '../package.json' with { type: 'json' };
import type { AppConfig } from './config.ts';
import { type DatabaseHandle, openDatabase } from './db/database.ts';
import { createGitHubClient, type PaceSettings } from './github/github-client.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { resolveGitCommit } from './lib/git-commit.ts';
import { logDestination } from './lib/log-format.ts';
import type { Resolver } from './lib/outbound-guard.ts';
import { openRedis } from './lib/redis-connection.ts';
import { responseSerializerCompiler } from './lib/response-serializer.ts';
import { resolveSecretKey } from './lib/secret-key.ts';
import { activityRoutes } from './modules/activity/activity.routes.ts';
import { adminRoutes } from './modules/admin/admin.routes.ts';
import { advisoryRoutes } from './modules/advisories/advisories.routes.ts';
import { apiTokenRoutes } from './modules/api-tokens/api-tokens.routes.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { backupRoutes } from './modules/backups/backups.routes.ts';
import { badgesRoutes } from './modules/badges/badges.routes.ts';
import { bulkRoutes } from './modules/catalogue/bulk.routes.ts';
import { catalogueRoutes } from './modules/catalogue/catalogue.routes.ts';
import { catalogueQueryRoutes } from './modules/catalogue-query/catalogue-query.routes.ts';
import { decisionRoutes } from './modules/decisions/decisions.routes.ts';
import { discussionRoutes } from './modules/discussion/discussion.routes.ts';
import { historyRoutes } from './modules/history/history.routes.ts';
import { mcpRoutes } from './modules/mcp/mcp.routes.ts';
import { meRoutes } from './modules/me/me.routes.ts';
import { createMailer, type Mailer } from './modules/messages/mail-transport.ts';
import { notificationRoutes } from './modules/notifications/notifications.routes.ts';
import { oidcRoutes } from './modules/oidc/oidc.routes.ts';
import { publicPagesRoutes } from './modules/public-pages/public-pages.routes.ts';
import { radarRoutes } from './modules/radar/radar.routes.ts';
import { releasesRoutes } from './modules/releases/releases.routes.ts';
import { repositoryHealthRoutes } from './modules/repository-health/repository-health.routes.ts';
import { syncRoutes } from './modules/sync/sync.routes.ts';
import { systemRoutes } from './modules/system/system.routes.ts';
import { versionsRoutes } from './modules/versions/versions.routes.ts';
import { viewsRoutes } from './modules/views/views.routes.ts';
import access from './plugins/access.ts';
import auth from './plugins/auth.ts';
import database from './plugins/database.ts';
import errors, { sendFrameworkError } from './plugins/errors.ts';
import jobs from './plugins/jobs.ts';
import jsonBody from './plugins/json-body.ts';
import metrics from './plugins/metrics.ts';
import openapi from './plugins/openapi.ts';
import rateLimit from './plugins/rate-limit.ts';
import security from './plugins/security.ts';
import webApp from './plugins/web-app.ts';
import { buildServices, type Services } from './services.ts';

export interface BuildOptions {
  /** An already open database (tests share one per file); otherwise opened from the config. */
  database?: DatabaseHandle;
  /** Serve the SPA from this folder instead of web/dist. */
  webDistDir?: string;
  /** Test seams: a fake clock, a mail transport (queued like the real one), a fixed DNS resolver for webhook checks. */
  clock?: Clock;
  mailer?: Mailer;
  resolve?: Resolver;
  /** GitHub request time-out (10 s by default); tests of hangs shorten it. */
  githubTimeoutMs?: number;
  /**
   * GitHub pace beyond what the configuration allows (it caps the pace under GitHub's limits):
   * the fuzz test, which is not about pacing, widens it so its hundreds of adds never queue.
   */
  githubPace?: Partial<PaceSettings>;
  /** Where log lines go (default stdout); tests capture them to prove no secret is logged. */
  logStream?: { write(line: string): void };
  /** How long the star-history backfill waits after a member's GitHub call (2 s); tests shorten it. */
  historyQuietMs?: number;
}

/** The route modules, by capability (docs/architecture.md#modules); `system` takes options, above. */
const MODULE_ROUTES = [
  authRoutes,
  oidcRoutes,
  meRoutes,
  apiTokenRoutes,
  adminRoutes,
  backupRoutes,
  catalogueRoutes,
  bulkRoutes,
  catalogueQueryRoutes,
  syncRoutes,
  versionsRoutes,
  discussionRoutes,
  releasesRoutes,
  historyRoutes,
  repositoryHealthRoutes,
  advisoryRoutes,
  decisionRoutes,
  radarRoutes,
  activityRoutes,
  notificationRoutes,
  viewsRoutes,
  badgesRoutes,
  publicPagesRoutes,
  mcpRoutes,
] as const;

/** Redacted wherever they appear in a log line (docs/security.md#c5). */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  '*.password',
  '*.current_password',
  '*.new_password',
  '*.token',
  '*.access_token',
  '*.refresh_token',
  '*.id_token',
];

/**
 * The request as every log line shows it: the route that answered (`/repositories/:id`), never
 * the requested path or its query string. Fastify's default logged the raw URL, so a reset
 * link checked with `GET /auth/verify-reset-token?token=…` put a live token in the info-level
 * log; a path or query can carry anything a client put there, so neither is logged at all.
 */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: request.routeOptions?.url,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * Builds the whole application from a validated config: the services once (`app.services`, from
 * services.ts), then the plugins, then the route modules, each registered explicitly. It never
 * listens; `main.ts` does, and tests use `inject` or listen on port 0.
 */
export async function buildApp(config: AppConfig, options: BuildOptions = {}): Promise<FastifyInstance> {
  const secretKey = resolveSecretKey(config);
  // Text on a terminal, JSON lines otherwise, or as LOG_FORMAT says; redaction happens before either.
  const logStream = logDestination(config.logFormat, options.logStream);
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      serializers: { req: serializeRequest },
      ...(logStream ? { stream: logStream } : {}),
    },
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: parseTrustProxy(config.trustProxy),
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    // Slow clients can't take forever to send a request (docs/security.md#h3); answers may stream long.
    requestTimeout: 60_000,
    return503OnClosing: true,
    routerOptions: {
      ignoreTrailingSlash: true,
      ignoreDuplicateSlashes: true,
      // Repository ids are up to 201 characters (owner/name, `%2F` encoded); Fastify's default
      // of 100 answered 414 to valid long names before their route ran.
      maxParamLength: 256,
    },
    // Router errors (bad percent-encoding, over-long parameters) get the one error body too.
    frameworkErrors: sendFrameworkError,
  }).withTypeProvider<ZodTypeProvider>();

  const clock = options.clock ?? systemClock;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);
  app.decorate('config', config);
  app.decorate('secretKey', secretKey);
  app.decorate('clock', clock);

  await app.register(errors, { clock });
  await app.register(metrics);
  await app.register(jsonBody);
  await app.register(access);
  await app.register(security, { config });
  await app.register(compress, { threshold: 1024 });
  const handle = options.database ?? openDatabase(config);
  await app.register(database, { handle, closeOnShutdown: options.database === undefined });
  const transport = options.mailer ?? createMailer(config, app.log, clock);
  // GitHub's pace is shared by every instance through Redis when there is one
  // (docs/architecture.md#github-pacing); the pacer counts in memory while it is unreachable.
  const paceRedis = config.redisUrl ? openRedis(config.redisUrl) : undefined;
  paceRedis?.on('error', (error) => app.log.debug({ err: error }, 'Redis for GitHub pacing unreachable'));
  app.addHook('onClose', async () => {
    paceRedis?.disconnect();
  });
  const github = createGitHubClient(config, {
    clock,
    timeoutMs: options.githubTimeoutMs,
    redis: paceRedis,
    pace: options.githubPace,
  });
  app.decorate(
    'services',
    buildServices({
      db: handle.db,
      dialect: handle.dialect,
      copyOut: handle.copyOut,
      clock,
      config,
      secretKey,
      github,
      mailer: transport,
      log: app.log,
      resolve: options.resolve,
      historyQuietMs: options.historyQuietMs,
    }),
  );
  await app.register(rateLimit, { config, clock });
  // Mail in flight finishes (within its deadline) before the transport the app opened closes.
  await app.register(jobs, { afterStop: options.mailer ? undefined : () => transport.close() });
  await app.register(auth);
  await app.register(openapi, { config, version: packageJson.version });

  await app.register(systemRoutes, {
    appName: config.appName,
    apiVersion: packageJson.version,
    badges: config.publicBadges,
    publicPages: config.publicPages,
    gitCommit: resolveGitCommit(config.gitCommit),
    startedAt: clock.now().getTime(),
    github,
    poolStats: () => handle.poolStats?.() ?? null,
  });
  // Every module's routes, from one list (each file declares who may call each route).
  for (const routes of MODULE_ROUTES) await app.register(routes);

  await app.register(webApp, { distDir: options.webDistDir });
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: AppConfig;
    /** Signs tokens and derives the encryption key for stored secrets. */
    secretKey: string;
    /** The app's time source (a test's fake clock when given). */
    clock: Clock;
    /** Every service, built once by the composition root (services.ts). */
    services: Services;
  }
}

/** `TRUST_PROXY` is a comma list of proxy addresses or CIDRs (or `true` to trust any hop). */
function parseTrustProxy(value: string | undefined): boolean | string[] {
  if (!value) return false;
  if (value === 'true') return true;
  return value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}
