import type { Commit } from '#shared/schemas/repositories.ts';

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
  /**
   * The newest releases (or tags) when this read asked for them (docs/architecture.md#releases);
   * undefined when it didn't, or GitHub said they are unchanged.
   */
  releases?: ReleaseRead;
}

/** One GitHub release, or a tag of a project without releases. */
export interface ReleaseInfo {
  tag: string;
  /** The release's title; null for a tag or an untitled release. */
  name: string | null;
  /** The release notes (Markdown); null for a tag. */
  notes: string | null;
  /** ISO date; null for a draft, or a tag whose date GitHub didn't give. */
  publishedAt: string | null;
  prerelease: boolean;
  draft: boolean;
  /** The release's (or tag's) page on GitHub. */
  url: string | null;
}

/** What a read learnt about a repository's releases, newest first. */
export interface ReleaseRead {
  /** Releases as GitHub listed them (drafts included when shown); null: not read or unchanged. */
  releases: ReleaseInfo[] | null;
  /** Tags, read only when the project has no published release; null: not read or unchanged. */
  tags: ReleaseInfo[] | null;
  /** `releases` is GitHub's latest release alone (a project that had only tags), not a list. */
  latestOnly?: true;
}

/** Releases and tags asked for per read: the newest few are enough to see what is new. */
export const RELEASES_READ = 5;

/** When GitHub won't count contributors, the catalogue says "1000+" (docs/product.md#entities). */
export const CAPPED_CONTRIBUTORS = 1000;
