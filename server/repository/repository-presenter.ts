import type { Commit, Repository, RepositorySummary } from '#shared/schemas/repositories.ts';
import type { RepositoryDetailRow, RepositoryListRow, RepositoryRow } from '../db/schema.ts';
import type { Etags } from '../github/github-client.ts';
import type { RepositorySnapshot } from '../github/repository-snapshot.ts';

/** The one way a repository row leaves the server (docs/product.md#entities). */
export function presentSummary(row: RepositoryListRow): RepositorySummary {
  return {
    id: row.full_name,
    user_id: row.user_id,
    name: row.name,
    description: row.description,
    url: row.url,
    license: row.license,
    topics: row.topics,
    tags: row.tags,
    notes: row.notes,
    stars: row.stars,
    forks: row.forks,
    issues: row.issues,
    commits: row.commits,
    total_commits: row.commits,
    // Null while the sync engine is still counting (docs/product.md#counting-contributors).
    contributors: contributorsShown(row),
    last_commit: row.last_commit,
    last_synced: row.last_synced,
    created_at: row.created_at,
    updated_at: row.updated_at,
    language: row.language,
    archived: row.archived === 1,
    private: row.private === 1,
    gone: row.gone === 1,
    default_branch: row.default_branch,
    github_id: row.github_id,
    comment_count: row.comment_count,
    version_count: row.version_count,
    growth: { stars_7d: row.stars_7d ?? null, stars_30d: row.stars_30d ?? null },
    health: { score: row.health_score ?? null, grade: row.health_grade ?? 'unknown' },
    decision: row.decision_status
      ? { status: row.decision_status, quadrant: row.decision_quadrant ?? null }
      : null,
    open_advisories: {
      critical: row.advisories_critical ?? 0,
      high: row.advisories_high ?? 0,
      medium: row.advisories_medium ?? 0,
      low: row.advisories_low ?? 0,
      unknown: row.advisories_unknown ?? 0,
    },
  };
}

/** Null while still being counted after an import, '500+' when capped, else the count. */
export function contributorsShown(
  row: Pick<RepositoryListRow, 'contributors' | 'contributors_pending' | 'contributors_capped'>,
): number | string | null {
  return row.contributors_pending === 1
    ? null
    : row.contributors_capped === 1
      ? `${row.contributors}+`
      : row.contributors;
}

export function presentRepository(
  row: RepositoryDetailRow,
  extra: Pick<Repository, 'comments' | 'versions' | 'release_tracking'>,
): Repository {
  return { ...presentSummary(row), ...extra, recent_commits: parseCommits(row.recent_commits) };
}

export function parseCommits(json: string): Commit[] {
  try {
    const value = JSON.parse(json) as unknown;
    return Array.isArray(value) ? (value as Commit[]) : [];
  } catch {
    return [];
  }
}

/**
 * The stored row and its stored commits (JSON) as a snapshot, so a conditional sync can keep
 * what GitHub says is unchanged.
 */
export function snapshotOfRow(row: RepositoryRow, storedCommits: string): RepositorySnapshot {
  return {
    fullName: row.full_name,
    githubId: row.github_id,
    name: row.name,
    description: row.description,
    url: row.url,
    license: row.license,
    topics: row.topics ? row.topics.split(',') : [],
    stars: row.stars,
    forks: row.forks,
    issues: row.issues,
    language: row.language,
    archived: row.archived === 1,
    private: row.private === 1,
    defaultBranch: row.default_branch,
    commits: row.commits,
    contributors: row.contributors_pending === 1 ? null : row.contributors,
    contributorsCapped: row.contributors_capped === 1,
    lastCommit: row.last_commit,
    recentCommits: parseCommits(storedCommits),
  };
}

/**
 * Columns a sync writes from a snapshot (its recent commits go to their own table:
 * `saveStoredCommits`). A snapshot without a contributor count (GraphQL)
 * leaves the stored count alone; see `newRowFieldsOfSnapshot` for a new row.
 */
export function rowFieldsOfSnapshot(snapshot: RepositorySnapshot) {
  return {
    ...snapshotColumns(snapshot),
    ...(snapshot.contributors === null
      ? {}
      : {
          contributors: snapshot.contributors,
          contributors_capped: snapshot.contributorsCapped ? (1 as const) : (0 as const),
          contributors_pending: 0 as const,
        }),
  };
}

/** Columns of a new row: without a contributor count it is left to the engine to count. */
export function newRowFieldsOfSnapshot(snapshot: RepositorySnapshot) {
  return {
    ...snapshotColumns(snapshot),
    contributors: snapshot.contributors ?? 0,
    contributors_capped: snapshot.contributorsCapped ? (1 as const) : (0 as const),
    contributors_pending: snapshot.contributors === null ? (1 as const) : (0 as const),
  };
}

function snapshotColumns(snapshot: RepositorySnapshot) {
  return {
    full_name: snapshot.fullName,
    github_id: snapshot.githubId,
    name: snapshot.name,
    description: snapshot.description,
    url: snapshot.url,
    license: snapshot.license,
    topics: snapshot.topics.join(','),
    stars: snapshot.stars,
    forks: snapshot.forks,
    issues: snapshot.issues,
    commits: snapshot.commits,
    language: snapshot.language,
    archived: snapshot.archived ? (1 as const) : (0 as const),
    private: snapshot.private ? (1 as const) : (0 as const),
    default_branch: snapshot.defaultBranch,
    last_commit: snapshot.lastCommit,
  };
}

/** The stored ETags of a row (empty when unreadable: the next read is then unconditional). */
export function parseEtags(json: string): Etags {
  try {
    return JSON.parse(json) as Etags;
  } catch {
    return {};
  }
}
