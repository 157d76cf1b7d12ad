import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { ChangeBus } from './changes/catalogue-changes.ts';
import type { AppConfig } from './config.ts';
import type { CopyOut, Dialect } from './db/database.ts';
import type { Database } from './db/schema.ts';
import type { GitHubClient } from './github/github-client.ts';
import { JobQueue } from './jobs/job-queue.ts';
import { JobRegistry } from './jobs/job-registry.ts';
import type { Clock } from './lib/clock.ts';
import type { Resolver } from './lib/outbound-guard.ts';
import { SecretBox } from './lib/secret-box.ts';
import { ActivityService } from './modules/activity/activity.service.ts';
import { ActivityRecorder } from './modules/activity/activity-recorder.service.ts';
import { AdminService } from './modules/admin/admin.service.ts';
import { advisoryJobs } from './modules/advisories/advisories.jobs.ts';
import { AdvisoriesService } from './modules/advisories/advisories.service.ts';
import { ApiTokensService } from './modules/api-tokens/api-tokens.service.ts';
import { AccountsService } from './modules/auth/accounts.service.ts';
import { AuthService } from './modules/auth/auth.service.ts';
import { TokenService } from './modules/auth/tokens.service.ts';
import { backupJobs } from './modules/backups/backups.jobs.ts';
import { BackupService } from './modules/backups/backups.service.ts';
import { BadgesService } from './modules/badges/badges.service.ts';
import { RepositoryAdder } from './modules/catalogue/add-repository.service.ts';
import { BulkService } from './modules/catalogue/bulk.service.ts';
import { catalogueJobs } from './modules/catalogue/catalogue.jobs.ts';
import { CatalogueService } from './modules/catalogue/catalogue.service.ts';
import { CatalogueQueryService } from './modules/catalogue-query/catalogue-query.service.ts';
import { decisionJobs } from './modules/decisions/decisions.jobs.ts';
import { DecisionsService } from './modules/decisions/decisions.service.ts';
import { DiscussionService } from './modules/discussion/discussion.service.ts';
import { historyJobs } from './modules/history/history.jobs.ts';
import { HistoryService } from './modules/history/history.service.ts';
import { MeService } from './modules/me/me.service.ts';
import type { Mailer } from './modules/messages/mail-transport.ts';
import { messageJobs } from './modules/messages/messages.jobs.ts';
import { MessagesService } from './modules/messages/messages.service.ts';
import { NotificationDeliveryService } from './modules/notifications/notification-delivery.service.ts';
import { NotificationSettingsService } from './modules/notifications/notification-settings.service.ts';
import { notificationJobs } from './modules/notifications/notifications.jobs.ts';
import { OidcService } from './modules/oidc/oidc.service.ts';
import { PublicPagesService } from './modules/public-pages/public-pages.service.ts';
import { AtRiskService } from './modules/radar/at-risk.service.ts';
import { radarJobs } from './modules/radar/radar.jobs.ts';
import { RadarService } from './modules/radar/radar.service.ts';
import { ReleasesService } from './modules/releases/releases.service.ts';
import { isFinished } from './modules/repository-health/health.queries.ts';
import { healthJobs } from './modules/repository-health/repository-health.jobs.ts';
import { RepositoryHealthService } from './modules/repository-health/repository-health.service.ts';
import { GitHubDataWriter } from './modules/sync/github-data-writer.service.ts';
import { syncJobs } from './modules/sync/sync.jobs.ts';
import { RepositorySyncService } from './modules/sync/sync.service.ts';
import { SyncEngine } from './modules/sync/sync-engine.service.ts';
import { VersionsService } from './modules/versions/versions.service.ts';
import { SavedViewsService } from './modules/views/views.service.ts';

