import { Cron } from 'croner';
import { z } from 'zod';

/**
 * The environment (README.md#configuration), validated once at boot. Anything malformed stops the
 * process with one readable line per problem (see `formatConfigError`).
 */
const booleanish = z.enum(['open', 'closed']);

const urlWithProtocols = (protocols: string[], hint: string) =>
  z.string().refine((value) => {
    try {
      return protocols.includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, hint);

const commaList = z.string().transform((value) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean),
);

export const configSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('127.0.0.1'),
    APP_NAME: z.string().min(1).default('Repository Tracker'),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z
      .string()
      .optional()
      .refine(
        (value) => value === undefined || value === '' || isDatabaseUrl(value),
        'must be postgres://user@host:port/database (or postgresql://), or sqlite:/path/to/file.db',
      ),
    // PostgreSQL connections per instance, and how long a connection attempt and one statement
    // may take before the request fails (503) instead of hanging (docs/operations.md).
    DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(1000).default(10),
    DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5000),
    DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(86_400_000).default(30_000),
    SECRET_KEY: z.string().min(32, 'must be at least 32 characters (64 hex digits recommended)').optional(),
    PUBLIC_URL: urlWithProtocols(['http:', 'https:'], 'must be an http(s) URL').optional(),
    REGISTRATION: booleanish.default('open'),
    GITHUB_API_URL: urlWithProtocols(['http:', 'https:'], 'must be an http(s) URL').default(
      'https://api.github.com',
    ),
    GITHUB_GRAPHQL_URL: urlWithProtocols(['http:', 'https:'], 'must be an http(s) URL').optional(),
    GITHUB_TOKEN: z.string().min(1).optional(),
    GITHUB_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
    // The most repositories one GraphQL query carries; queries start at 25 and grow towards it
    // while GitHub answers fast (docs/architecture.md#graphql-batching).
    GITHUB_GRAPHQL_BATCH_MAX: z.coerce.number().int().min(1).max(100).default(60),
    SMTP_URL: urlWithProtocols(
      ['smtp:', 'smtps:'],
      'must be smtp://user:pass@host:port or smtps://…',
    ).optional(),
    MAIL_FROM: z.string().min(3).default('no-reply@localhost'),
    SMTP_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
    WEBHOOK_ALLOWED_HOSTS: commaList.default(['hooks.slack.com', 'discord.com']),
    WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
    JOB_POLL_MS: z.coerce.number().int().min(10).max(3_600_000).default(1000),
    TRUST_PROXY: z.string().optional(),
    CORS_ORIGINS: commaList.default([]),
    REDIS_URL: urlWithProtocols(['redis:', 'rediss:'], 'must be redis://host:port').optional(),
    BACKUP_DIR: z.string().min(1).optional(),
    // When automatic backups run (server local time); `off` disables them.
    BACKUP_SCHEDULE: schedule('0 3 * * *'),
    // How often the sync engine wakes to take due repositories (every minute); `off` disables it.
    SYNC_SCHEDULE: schedule('* * * * *'),
    // How often each repository is due for a refresh.
    SYNC_INTERVAL_HOURS: z.coerce
      .number()
      .min(0.01)
      .max(24 * 365)
      .default(24),
    // How long a sync run holds the repositories it took: a crashed instance's rows are taken
    // again after it. Longer than a run (45 s) with its slowest GitHub answers.
    SYNC_LEASE_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
    // Star history loaded from GitHub in the background: on add and once for every repository
    // (`off`: only when a member presses "Backfill history").
    HISTORY_BACKFILL: z.enum(['on', 'off']).default('on'),
    // Days without a commit after which a repository is reported stale in the activity feed.
    STALE_AFTER_DAYS: z.coerce.number().int().min(1).max(3650).default(180),
    // The pace kept per GitHub token, below GitHub's secondary limits (900 REST points and
    // 2,000 GraphQL points a minute, 100 concurrent requests) with a margin.
    GITHUB_REST_PER_MINUTE: z.coerce.number().int().min(1).max(900).default(800),
    GITHUB_GRAPHQL_POINTS_PER_MINUTE: z.coerce.number().int().min(1).max(2000).default(1800),
    GITHUB_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(10),
    // Milliseconds per second of GitHub's `retry-after` (a secondary limit pauses the token that
    // long; 60 s without one). 1000 in production; tests shorten GitHub's minute with it.
    GITHUB_RETRY_AFTER_UNIT_MS: z.coerce.number().int().min(1).max(1000).default(1000),
    // How long an interactive call (add, sync) waits for its turn before answering "queued".
    GITHUB_INTERACTIVE_WAIT_MS: z.coerce.number().int().min(10).max(600_000).default(20_000),
    // Bearer token a Prometheus scraper sends to GET /metrics (admins' own tokens work too).
    METRICS_TOKEN: z
      .string()
      .min(32, 'must be at least 32 characters (e.g. openssl rand -hex 32)')
      .optional(),
    // When the notification dispatcher looks for new events to send (every minute); `off` stops
    // dispatching and digests (tests call them directly).
    NOTIFICATION_SCHEDULE: schedule('* * * * *'),
    // The hour (server local time) daily digests go out, and weekly ones on Mondays.
    DIGEST_HOUR: z.coerce.number().int().min(0).max(23).default(8),
    // Who records team decisions: any member who may see the repository (`members`), or admins,
    // members proposing and voting (`admins`) (docs/product.md#team-decisions).
    DECISIONS_BY: z.enum(['members', 'admins']).default('members'),
    // Status badges of public repositories for READMEs, `GET /badge/{owner}/{name}/{kind}.svg`
    // (`off`: every badge answers 404) (docs/product.md#badges).
    PUBLIC_BADGES: z.enum(['on', 'off']).default('off'),
    // Public read-only pages of published views and radar editions, `/p/{slug}` (`off`: every
    // public page answers 404 and nothing can be published); `PUBLIC_PAGES_INDEX=on` lets search
    // engines index them (docs/product.md#public-pages).
    PUBLIC_PAGES: z.enum(['on', 'off']).default('off'),
    PUBLIC_PAGES_INDEX: z.enum(['on', 'off']).default('off'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    // `pretty` (coloured text lines) or `json` (one object a line); unset: pretty when standard
    // output is a terminal, JSON otherwise (server/lib/log-format.ts).
    LOG_FORMAT: z.enum(['pretty', 'json']).optional(),
    GIT_COMMIT: z.string().min(1).optional(),
    // Single sign-on with an OpenID Connect provider (docs/operations.md#single-sign-on-oidc):
    // on when the issuer and the client id are set; the secret is left out for a public client.
    OIDC_ISSUER_URL: urlWithProtocols(
      ['http:', 'https:'],
      'must be an https URL (http only on loopback)',
    ).optional(),
    OIDC_CLIENT_ID: z.string().min(1).max(255).optional(),
    OIDC_CLIENT_SECRET: z.string().min(1).max(1000).optional(),
    OIDC_SCOPES: z
      .string()
      .default('openid email profile')
      .refine(
        (value) => value.split(/\s+/).includes('openid'),
        'must include openid (e.g. "openid email profile")',
      ),
    OIDC_BUTTON_TEXT: z
      .string()
      .trim()
      .min(1)
      .max(60, 'must be at most 60 characters')
      .default('Sign in with SSO'),
    OIDC_GROUPS_CLAIM: z.string().trim().min(1).max(100).default('groups'),
    // Unset: single sign-on leaves the admin flag alone; set: it follows these groups at every sign-in.
    OIDC_ADMIN_GROUPS: commaList.optional(),
    OIDC_AUTO_REDIRECT: z.enum(['on', 'off']).default('off'),
    OIDC_CREATE_ACCOUNTS: z.enum(['on', 'off']).default('on'),
    // How long discovery and each call to the provider may take before the sign-in fails.
    OIDC_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
    // `off`: no password sign-in, registration or reset (single sign-on only).
    PASSWORD_LOGIN: z.enum(['on', 'off']).default('on'),
  })
  .superRefine((env, context) => {
    const problem = (path: string, message: string) =>
      context.addIssue({ code: 'custom', path: [path], message });
    if (env.OIDC_ISSUER_URL && !env.OIDC_CLIENT_ID)
      problem('OIDC_CLIENT_ID', 'is required with OIDC_ISSUER_URL');
    if (env.OIDC_CLIENT_ID && !env.OIDC_ISSUER_URL)
      problem('OIDC_ISSUER_URL', 'is required with OIDC_CLIENT_ID');
    if (env.OIDC_CLIENT_SECRET && !env.OIDC_ISSUER_URL) {
      problem('OIDC_ISSUER_URL', 'is required with OIDC_CLIENT_SECRET');
    }
    if (env.OIDC_ISSUER_URL && !isAllowedIssuer(env.OIDC_ISSUER_URL)) {
      problem(
        'OIDC_ISSUER_URL',
        'must be an https URL: http is accepted only on loopback (127.0.0.1, ::1, localhost)',
      );
    }
    const oidc = Boolean(env.OIDC_ISSUER_URL && env.OIDC_CLIENT_ID);
    if (env.PASSWORD_LOGIN === 'off' && !oidc) {
      problem(
        'PASSWORD_LOGIN',
        'can be off only with single sign-on configured (OIDC_ISSUER_URL and OIDC_CLIENT_ID)',
      );
    }
    if (env.OIDC_AUTO_REDIRECT === 'on' && !oidc) {
      problem('OIDC_AUTO_REDIRECT', 'needs single sign-on configured (OIDC_ISSUER_URL and OIDC_CLIENT_ID)');
    }
  })
  .transform((env) => {
    const githubApiUrl = env.GITHUB_API_URL.replace(/\/+$/, '');
    return {
      port: env.PORT,
      host: env.HOST,
      appName: env.APP_NAME,
      dataDir: env.DATA_DIR,
      databaseUrl: env.DATABASE_URL || undefined,
      databasePoolMax: env.DATABASE_POOL_MAX,
      databaseConnectTimeoutMs: env.DATABASE_CONNECT_TIMEOUT_MS,
      databaseStatementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
      secretKey: env.SECRET_KEY,
      publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
      registration: env.REGISTRATION,
      githubApiUrl,
      githubGraphqlUrl: env.GITHUB_GRAPHQL_URL ?? deriveGraphqlUrl(githubApiUrl),
      githubToken: env.GITHUB_TOKEN,
      githubTimeoutMs: env.GITHUB_TIMEOUT_MS,
      githubGraphqlBatchMax: env.GITHUB_GRAPHQL_BATCH_MAX,
      smtpUrl: env.SMTP_URL,
      mailFrom: env.MAIL_FROM,
      smtpTimeoutMs: env.SMTP_TIMEOUT_MS,
      webhookAllowedHosts: env.WEBHOOK_ALLOWED_HOSTS,
      webhookTimeoutMs: env.WEBHOOK_TIMEOUT_MS,
      jobPollMs: env.JOB_POLL_MS,
      trustProxy: env.TRUST_PROXY,
      corsOrigins: env.CORS_ORIGINS,
      redisUrl: env.REDIS_URL,
      backupDir: env.BACKUP_DIR ?? `${env.DATA_DIR.replace(/\/+$/, '')}/backups`,
      backupSchedule: env.BACKUP_SCHEDULE,
      syncSchedule: env.SYNC_SCHEDULE,
      syncIntervalHours: env.SYNC_INTERVAL_HOURS,
      syncLeaseMs: env.SYNC_LEASE_SECONDS * 1000,
      historyBackfill: env.HISTORY_BACKFILL === 'on',
      staleAfterDays: env.STALE_AFTER_DAYS,
      githubPace: {
        restPerMinute: env.GITHUB_REST_PER_MINUTE,
        graphqlPointsPerMinute: env.GITHUB_GRAPHQL_POINTS_PER_MINUTE,
        concurrency: env.GITHUB_CONCURRENCY,
        retryAfterUnitMs: env.GITHUB_RETRY_AFTER_UNIT_MS,
        interactiveWaitMs: env.GITHUB_INTERACTIVE_WAIT_MS,
      },
      metricsToken: env.METRICS_TOKEN,
      notificationSchedule: env.NOTIFICATION_SCHEDULE,
      digestHour: env.DIGEST_HOUR,
      decisionsBy: env.DECISIONS_BY,
      publicBadges: env.PUBLIC_BADGES === 'on',
      publicPages: env.PUBLIC_PAGES === 'on',
      publicPagesIndex: env.PUBLIC_PAGES_INDEX === 'on',
      logLevel: env.LOG_LEVEL,
      logFormat: env.LOG_FORMAT,
      gitCommit: env.GIT_COMMIT,
      passwordLogin: env.PASSWORD_LOGIN === 'on',
      oidc:
        env.OIDC_ISSUER_URL && env.OIDC_CLIENT_ID
          ? {
              issuerUrl: env.OIDC_ISSUER_URL,
              clientId: env.OIDC_CLIENT_ID,
              clientSecret: env.OIDC_CLIENT_SECRET,
              scopes: env.OIDC_SCOPES.trim().split(/\s+/).join(' '),
              groupsClaim: env.OIDC_GROUPS_CLAIM,
              /** Null: the admin flag is left alone; a list: it follows these groups. */
              adminGroups:
                env.OIDC_ADMIN_GROUPS && env.OIDC_ADMIN_GROUPS.length > 0 ? env.OIDC_ADMIN_GROUPS : null,
              createAccounts: env.OIDC_CREATE_ACCOUNTS === 'on',
              timeoutMs: env.OIDC_TIMEOUT_MS,
              /** openid-client refuses http unless told: told only for a loopback issuer. */
              allowInsecure: new URL(env.OIDC_ISSUER_URL).protocol === 'http:',
            }
          : null,
      oidcButtonText: env.OIDC_BUTTON_TEXT,
      oidcAutoRedirect: env.OIDC_AUTO_REDIRECT === 'on',
    };
  });

