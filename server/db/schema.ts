import type { ColumnType, Generated, Selectable } from 'kysely';
import type { EventType } from '#shared/schemas/activity.ts';
import type { AdvisorySeverity } from '#shared/schemas/advisories.ts';
import type { HealthGrade } from '#shared/schemas/health.ts';
import type { ApiTokenTables } from './schema-api-tokens.ts';
import type { DecisionTables, RepositoryDecisionColumns } from './schema-decisions.ts';
import type {
  Flag,
  RepositoryAdvisoriesTable,
  RepositoryAdvisoryReadsTable,
  RepositoryHealthTable,
  RepositoryPackagesTable,
} from './schema-health.ts';
import type { OidcTables } from './schema-oidc.ts';
import type { PublicPageTables, SavedViewTables } from './schema-public-pages.ts';
import type { RadarTables } from './schema-radar.ts';

/** Table types for Kysely. Timestamps are ISO-8601 UTC strings on both dialects (rows and backups alike). */
export interface JobLeasesTable {
  name: string;
  holder: string;
  expires_at: string;
}

/** pending: waiting or running under a lease; succeeded and failed are final outcomes. */
export type JobStatus = 'pending' | 'succeeded' | 'failed';

/** The durable job queue (server/jobs/job-queue.ts). */
export interface JobsTable {
  id: Generated<number>;
  kind: string;
  payload: string;
  status: Generated<JobStatus>;
  run_at: string;
  attempts: Generated<number>;
  max_attempts: number;
  lease_owner: string | null;
  lease_until: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

export interface AuditLogTable {
  id: Generated<number>;
  actor_id: number | null;
  action: string;
  target: string | null;
  detail: string | null;
  created_at: string;
}

export type { Flag }; // Flags are stored as 0/1 on both databases.

export interface UsersTable {
  id: Generated<number>;
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  password_hash: string;
  is_active: Flag;
  is_verified: Flag;
  is_admin: Flag;
  token_version: Generated<number>;
  created_at: string;
  updated_at: string;
  last_login_at: string | null;
  github_token_enc: string | null;
  github_token_last_four: string | null;
  github_token_set_at: string | null;
  slack_webhook_enc: string | null;
  slack_webhook_set_at: string | null;
  password_set: Generated<Flag>; // 0: made by single sign-on, no password known (docs/product.md)
}

/** A `users` row as read: the auth, me and admin modules all work on it. */
export type UserRow = Selectable<UsersTable>;

/** At most one row (id 1): the first-admin path of sign-up has been taken. */
export interface InstanceBootstrapTable {
  id: number;
  user_id: number | null;
  claimed_at: string;
}

export interface RefreshTokensTable {
  id: Generated<number>;
  user_id: number;
  family_id: string;
  token_hash: string;
  remember_me: Flag;
  expires_at: string;
  created_at: string;
  used_at: string | null;
  revoked_at: string | null;
}

export type EmailTokenPurpose = 'verify' | 'reset';

export interface EmailTokensTable {
  id: Generated<number>;
  user_id: number;
  purpose: EmailTokenPurpose;
  token_hash: string;
  expires_at: string;
  created_at: string;
  used_at: string | null;
}

export interface RepositoriesTable extends RepositoryDecisionColumns {
  id: Generated<number>;
  full_name: string;
  github_id: number;
  user_id: number | null;
  name: string;
  description: string | null;
  url: string;
  license: string;
  topics: string;
  tags: string;
  notes: string;
  stars: number;
  forks: number;
  issues: number;
  commits: number;
  contributors: number;
  contributors_capped: Flag;
  /** 1 while the sync engine has yet to count contributors: the API answers `null`. */
  contributors_pending: ColumnType<Flag, Flag | undefined, Flag>;
  language: string | null;
  archived: Flag;
  private: Flag;
  gone: Flag;
  default_branch: string | null;
  last_commit: string | null;
  last_synced: string | null;
  etags: string;
  created_at: string;
  updated_at: string;
  /**
   * Stars gained in the last 7 and 30 days by the stored daily history (null: no stored day
   * old enough), recomputed whenever metrics are written (server/modules/history/growth.queries.ts).
   */
  stars_7d: ColumnType<number | null, number | null | undefined, number | null>;
  stars_30d: ColumnType<number | null, number | null | undefined, number | null>;
  /** The health score and grade (`repository_health`), kept here for the list's sort and filter. */
  health_score: ColumnType<number | null, number | null | undefined, number | null>;
  health_grade: ColumnType<HealthGrade | null, HealthGrade | null | undefined, HealthGrade | null>;
  /** Open advisories by severity (`repository_advisories`), kept here for the list, and the highest's rank. */
  advisories_critical: ColumnType<number, number | undefined, number>;
  advisories_high: ColumnType<number, number | undefined, number>;
  advisories_medium: ColumnType<number, number | undefined, number>;
  advisories_low: ColumnType<number, number | undefined, number>;
  advisories_unknown: ColumnType<number, number | undefined, number>;
  advisory_level: ColumnType<number, number | undefined, number>;
  /** How many comments and versions it has, kept by the database's triggers (migration 2026-11-28-0800). */
  comment_count: ColumnType<number, never, never>;
  version_count: ColumnType<number, never, never>;
}

/** The sync engine's schedule, one row per repository (derived: not backed up). */
export interface RepositorySyncStateTable {
  repository_id: number;
  due_at: string;
  leased_until: string | null;
  lease_owner: string | null;
  last_result: 'ok' | 'not_modified' | 'renamed' | 'gone' | 'failed' | null;
  last_error: string | null;
  last_attempt_at: string | null;
  failures: number;
}

/** The recent commits a sync stored, as JSON (none stored: no row); only the detail screen reads them. */
export interface RepositoryCommitsTable {
  repository_id: number;
  commits: string;
}

export interface RepositoryAliasesTable {
  full_name_lower: string;
  repository_id: number;
}

/** How many repositories are public (0) and private (1): kept by triggers on `repositories`. */
export interface RepositoryTotalsTable {
  private: number;
  total: number;
}

export interface RepositoryAccessTable {
  repository_id: number;
  user_id: number;
  granted_at: string;
}

export interface CommentsTable {
  id: Generated<number>;
  repository_id: number;
  user_id: number | null;
  author: string;
  comment: string;
  created_at: string;
}

export interface VersionsTable {
  id: Generated<number>;
  repository_id: number;
  user_id: number | null;
  version_number: string;
  release_date: string | null;
  description: string | null;
  snapshot: string;
  created_at: string;
  /** 'manual' (a member recorded it) or 'release' (made from a GitHub release or tag). */
  source: ColumnType<'manual' | 'release', 'manual' | 'release' | undefined, 'manual' | 'release'>;
  release_url: ColumnType<string | null, string | null | undefined, string | null>;
}

/**
 * One row per repository and day: the app's own (every column) or rebuilt from GitHub's star
 * history (stars only; the other metrics null, so `forks` null marks a backfilled row).
 */
export interface RepositoryMetricsTable {
  repository_id: number;
  day: string;
  stars: number;
  forks: number | null;
  issues: number | null;
  commits: number | null;
  contributors: number | null;
  /** The health score that day (docs/health.md); null before it was assessed, and on star-history rows. */
  health_score: ColumnType<number | null, number | null | undefined, number | null>;
}

/** Star-history backfill per repository (docs/product.md#star-history); no row: never backfilled. */
export interface RepositoryHistoryTable {
  repository_id: number;
  status: 'pending' | 'done' | 'unavailable' | 'failed';
  due_at: string | null;
  leased_until: string | null;
  lease_owner: string | null;
  requested_by: number | null;
  requested_at: string | null;
  backfilled_at: string | null;
  failures: Generated<number>;
  message: string | null;
  updated_at: string;
}

/**
 * Derived tables (docs/product.md#catalogue-queries): rebuilt from `repositories`, never backed
 * up. Tags and topics: one row per entry, keyed by the lower-cased spelling.
 */
export interface RepositoryTagsTable {
  repository_id: number;
  tag: string;
  tag_lower: string;
}

export interface RepositoryTopicsTable {
  repository_id: number;
  topic: string;
  topic_lower: string;
}

/**
 * The lower-cased search document of each repository. This is PostgreSQL's shape; on SQLite it
 * is an FTS5 table whose rowid is the repository id, so it is only written and read through
 * server/repository/repository-labels.ts and modules/catalogue-query/catalogue-query.queries.ts.
 */
export interface RepositorySearchTable {
  repository_id: number;
  document: string;
}

/** What changed, per repository (docs/product.md#activity); `data` is the type's JSON details. */
export interface RepositoryEventsTable {
  id: Generated<number>;
  repository_id: number;
  type: EventType;
  occurred_at: string;
  user_id: number | null;
  data: string;
  created_at: string;
}

/** The Atom feed's token per member (docs/product.md#activity-feed), stored as its SHA-256 only. */
export interface FeedTokensTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  created_at: string;
  last_used_at: string | null;
}

