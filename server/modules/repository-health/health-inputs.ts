import type { RepositoryRow } from '../../db/schema.ts';
import { type GitHubHealth, HEALTH_WINDOW_DAYS } from '../../github/health-query.ts';
import type { HealthInputs, Measured } from './health-formula.ts';

const DAY_MS = 86_400_000;
const unknown = <T>(): Measured<T> => ({ value: null, at: null });

/** Issues answered within the window: the ≤ 10 newest opened in it (docs/health.md). */
const ISSUES_READ = 10;

/**
 * The formula's inputs from what the app stores (the repository's row, its tracked releases)
 * and, when GitHub's health query answered, what it said. Without that answer the signals only
 * the health query gives stay unknown: never guessed (docs/health.md).
 */
/**
 * What GitHub said: the health query's answer, and the contributors list's when it was read.
 * Without `health` only the contributors list was read (after GitHub's pace kept it from the
 * health query's run): the other signals keep what the last health query said.
 */
export interface GitHubRead {
  health?: GitHubHealth;
  at: string;
  share?: { notModified: true } | { share: number | null; etag?: string };
}

export function gatherInputs(
  row: RepositoryRow,
  storedReleases: string[],
  github: GitHubRead | null,
  previous: HealthInputs | null,
  now: Date,
): HealthInputs {
  const synced = row.last_synced;
  const fromRow = <T>(value: T | null): Measured<T> => ({ value, at: synced });
  // A stored answer from an earlier health query keeps counting until the next one.
  const kept = <K extends keyof HealthInputs>(key: K): HealthInputs[K] =>
    previous?.[key] ?? (unknown() as HealthInputs[K]);
  const inputs: HealthInputs = {
    archived: fromRow(row.archived === 1),
    lastCommitAt: fromRow(row.last_commit),
    commits90d: kept('commits90d'),
    releaseDates: storedReleases.length > 0 ? fromRow(storedReleases) : kept('releaseDates'),
    issueResponses: kept('issueResponses'),
    pullRequestsMerged90d: kept('pullRequestsMerged90d'),
    topContributorShare: kept('topContributorShare'),
    license: fromRow(row.license),
    securityPolicy: kept('securityPolicy'),
    openAdvisories: kept('openAdvisories'),
  };
  if (!github) return inputs;
  const { health, at } = github;
  if (!health)
    return { ...inputs, topContributorShare: shareOf(github.share, inputs.topContributorShare, at) };
  const windowStart = now.getTime() - HEALTH_WINDOW_DAYS * DAY_MS;
  const days = (from: string, to: number) => Math.max(0, (to - Date.parse(from)) / DAY_MS);
  const recentIssues = health.issues
    .filter((issue) => Date.parse(issue.createdAt) >= windowStart)
    .slice(0, ISSUES_READ);
  return {
    ...inputs,
    archived: { value: health.archived, at },
    lastCommitAt: { value: health.lastCommitAt, at },
    commits90d: { value: health.commitsInWindow, at },
    releaseDates:
      health.releaseDates.length > 0 || storedReleases.length === 0
        ? { value: health.releaseDates, at }
        : inputs.releaseDates,
    // No new issue in the window: nothing to judge responsiveness by.
    issueResponses:
      recentIssues.length === 0
        ? { value: null, at }
        : {
            value: recentIssues.map((issue) =>
              days(issue.createdAt, issue.answeredAt ? Date.parse(issue.answeredAt) : now.getTime()),
            ),
            at,
          },
    pullRequestsMerged90d: {
      value: health.pullRequests.filter((pull) => pull.mergedAt && Date.parse(pull.mergedAt) >= windowStart)
        .length,
      at,
    },
    license: { value: health.license, at },
    securityPolicy: { value: health.securityPolicy, at },
    topContributorShare: shareOf(github.share, inputs.topContributorShare, at),
    // Read with the health query (the advisories module counts them on the row just before).
    openAdvisories: {
      value: {
        critical: row.advisories_critical ?? 0,
        high: row.advisories_high ?? 0,
        medium: row.advisories_medium ?? 0,
        low: row.advisories_low ?? 0,
        unknown: row.advisories_unknown ?? 0,
      },
      at,
    },
  };
}

/** A fresh read, a 304 (the kept value, confirmed now), or nothing read (kept as it was). */
function shareOf(read: GitHubRead['share'], kept: HealthInputs['topContributorShare'], at: string) {
  if (!read) return kept;
  if ('notModified' in read) return { ...kept, at };
  return { value: read.share, at, ...(read.etag ? { etag: read.etag } : {}) };
}