export interface ServiceDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  /** PostgreSQL: reads a `COPY … TO STDOUT` (`DatabaseHandle.copyOut`; the CSV export). */
  copyOut?: CopyOut;
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

  // ---- background work and the catalogue bus ----------------------------------------------
  const jobs = new JobQueue({
    db,
    dialect,
    clock,
    log: log.child({ component: 'jobs' }),
    pollMs: config.jobPollMs,
  });
  const registry = new JobRegistry({ queue: jobs, db, clock, log: log.child({ component: 'jobs' }) });
  const changes = new ChangeBus(log.child({ component: 'changes' }));

  // ---- accounts and messages --------------------------------------------------------------
  const tokens = new TokenService(db, deps.secretKey, clock);
  const accounts = new AccountsService({ db, clock, quota: github.sharedQuota });
  const me = new MeService({ db, clock, box, accounts, config, resolve: deps.resolve, log });
  const apiTokens = new ApiTokensService({ db, clock });
  // Every outgoing message (mail, the add-time Slack message, notification deliveries) leaves
  // from the job queue: answers never wait for a mail server or a webhook.
  const messages = new MessagesService({
    jobs,
    transport: deps.mailer,
    box,
    config,
    readSlackWebhook: (userId) => me.readSlackWebhook(userId),
    resolve: deps.resolve,
  });
  const activity = new ActivityService({ db, clock, config });
  const auth = new AuthService({
    db,
    tokens,
    accounts,
    mailer: messages.mailer,
    clock,
    config,
    log,
    outbox: { messages, jobs },
    feedTokens: activity,
    // Sign-out of a session that came from single sign-on answers the provider's end-session URL.
    signOut: { endSessionUrl: (familyId) => oidc.endSessionUrl(familyId) },
  });
  const admin = new AdminService({
    db,
    dialect,
    clock,
    accounts,
    apiTokens,
    adminFollowsGroups: (config.oidc?.adminGroups ?? null) !== null,
  });
  const oidc = new OidcService({ db, clock, config, box, tokens, accounts, admin, log });

  // ---- the catalogue: reading, writing, refreshing ----------------------------------------
  const discussion = new DiscussionService({ db, clock });
  const versions = new VersionsService({ db, clock });
  const activityRecorder = new ActivityRecorder({
    clock,
    staleAfterDays: config.staleAfterDays,
    isFinished: (trx, repositoryId) => isFinished(trx, repositoryId),
  });
  const releases = new ReleasesService({
    db,
    clock,
    changes,
    recordEvents: (trx, events, now) => activityRecorder.record(trx, events, now),
  });
  const catalogueQuery = new CatalogueQueryService({
    db,
    dialect,
    copyOut: deps.copyOut,
    clock,
    details: {
      commentsOf: (id) => discussion.commentsOf(id),
      versionsOf: (id) => versions.versionsOf(id),
      tracking: (id) => releases.tracking(id),
    },
  });
  const writer = new GitHubDataWriter({
    db,
    github,
    me,
    jobs,
    clock,
    changes,
    syncIntervalHours: config.syncIntervalHours,
  });
  const engine = new SyncEngine({
    db,
    github,
    writer,
    me,
    jobs,
    clock,
    leaseMs: config.syncLeaseMs,
    releases,
  });
  const advisories = new AdvisoriesService({
    db,
    github,
    clock,
    recordEvents: (trx, events, now) => activityRecorder.record(trx, events, now),
  });
  const health = new RepositoryHealthService({
    db,
    github,
    me,
    clock,
    recordEvents: (trx, events, now) => activityRecorder.record(trx, events, now),
    afterReads: (reads, token) => advisories.afterHealthReads(reads, token),
  });
  const atRisk = new AtRiskService({
    db,
    clock,
    openSevere: (trx, ids) => advisories.openSevere(trx, ids),
    recordEvents: (trx, events, now) => activityRecorder.record(trx, events, now),
  });
  const decisions = new DecisionsService({
    db,
    clock,
    decisionsBy: config.decisionsBy,
    // A decision's move is checked for adopted-but-at-risk in its own transaction.
    recordEvents: async (trx, events, now) => {
      await activityRecorder.record(trx, events, now);
      await atRisk.afterDecisionEvents(trx, events);
    },
  });
  const radar = new RadarService({ db, clock, decisions, atRisk });
  const sync = new RepositorySyncService({
    db,
    github,
    writer,
    engine,
    me,
    catalogueQuery,
    clock,
    schedule: config.syncSchedule,
    registry,
    refreshHealth: (repositoryId, token) => health.refreshOne(repositoryId, token),
  });
  const adder = new RepositoryAdder({ db, github, jobs, clock, changes, writer, log });
  const catalogue = new CatalogueService({
    db,
    github,
    adder,
    me,
    catalogueQuery,
    changes,
    jobs,
    clock,
    config,
  });
  const history = new HistoryService({
    db,
    github,
    me,
    jobs,
    clock,
    automatic: config.historyBackfill,
    syncScheduled: config.syncSchedule !== null,
    quietMs: deps.historyQuietMs,
    log: log.child({ component: 'history' }),
  });

  // ---- who listens to catalogue changes (docs/architecture.md#catalogue-changes) -----------
  // Inside the change's transaction, in this order:
  changes.on('repository.added', (change, trx) => writer.countWhenPending(change, trx));
  changes.on('repository.added', (change, trx) => history.recordDay(change, trx));
  changes.on('repository.added', (change, trx) => releases.added(change, trx));
  changes.on('repository.added', (change, trx) => activityRecorder.added(change, trx));
  changes.on('repository.added', (change, trx) => health.added(change, trx));
  changes.on('repository.synced', (change, trx) => history.recordDay(change, trx));
  changes.on('repository.synced', (change, trx) => releases.synced(change, trx));
  changes.on('repository.synced', (change, trx) => activityRecorder.synced(change, trx));
  changes.on('repository.synced', (change, trx) => advisories.synced(change, trx));
  changes.on('repository.synced', (change, trx) => health.synced(change, trx));
  changes.on('repository.synced', (change, trx) => atRisk.synced(change, trx));
  // After the commit:
  changes.afterCommit('repository.added', () => history.added());

  // ---- notifications ------------------------------------------------------------------------
  // Channels and rules as members set them; the engine that matches events and delivers
  // (visibility at send time is the access policy's), sending through the messages pipeline.
  const notificationSettings = new NotificationSettingsService({
    db,
    clock,
    box,
    config,
    messages,
    accounts,
  });
  const notificationDelivery = new NotificationDeliveryService({
    db,
    clock,
    box,
    config,
    messages,
    accounts,
  });

  const backups = new BackupService({ db, dialect, clock, dir: config.backupDir, log });

  // ---- every module's background work, registered once -------------------------------------
  registry.add(
    ...messageJobs({
      senders: messages,
      deliverToChannel: (deliveryId, context) => notificationDelivery.deliver(deliveryId, context),
      smtpTimeoutMs: config.smtpTimeoutMs,
      webhookTimeoutMs: config.webhookTimeoutMs,
    }),
    ...notificationJobs({
      delivery: notificationDelivery,
      clock,
      schedule: config.notificationSchedule,
      digestHour: config.digestHour,
      log: log.child({ component: 'notifications' }),
    }),
    ...syncJobs({
      sync,
      writer,
      owner: jobs.owner,
      clock,
      schedule: config.syncSchedule,
      log: log.child({ component: 'sync' }),
    }),
    ...historyJobs({
      history,
      owner: jobs.owner,
      clock,
      schedule: config.syncSchedule,
      log: log.child({ component: 'history' }),
    }),
    ...healthJobs({
      health,
      clock,
      schedule: config.syncSchedule,
      log: log.child({ component: 'health' }),
    }),
    ...advisoryJobs({
      advisories,
      clock,
      schedule: config.syncSchedule,
      log: log.child({ component: 'advisories' }),
    }),
    ...decisionJobs({
      decisions,
      clock,
      schedule: config.syncSchedule,
      log: log.child({ component: 'decisions' }),
    }),
    ...radarJobs({ atRisk, schedule: config.syncSchedule, log: log.child({ component: 'radar' }) }),
    ...catalogueJobs({ catalogue, clock }),
    ...backupJobs({ backups, schedule: config.backupSchedule, log: log.child({ component: 'backups' }) }),
  );

  const savedViews = new SavedViewsService({ db, clock });
  return {
    jobs,
    registry,
    changes,
    messages,
    tokens,
    accounts,
    auth,
    me,
    apiTokens,
    admin,
    oidc,
    backups,
    catalogue,
    catalogueQuery,
    sync,
    releases,
    history,
    health,
    advisories,
    decisions,
    radar,
    atRisk,
    discussion,
    versions,
    notificationSettings,
    notificationDelivery,
    savedViews,
    bulk: new BulkService({ db, catalogue, decisions, jobs, clock }),
    activity,
    badges: new BadgesService({ db, enabled: config.publicBadges, editionsPublished: config.publicPages }),
    publicPages: new PublicPagesService({ db, clock, config, catalogueQuery, savedViews, activity }),
  };
}
