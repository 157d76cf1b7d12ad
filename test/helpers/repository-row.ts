import type { RepositoryListRow, RepositoryRow } from '../../server/db/schema.ts';
import type { NewRepository } from '../../server/repository/repository.queries.ts';

/** The columns every row written here has: what the database fills by default is left out. */
type QuietColumns = Omit<
  RepositoryRow,
  | 'id'
  | 'contributors_pending'
  | 'stars_7d'
  | 'stars_30d'
  | 'health_score'
  | 'health_grade'
  | 'advisories_critical'
  | 'advisories_high'
  | 'advisories_medium'
  | 'advisories_low'
  | 'advisories_unknown'
  | 'advisory_level'
  | 'comment_count'
  | 'version_count'
  | 'decision_status'
  | 'decision_quadrant'
>;

/** A quiet public repository: one star, one commit, one contributor, synced now. */
function quietRepository(fullName: string, githubId: number): QuietColumns {
  const now = new Date().toISOString();
  return {
    full_name: fullName,
    github_id: githubId,
    user_id: null,
    name: fullName.split('/')[1] ?? fullName,
    description: null,
    url: `https://github.com/${fullName}`,
    license: '',
    topics: '',
    tags: '',
    notes: '',
    stars: 1,
    forks: 0,
    issues: 0,
    commits: 1,
    contributors: 1,
    contributors_capped: 0,
    language: null,
    archived: 0,
    private: 0,
    gone: 0,
    default_branch: 'main',
    last_commit: null,
    last_synced: now,
    etags: '{}',
    created_at: now,
    updated_at: now,
  };
}

/**
 * A whole `repositories` row for tests that write the table directly (migrations, faults):
 * `full_name` and `github_id` given, the rest a quiet public repository unless overridden.
 */
export function buildRepositoryRow(
  fullName: string,
  githubId: number,
  overrides: Partial<NewRepository> = {},
): NewRepository {
  return { ...quietRepository(fullName, githubId), ...overrides };
}

/**
 * A list row as the catalogue's queries read it (no stored ETags, with its comment
 * and version counts), for tests of what is made from list rows (the CSV export): `id` doubles
 * as the GitHub id, the rest the same quiet repository unless overridden.
 */
export function buildListRow(
  fullName: string,
  id: number,
  overrides: Partial<RepositoryListRow> = {},
): RepositoryListRow {
  const { etags: _etags, ...row } = quietRepository(fullName, id);
  return {
    ...row,
    id,
    contributors_pending: 0,
    stars_7d: null,
    stars_30d: null,
    health_score: null,
    health_grade: null,
    advisories_critical: 0,
    advisories_high: 0,
    advisories_medium: 0,
    advisories_low: 0,
    advisories_unknown: 0,
    comment_count: 0,
    version_count: 0,
    decision_status: null,
    decision_quadrant: null,
    ...overrides,
  };
}