export type AppConfig = z.output<typeof configSchema>;
type ConfigInput = z.input<typeof configSchema>;

/**
 * A cron pattern, or `off`: the one place `off` is read. The value is the trimmed pattern, or
 * null when the schedule is off (docs/architecture.md#background-work).
 */
function schedule(fallback: string) {
  return z
    .string()
    .min(1)
    .default(fallback)
    .refine(
      (value) => value.trim().toLowerCase() === 'off' || isCronPattern(value),
      `must be a cron pattern (e.g. "${fallback}") or off`,
    )
    .transform((value): string | null => (value.trim().toLowerCase() === 'off' ? null : value.trim()));
}

function isCronPattern(value: string): boolean {
  try {
    new Cron(value.trim(), { paused: true }).stop();
    return true;
  } catch {
    return false;
  }
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** An https issuer, or an http one on loopback (a provider on the same machine, or a test's). */
function isAllowedIssuer(value: string): boolean {
  try {
    const url = new URL(value);
    if (url.protocol === 'https:') return true;
    return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
  } catch {
    return false;
  }
}

function isDatabaseUrl(value: string): boolean {
  if (value.startsWith('sqlite:')) return value.length > 'sqlite:'.length;
  try {
    const url = new URL(value);
    return (url.protocol === 'postgres:' || url.protocol === 'postgresql:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * GitHub Enterprise serves GraphQL at /api/graphql next to REST's /api/v3
 * (docs/architecture.md#renames-deletions-and-endpoints).
 */
function deriveGraphqlUrl(apiUrl: string): string {
  if (apiUrl.endsWith('/api/v3')) return `${apiUrl.slice(0, -'/api/v3'.length)}/api/graphql`;
  return `${apiUrl}/graphql`;
}

export class ConfigError extends Error {}

/** Validates an environment; throws ConfigError whose message names each bad variable. */
export function loadConfig(
  env: Record<string, string | undefined>,
  overrides: Partial<ConfigInput> = {},
): AppConfig {
  const input = Object.fromEntries(
    Object.entries({ ...pickKnown(env), ...overrides }).filter(
      ([, value]) => value !== undefined && value !== '',
    ),
  );
  const parsed = configSchema.safeParse(input);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || 'config'} ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  return parsed.data;
}

function pickKnown(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const keys = Object.keys(configSchema.in.shape);
  return Object.fromEntries(keys.map((key) => [key, env[key]]));
}