/** A member's notification channel (docs/product.md#notification-rules); the URL sealed. */
export interface NotificationChannelsTable {
  id: Generated<number>;
  user_id: number;
  kind: 'slack' | 'webhook' | 'discord' | 'email';
  name: string;
  url_enc: string | null;
  url_hint: string | null;
  enabled: Flag;
  failures: number;
  last_error: string | null;
  disabled_reason: string | null;
  disabled_at: string | null;
  last_sent_at: string | null;
  created_at: string;
  updated_at: string;
}

/** Which events go to which channel, and when; `event_types` and `tags` JSON arrays or null (all). */
export interface NotificationRulesTable {
  id: Generated<number>;
  user_id: number;
  channel_id: number;
  event_types: string | null;
  tags: string | null;
  cadence: 'instant' | 'daily' | 'weekly';
  /** The least severe advisory_published event the rule sends. */
  min_severity: ColumnType<AdvisorySeverity, AdvisorySeverity | undefined, AdvisorySeverity>;
  enabled: Flag;
  created_at: string;
  updated_at: string;
}

/** Events a digest rule matched, waiting for its next message. */
export interface NotificationDigestItemsTable {
  rule_id: number;
  event_id: number;
  created_at: string;
}

/** Every notification message sent or tried, with its outcome; `event_ids` a JSON array. */
export interface NotificationDeliveriesTable {
  id: Generated<number>;
  user_id: number;
  channel_id: number | null;
  rule_id: number | null;
  kind: 'instant' | 'daily' | 'weekly' | 'test';
  event_ids: string;
  event_count: number;
  summary: string;
  status: 'pending' | 'sent' | 'failed' | 'skipped';
  attempts: number;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  sent_at: string | null;
}

