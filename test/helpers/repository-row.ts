import type { NewRepository } from '../../server/repository/repository.queries.ts';

/**
 * A whole `repositories` row for tests that write the table directly (migrations, faults):
 * `full_name` and `github_id` given, the rest a quiet public repository unless overridden.
 */
export function buildRepositoryRow(
  fullName: string,
  githubId: number,
  overrides: Partial<NewRepository> = {},
): NewRepository {
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
    recent_commits: '[]',
    etags: '{}',
    created_at: now,
    updated_at: now,
    ...overrides,
  };
}
