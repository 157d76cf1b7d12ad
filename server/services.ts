import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { AppConfig } from './config.ts';
import type { Dialect } from './db/database.ts';
import type { Database } from './db/schema.ts';
import type { GitHubClient } from './github/github-client.ts';
import { JobQueue } from './jobs/job-queue.ts';
import type { Clock } from './lib/clock.ts';
import type { Resolver } from './lib/outbound-guard.ts';
import { SecretBox } from './lib/secret-box.ts';
import type { Mailer } from './mail/mailer.ts';
import { createQueuedMailer } from './mail/queued-mailer.ts';
import { ActivityService } from './modules/activity/activity.service.ts';
import { insertEvents } from './modules/activity/events.queries.ts';
import { AdminService } from './modules/admin/admin.service.ts';
import { AccountsService } from './modules/auth/accounts.service.ts';
import { AuthService } from './modules/auth/auth.service.ts';
import { TokenService } from './modules/auth/tokens.service.ts';
import { BackupService } from './modules/backups/backups.service.ts';
import { HistoryService } from './modules/history/history.service.ts';
import { registerHistoryJobs } from './modules/history/history-jobs.ts';
import { MeService } from './modules/me/me.service.ts';
import { registerNotificationJobs } from './modules/notifications/notification-jobs.ts';
import { NotificationsService } from './modules/notifications/notifications.service.ts';
import { ReleasesService } from './modules/releases/releases.service.ts';
import { BulkService } from './modules/catalogue/bulk.service.ts';
import { CatalogueService } from './modules/catalogue/catalogue.service.ts';
import { CatalogueQueryService } from './modules/catalogue-query/catalogue-query.service.ts';
import { registerImportJobs } from './modules/catalogue/import.jobs.ts';
import { RepositorySyncService } from './modules/sync/sync.service.ts';
import { registerSyncJobs } from './modules/sync/sync.jobs.ts';
import { VersionsService } from './modules/versions/versions.service.ts';
import { SavedViewsService } from './modules/views/views.service.ts';
import { registerSlackMessageJob } from './notifications/slack-jobs.ts';

export interface ServiceDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  clock: Clock;
  config: AppConfig;
  /** Signs access tokens and seals stored secrets (SECRET_KEY, or DATA_DIR/secret_key). */
  secretKey: string;
  /** One per process: its quota book, shared quota and concurrency limits serve every caller. */
  github: GitHubClient;
  /** The mail transport (SMTP, the outbox, or a test's); mail reaches it through the job queue. */
  mailer: Mailer;
  log: FastifyBaseLogger;
  /** DNS for webhook address checks; tests pass a fixed answer. */
  resolve?: Resolver;
  /** How long the star-history backfill waits after a member's GitHub call; tests shorten it. */
  historyQuietMs?: number;
}

export type Services = ReturnType<typeof buildServices>;

/**
 * The composition root (docs/architecture.md#composition-root): every service, built once from
 * explicit dependencies, for the app (`app.services`) and the command line alike. Building
 * touches neither the database nor the network; the job queue's worker runs only while the app
 * is up (plugins/jobs.ts), so the command line's services enqueue nothing it would send.
 */
export function buildServices(deps: ServiceDeps) {
  const { db, dialect, clock, config, github, log } = deps;
  const box = new SecretBox(deps.secretKey);
  const jobs = new JobQueue({
    db,
    dialect,
    clock,
    log: log.child({ component: 'jobs' }),
    pollMs: config.jobPollMs,
  });
  // Every mail goes through the job queue: answers never wait for the mail server.
  const mailer = createQueuedMailer(jobs, deps.mailer, box, { timeoutMs: config.smtpTimeoutMs });
  const tokens = new TokenService(db, deps.secretKey, clock);
  const accounts = new AccountsService({ db, clock, quota: github.sharedQuota });
  const auth = new AuthService({ db, tokens, accounts, mailer, clock, config, log });
  const me = new MeService({
    db,
    clock,
    box,
    accounts,
    // Removing a token ends the private visibility it proved, in the same transaction. The
    // catalogue reads members' tokens through `me`, so it is built after it.
    repositoryAccess: { revokeAll: (userId, trx) => catalogue.revokeAllAccess(userId, trx) },
    config,
    resolve: deps.resolve,
  });
  // Releases become versions inside the catalogue's writes; settings follow its visibility rule.
  const releases = new ReleasesService({
    db,
    clock,
    resolve: (viewer, fullName) => catalogue.resolve(viewer, fullName),
    recordEvents: insertEvents,
  });
  const catalogue = new CatalogueService({
    db,
    github,
    me,
    jobs,
    clock,
    config,
    log,
    // Each add starts the star-history backfill; `history` is built below, from the catalogue.
    history: { added: () => history.added() },
    releases,
  });
  registerImportJobs(jobs, catalogue);
  registerSlackMessageJob(jobs, {
    readWebhook: (userId) => me.readSlackWebhook(userId),
    allowedHosts: config.webhookAllowedHosts,
    timeoutMs: config.webhookTimeoutMs,
    resolve: deps.resolve,
  });
  const sync = new RepositorySyncService({
    db,
    github,
    catalogue,
    jobs,
    clock,
    schedule: config.syncSchedule,
    leaseMs: config.syncLeaseMs,
    releases,
  });
  registerSyncJobs(jobs, sync, log.child({ component: 'sync' }));
  const history = new HistoryService({
    db,
    github,
    catalogue,
    jobs,
    clock,
    automatic: config.historyBackfill,
    syncScheduled: config.syncSchedule.trim().toLowerCase() !== 'off',
    quietMs: deps.historyQuietMs,
    log: log.child({ component: 'history' }),
  });
  registerHistoryJobs(jobs, history, log.child({ component: 'history' }));
  // Rules, channels and deliveries; visibility at send time is the catalogue's own rule.
  const notifications = new NotificationsService({
    db,
    clock,
    box,
    config,
    jobs,
    mailer,
    accounts,
    me,
    catalogue,
    resolve: deps.resolve,
  });
  registerNotificationJobs(jobs, notifications, {
    webhookTimeoutMs: config.webhookTimeoutMs,
    log: log.child({ component: 'notifications' }),
  });
  return {
    jobs,
    mailer,
    tokens,
    accounts,
    auth,
    me,
    admin: new AdminService({ db, dialect, clock, accounts }),
    backups: new BackupService({ db, dialect, clock, dir: config.backupDir, log }),
    catalogue,
    catalogueQuery: new CatalogueQueryService({ db, clock }),
    sync,
    releases,
    history,
    notifications,
    versions: new VersionsService({ db, catalogue, clock }),
    savedViews: new SavedViewsService({ db, clock }),
    bulk: new BulkService({ db, catalogue, jobs, clock }),
    activity: new ActivityService({ db, catalogue, clock, config }),
  };
}
