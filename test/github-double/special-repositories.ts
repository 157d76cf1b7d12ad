import type { LicenseKey } from './licenses.ts';

/**
 * Repositories that exist only in the double, one per status case GitHub can answer with
 * (see README.md). They live under an owner no real ranking row uses, so they never collide
 * with the CSV data.
 */
export const SPECIAL_OWNER = 'octo-double';

/** repos/get 200 with size 0; commits 409 "Git Repository is empty."; contributors 204. */
export const EMPTY_REPOSITORY = `${SPECIAL_OWNER}/empty-repository`;
/** contributors 403 "The history or contributor list is too large…"; 1.2 M commits. */
export const HUGE_REPOSITORY = `${SPECIAL_OWNER}/huge-repository`;
/** Answers 301 to /repositories/{id}; served there under RENAMED_REPOSITORY_NEW_NAME. */
export const RENAMED_REPOSITORY_OLD_NAME = `${SPECIAL_OWNER}/before-rename`;
export const RENAMED_REPOSITORY_NEW_NAME = `${SPECIAL_OWNER}/after-rename`;
/** 404 unless the request's token was granted access (private: true, visibility 'private'). */
export const PRIVATE_REPOSITORY = `${SPECIAL_OWNER}/private-repository`;
/** An ordinary repository meant to be deleted in tests with `removeRepository` (any name works). */
export const DOOMED_REPOSITORY = `${SPECIAL_OWNER}/doomed-repository`;
/** No licence, no description, no topics, no homepage. */
export const BARE_REPOSITORY = `${SPECIAL_OWNER}/bare-repository`;
/** One commit, one contributor: commits answer without a Link header. */
export const SINGLE_COMMIT_REPOSITORY = `${SPECIAL_OWNER}/single-commit`;

/** Star history (`…/stargazers/history`) 404: GitHub has none for it. */
export const STARS_UNLISTED_REPOSITORY = `${SPECIAL_OWNER}/stars-unlisted`;
/** Star history 403: GitHub refuses to show it. */
export const STARS_HIDDEN_REPOSITORY = `${SPECIAL_OWNER}/stars-hidden`;
/** Star history 410: GitHub no longer serves it. */
export const STARS_GONE_REPOSITORY = `${SPECIAL_OWNER}/stars-gone`;

/** Repositories whose star history GitHub doesn't give, and the status it answers with. */
export const STAR_HISTORY_UNAVAILABLE: ReadonlyMap<string, 403 | 404 | 410> = new Map([
  [STARS_UNLISTED_REPOSITORY.toLowerCase(), 404],
  [STARS_HIDDEN_REPOSITORY.toLowerCase(), 403],
  [STARS_GONE_REPOSITORY.toLowerCase(), 410],
]);

export const SPECIAL_REPOSITORIES = {
  empty: EMPTY_REPOSITORY,
  huge: HUGE_REPOSITORY,
  renamedOldName: RENAMED_REPOSITORY_OLD_NAME,
  renamedNewName: RENAMED_REPOSITORY_NEW_NAME,
  private: PRIVATE_REPOSITORY,
  doomed: DOOMED_REPOSITORY,
  bare: BARE_REPOSITORY,
  singleCommit: SINGLE_COMMIT_REPOSITORY,
  starsUnlisted: STARS_UNLISTED_REPOSITORY,
  starsHidden: STARS_HIDDEN_REPOSITORY,
  starsGone: STARS_GONE_REPOSITORY,
} as const;

/** Fixed facts of a special repository; what is not given is derived as for CSV rows. */
export interface SpecialRepositoryDefinition {
  fullName: string;
  previousFullNames: string[];
  description: string | null;
  language: string | null;
  /** Stars in the 2025 and 2026 snapshots, so a snapshot switch changes them too. */
  stars: readonly [number, number];
  forks: number;
  openIssues: number;
  openPullRequests: number;
  createdAt: string;
  /** Newest commit (null for an empty repository). */
  lastCommit: string | null;
  commits: number;
  contributors: number;
  /** Contributors linked to accounts (the count without anon=1). */
  linkedContributors: number;
  license: LicenseKey | null;
  topics: string[];
  homepage: string | null;
  isPrivate: boolean;
  contributorsTooLarge: boolean;
}

const base = {
  previousFullNames: [],
  language: 'TypeScript',
  forks: 3,
  openIssues: 2,
  openPullRequests: 1,
  createdAt: '2021-03-04T10:00:00Z',
  lastCommit: '2025-06-30T12:00:00Z',
  commits: 420,
  contributors: 12,
  linkedContributors: 11,
  license: 'mit',
  topics: ['test-double', 'github-api'],
  homepage: null,
  isPrivate: false,
  contributorsTooLarge: false,
} satisfies Partial<SpecialRepositoryDefinition>;

export const SPECIAL_REPOSITORY_DEFINITIONS: readonly SpecialRepositoryDefinition[] = [
  {
    ...base,
    fullName: EMPTY_REPOSITORY,
    description: 'Created on GitHub, never pushed to.',
    language: null,
    stars: [1, 2],
    forks: 0,
    openIssues: 0,
    openPullRequests: 0,
    lastCommit: null,
    commits: 0,
    contributors: 0,
    linkedContributors: 0,
    license: null,
    topics: [],
  },
  {
    ...base,
    fullName: HUGE_REPOSITORY,
    description: 'A history too large for GitHub to list its contributors.',
    language: 'C',
    stars: [48_211, 51_876],
    forks: 9_120,
    openIssues: 310,
    openPullRequests: 95,
    createdAt: '2011-09-04T22:48:12Z',
    lastCommit: '2025-07-31T19:02:44Z',
    commits: 1_234_567,
    contributors: 15_000,
    linkedContributors: 500,
    license: 'gpl-3.0',
    topics: ['kernel', 'operating-system', 'c'],
    contributorsTooLarge: true,
  },
  {
    ...base,
    fullName: RENAMED_REPOSITORY_NEW_NAME,
    previousFullNames: [RENAMED_REPOSITORY_OLD_NAME],
    description: 'Renamed from before-rename: GitHub answers the old name with 301.',
    stars: [321, 345],
    license: 'apache-2.0',
  },
  {
    ...base,
    fullName: PRIVATE_REPOSITORY,
    description: 'Visible only with a token that was granted access.',
    stars: [0, 0],
    forks: 0,
    license: null,
    isPrivate: true,
  },
  {
    ...base,
    fullName: DOOMED_REPOSITORY,
    description: 'Deleted on GitHub when a test calls removeRepository().',
    language: 'Python',
    stars: [57, 58],
    license: 'bsd-3-clause',
  },
  {
    ...base,
    fullName: BARE_REPOSITORY,
    description: null,
    language: 'Shell',
    stars: [7, 9],
    license: null,
    topics: [],
  },
  {
    ...base,
    fullName: SINGLE_COMMIT_REPOSITORY,
    description: 'Initial commit and nothing since.',
    language: 'Go',
    stars: [3, 4],
    forks: 1,
    openIssues: 0,
    openPullRequests: 0,
    commits: 1,
    contributors: 1,
    linkedContributors: 1,
  },
  {
    ...base,
    fullName: STARS_UNLISTED_REPOSITORY,
    description: 'GitHub answers its star history with 404.',
    stars: [1_204, 1_377],
  },
  {
    ...base,
    fullName: STARS_HIDDEN_REPOSITORY,
    description: 'GitHub answers its star history with 403.',
    stars: [2_310, 2_466],
  },
  {
    ...base,
    fullName: STARS_GONE_REPOSITORY,
    description: 'GitHub answers its star history with 410.',
    stars: [880, 912],
  },
];
