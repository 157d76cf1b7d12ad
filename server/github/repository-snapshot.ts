import type { Commit } from '../../shared/schemas/repositories.ts';

/** Everything a sync learns about a repository, whichever API path it came from. */
export interface RepositorySnapshot {
  fullName: string;
  githubId: number;
  name: string;
  description: string | null;
  url: string;
  license: string;
  topics: string[];
  stars: number;
  forks: number;
  /** Open issues plus open pull requests (GitHub's open_issues_count). */
  issues: number;
  language: string | null;
  archived: boolean;
  private: boolean;
  defaultBranch: string | null;
  commits: number;
  /** Null when this path can't count them (GraphQL): the stored count stays, or is counted later. */
  contributors: number | null;
  /** GitHub refused to count contributors: `contributors` is a lower bound. */
  contributorsCapped: boolean;
  lastCommit: string | null;
  recentCommits: Commit[];
}

/** GitHub's licence as the catalogue stores it: the SPDX id, the name for NOASSERTION, or "". */
export function licenseLabel(
  license: { spdx_id?: string | null; name?: string | null } | null | undefined,
): string {
  if (!license) return '';
  if (license.spdx_id && license.spdx_id !== 'NOASSERTION') return license.spdx_id;
  return license.name ?? '';
}

/** When GitHub won't count contributors, the catalogue says "1000+" (docs/product.md#entities). */
export const CAPPED_CONTRIBUTORS = 1000;
