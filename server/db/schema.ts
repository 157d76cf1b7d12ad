import type { Generated } from 'kysely';

/**
 * Table types for Kysely. Timestamps are ISO-8601 UTC strings on both dialects so that rows
 * look the same in SQLite and PostgreSQL and in backups.
 */
export interface JobLeasesTable {
  name: string;
  holder: string;
  expires_at: string;
}

export interface AuditLogTable {
  id: Generated<number>;
  actor_id: number | null;
  action: string;
  target: string | null;
  detail: string | null;
  created_at: string;
}

/** Flags are stored as 0/1 on both databases. */
export type Flag = 0 | 1;

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

export interface RepositoriesTable {
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
  language: string | null;
  archived: Flag;
  private: Flag;
  gone: Flag;
  default_branch: string | null;
  last_commit: string | null;
  last_synced: string | null;
  recent_commits: string;
  etags: string;
  created_at: string;
  updated_at: string;
}

export interface RepositoryAliasesTable {
  full_name_lower: string;
  repository_id: number;
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
}

export interface RepositoryMetricsTable {
  repository_id: number;
  day: string;
  stars: number;
  forks: number;
  issues: number;
  commits: number;
  contributors: number;
}

export interface Database {
  repositories: RepositoriesTable;
  repository_aliases: RepositoryAliasesTable;
  repository_access: RepositoryAccessTable;
  comments: CommentsTable;
  versions: VersionsTable;
  repository_metrics: RepositoryMetricsTable;
  users: UsersTable;
  refresh_tokens: RefreshTokensTable;
  email_tokens: EmailTokensTable;
  job_leases: JobLeasesTable;
  audit_log: AuditLogTable;
}
