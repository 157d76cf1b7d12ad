import type { Migration } from 'kysely/migration';
import * as createJobLeasesAndAuditLog from './2026-11-22-0001-create-job-leases-and-audit-log.ts';
import * as createUsersAndTokens from './2026-11-22-0002-create-users-and-tokens.ts';
import * as createRepositories from './2026-11-22-0003-create-repositories.ts';
import * as createJobs from './2026-11-23-0001-create-jobs.ts';
import * as createCatalogueIndexes from './2026-11-23-0100-create-catalogue-indexes.ts';
import * as createInstanceBootstrap from './2026-11-23-0200-create-instance-bootstrap.ts';
import * as createSyncEngineState from './2026-11-24-0100-create-sync-engine-state.ts';
import * as createRepositoryEvents from './2026-11-25-0100-create-repository-events.ts';
import * as createReleaseTracking from './2026-11-25-0200-create-release-tracking.ts';
import * as starHistoryBackfill from './2026-11-25-0300-star-history-backfill.ts';
import * as createNotifications from './2026-11-25-0400-create-notifications.ts';
import * as createFeedTokens from './2026-11-25-0500-create-feed-tokens.ts';
import * as createSavedViews from './2026-11-25-0700-create-saved-views.ts';
import * as uniqueVersionNumbers from './2026-11-25-0800-unique-version-numbers.ts';
import * as createRepositoryTrash from './2026-11-25-0900-create-repository-trash.ts';
import * as repositoryGrowth from './2026-11-26-0100-repository-growth.ts';
import * as repositoryTagKeys from './2026-11-28-0100-repository-tag-keys.ts';
import * as repositoryTotals from './2026-11-28-0200-repository-totals.ts';
import * as repositoryCommits from './2026-11-28-0300-repository-commits.ts';
import * as repositoryHealth from './2026-11-28-0400-repository-health.ts';
import * as repositoryHealthColumns from './2026-11-28-0500-repository-health-columns.ts';
import * as metricsHealthScore from './2026-11-28-0600-metrics-health-score.ts';
import * as advisories from './2026-11-28-0700-advisories.ts';
import * as repositoryDiscussionCounts from './2026-11-28-0800-repository-discussion-counts.ts';
import * as decisions from './2026-11-29-0100-decisions.ts';
import * as radar from './2026-11-29-0200-radar.ts';
import * as decisionListAndComments from './2026-11-29-0300-decision-list-and-comments.ts';
import * as apiTokens from './2026-11-29-0400-api-tokens.ts';
import * as oidcSignIn from './2026-11-29-0500-oidc-sign-in.ts';
import * as publicPages from './2026-11-29-0600-public-pages.ts';

/**
 * Every migration, listed explicitly so boot needs no directory scan and the bundle-free
 * `node server/main.ts` finds them. Names sort by date; never edit a landed migration.
 */
export const migrations: Record<string, Migration> = {
  '2026-11-22-0001-create-job-leases-and-audit-log': createJobLeasesAndAuditLog,
  '2026-11-22-0002-create-users-and-tokens': createUsersAndTokens,
  '2026-11-22-0003-create-repositories': createRepositories,
  '2026-11-23-0001-create-jobs': createJobs,
  '2026-11-23-0100-create-catalogue-indexes': createCatalogueIndexes,
  '2026-11-23-0200-create-instance-bootstrap': createInstanceBootstrap,
  '2026-11-24-0100-create-sync-engine-state': createSyncEngineState,
  '2026-11-25-0100-create-repository-events': createRepositoryEvents,
  '2026-11-25-0200-create-release-tracking': createReleaseTracking,
  '2026-11-25-0300-star-history-backfill': starHistoryBackfill,
  '2026-11-25-0400-create-notifications': createNotifications,
  '2026-11-25-0500-create-feed-tokens': createFeedTokens,
  '2026-11-25-0700-create-saved-views': createSavedViews,
  '2026-11-25-0800-unique-version-numbers': uniqueVersionNumbers,
  '2026-11-25-0900-create-repository-trash': createRepositoryTrash,
  '2026-11-26-0100-repository-growth': repositoryGrowth,
  '2026-11-28-0100-repository-tag-keys': repositoryTagKeys,
  '2026-11-28-0200-repository-totals': repositoryTotals,
  '2026-11-28-0300-repository-commits': repositoryCommits,
  '2026-11-28-0400-repository-health': repositoryHealth,
  '2026-11-28-0500-repository-health-columns': repositoryHealthColumns,
  '2026-11-28-0600-metrics-health-score': metricsHealthScore,
  '2026-11-28-0700-advisories': advisories,
  '2026-11-28-0800-repository-discussion-counts': repositoryDiscussionCounts,
  '2026-11-29-0100-decisions': decisions,
  '2026-11-29-0200-radar': radar,
  '2026-11-29-0300-decision-list-and-comments': decisionListAndComments,
  '2026-11-29-0400-api-tokens': apiTokens,
  '2026-11-29-0500-oidc-sign-in': oidcSignIn,
  '2026-11-29-0600-public-pages': publicPages,
};
