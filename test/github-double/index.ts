/**
 * The GitHub test double: an HTTP server that answers like api.github.com, over real ranking
 * data. See README.md for the endpoints, the special repositories and the fault injection.
 */

export {
  type DoubleAdvisory,
  type NewAdvisory,
  SEEDED_ADVISORIES,
  SEEDED_ADVISORY_IDS,
} from './advisories.ts';
export {
  type CatalogueView,
  type DoubleRepository,
  type DoubleRepositorySummary,
  findRenamedRepository,
  findRepository,
  findRepositoryById,
  getCatalogue,
  listDoubleRepositories,
} from './catalogue.ts';
export type { FaultInjector } from './faults.ts';
export {
  commitsBetween,
  FADING_REPOSITORY,
  manifestPackageName,
  repositoryActivity,
  securityPolicyEnabled,
  snapshotNowMs,
} from './health-activity.ts';
export {
  commitByNumber,
  contributorTotal,
  type DoubleCommit,
  type DoubleContributor,
  listCommits,
  listContributors,
} from './history.ts';
export type { DoubleLicense, LicenseKey } from './licenses.ts';
export { SNAPSHOT_DATES, type SnapshotDate } from './ranking-snapshots.ts';
export type { RecordedRequest, RequestCounts } from './request-log.ts';
export { type GitHubDouble, type GitHubDoubleOptions, startGitHubDouble } from './server.ts';
export {
  BARE_REPOSITORY,
  DOOMED_REPOSITORY,
  EMPTY_REPOSITORY,
  HUGE_REPOSITORY,
  PRIVATE_REPOSITORY,
  RENAMED_REPOSITORY_NEW_NAME,
  RENAMED_REPOSITORY_OLD_NAME,
  SINGLE_COMMIT_REPOSITORY,
  SPECIAL_REPOSITORIES,
  STARS_GONE_REPOSITORY,
  STARS_HIDDEN_REPOSITORY,
  STARS_UNLISTED_REPOSITORY,
} from './special-repositories.ts';
export { STAR_HISTORY_API_VERSION, type StarHistoryWeek, starHistoryWeeks } from './star-history.ts';
