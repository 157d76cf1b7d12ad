import type { ColumnType } from 'kysely';
import type { HealthGrade } from '#shared/schemas/health.ts';

/**
 * The tables of the repository-health and advisories modules (docs/architecture.md): what the
 * app judges about a repository, apart from what it records. `Database` in schema.ts lists them.
 */

/** A boolean as SQLite stores it (both dialects use 0 and 1). */
export type Flag = 0 | 1;

/** A repository's health: inputs, signals and score of one formula version, the override. */
export interface RepositoryHealthTable {
  repository_id: number;
  score: number | null;
  grade: HealthGrade;
  formula_version: number;
  /** JSON: the formula's inputs, each a raw value and when it was measured. */
  inputs: string;
  /** JSON: the scored signals, as `GET /repositories/{id}/health` shows them. */
  signals: string;
  computed_at: string;
  /** When GitHub's health query last answered for it (null: never; only stored data used). */
  github_read_at: string | null;
  due_at: string;
  failures: ColumnType<number, number | undefined, number>;
  override_reason: string | null;
  override_by: number | null;
  override_at: string | null;
}

/** A package the repository publishes: detected in a root manifest, or a member's word. */
export interface RepositoryPackagesTable {
  repository_id: number;
  ecosystem: string;
  name: string;
  detected: Flag;
  /** 1 a member listed it, 0 a member removed it, null: as detection says. */
  chosen: Flag | null;
  /** When the advisory database was last read for it; null: never (the first read is not news). */
  read_at: string | null;
}

/** When a repository's own advisories were last read, with the list's ETag. */
export interface RepositoryAdvisoryReadsTable {
  repository_id: number;
  etag: string | null;
  read_at: string | null;
}

/** One advisory per repository and GHSA id, whichever source found it. */
export interface RepositoryAdvisoriesTable {
  repository_id: number;
  ghsa_id: string;
  cve_id: string | null;
  severity: 'critical' | 'high' | 'medium' | 'low' | 'unknown';
  summary: string;
  url: string;
  published_at: string;
  updated_at: string;
  withdrawn_at: string | null;
  source: 'repository' | 'global';
  package_ecosystem: string | null;
  package_name: string | null;
  vulnerable_range: string | null;
  patched_versions: string | null;
  fixed_in_version_id: number | null;
  open: Flag;
  found_at: string;
}