/** How far the notification dispatcher has read `repository_events`. */
export interface NotificationCursorsTable {
  name: string;
  event_id: number;
  updated_at: string;
}

/** Per repository: release tracking settings and what the sync engine learnt (docs/product.md#releases). */
export interface RepositoryReleaseTrackingTable {
  repository_id: number;
  include_prereleases: Flag;
  tag_pattern: string;
  follows: 'releases' | 'tags' | null;
  checked_at: string | null;
  updated_at: string;
}

/** Each published GitHub release (or tag) seen for a repository, and the version it became. */
export interface RepositoryReleasesTable {
  id: Generated<number>;
  repository_id: number;
  kind: 'release' | 'tag';
  tag: string;
  name: string | null;
  published_at: string | null;
  prerelease: Flag;
  url: string | null;
  version_id: number | null;
  seen_at: string;
  deleted_at: string | null;
}

/** A deleted repository's rows while its deletion can be undone (transient: not backed up). */
export interface RepositoryTrashTable {
  id: Generated<number>;
  repository_id: number;
  full_name_lower: string;
  deleted_by: number | null;
  deleted_at: string;
  expires_at: string;
  rows: string;
}

export interface Database
  extends DecisionTables,
    RadarTables,
    ApiTokenTables,
    OidcTables,
    SavedViewTables,
    PublicPageTables {
  repositories: RepositoriesTable;
  repository_commits: RepositoryCommitsTable;
  repository_health: RepositoryHealthTable;
  repository_packages: RepositoryPackagesTable;
  repository_advisory_reads: RepositoryAdvisoryReadsTable;
  repository_advisories: RepositoryAdvisoriesTable;
  repository_aliases: RepositoryAliasesTable;
  repository_totals: RepositoryTotalsTable;
  repository_access: RepositoryAccessTable;
  comments: CommentsTable;
  versions: VersionsTable;
  repository_metrics: RepositoryMetricsTable;
  repository_history: RepositoryHistoryTable;
  repository_events: RepositoryEventsTable;
  feed_tokens: FeedTokensTable;
  repository_release_tracking: RepositoryReleaseTrackingTable;
  repository_releases: RepositoryReleasesTable;
  notification_channels: NotificationChannelsTable;
  notification_rules: NotificationRulesTable;
  notification_digest_items: NotificationDigestItemsTable;
  notification_deliveries: NotificationDeliveriesTable;
  notification_cursors: NotificationCursorsTable;
  repository_tags: RepositoryTagsTable;
  repository_sync_state: RepositorySyncStateTable;
  repository_topics: RepositoryTopicsTable;
  repository_search: RepositorySearchTable;
  users: UsersTable;
  repository_trash: RepositoryTrashTable;
  instance_bootstrap: InstanceBootstrapTable;
  refresh_tokens: RefreshTokensTable;
  email_tokens: EmailTokensTable;
  job_leases: JobLeasesTable;
  jobs: JobsTable;
  audit_log: AuditLogTable;
}

// ---- row types: what a query reads, named once beside the tables they come from ----------------

export type RepositoryRow = Selectable<RepositoriesTable>;
/**
 * A repository as lists, pages and exports read it: every column but the stored ETags (which
 * only the sync engine needs) and the advisory rank (the filter's).
 */
export type RepositoryListRow = Omit<RepositoryRow, 'etags' | 'advisory_level'>;
/**
 * A repository as the CSV export reads it: the list row's columns its records write, and the id
 * its batches page by (docs/decisions.md, "CSV export").
 */
export type RepositoryExportRow = Pick<
  RepositoryListRow,
  | 'id'
  | 'full_name'
  | 'name'
  | 'description'
  | 'url'
  | 'language'
  | 'license'
  | 'topics'
  | 'tags'
  | 'notes'
  | 'stars'
  | 'forks'
  | 'issues'
  | 'commits'
  | 'contributors'
  | 'contributors_capped'
  | 'contributors_pending'
  | 'stars_7d'
  | 'stars_30d'
  | 'last_commit'
  | 'last_synced'
  | 'archived'
  | 'private'
  | 'gone'
  | 'created_at'
  | 'health_score'
  | 'health_grade'
  | 'advisories_critical'
  | 'advisories_high'
  | 'advisories_medium'
  | 'advisories_low'
  | 'advisories_unknown'
  | 'comment_count'
  | 'version_count'
  | keyof RepositoryDecisionColumns
>;
/** The detail screen's row: a list row with its stored recent commits (JSON, `[]` when none). */
export type RepositoryDetailRow = RepositoryListRow & { recent_commits: string };
