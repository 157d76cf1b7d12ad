import { type DoubleLicense, LICENSES, licenseForShare } from './licenses.ts';
import { type DoubleAccount, ownerAccount } from './people.ts';
import {
  loadRankingSnapshot,
  type RankingRow,
  SNAPSHOT_DATES,
  type SnapshotDate,
} from './ranking-snapshots.ts';
import { SPECIAL_REPOSITORY_DEFINITIONS, type SpecialRepositoryDefinition } from './special-repositories.ts';
import { hashInt, hashUnit } from './stable-hash.ts';
import { deriveTopics } from './topics.ts';

/**
 * The double's repository data, free of any HTTP or GitHub JSON shape so the REST server and a
 * GraphQL endpoint can share it. Real numbers come from the ranking CSVs; the rest is derived
 * from a hash of the repository's lower-case full name, so it is the same on every run.
 */

/**
 * Commits numbered `firstNumber..lastNumber` (1 = the root commit) spread evenly between
 * `startMs` and `endMs`, the last one exactly at `endMs`. A repository has one segment per
 * snapshot that brought new commits, so commits keep their sha and date across a switch.
 */
export interface CommitSegment {
  firstNumber: number;
  lastNumber: number;
  startMs: number;
  endMs: number;
}

export interface DoubleRepository {
  /** Seed of every derived value: the lower-case full name when the catalogue was built. */
  key: string;
  id: number;
  owner: DoubleAccount;
  name: string;
  /** GitHub's canonical spelling, whatever case a request used. */
  fullName: string;
  /** Names that answer 301 to this repository. */
  previousFullNames: readonly string[];
  description: string | null;
  homepage: string | null;
  language: string | null;
  license: DoubleLicense | null;
  topics: readonly string[];
  stars: number;
  forks: number;
  subscribers: number;
  /** Open issues without pull requests (GraphQL's `issues(states: OPEN){totalCount}`). */
  openIssues: number;
  openPullRequests: number;
  /** REST's `open_issues_count`: issues plus pull requests. */
  openIssuesCount: number;
  createdAt: string;
  updatedAt: string;
  /** Last push to any branch: never before the newest commit on the default branch. */
  pushedAt: string;
  /** Committer date of the newest commit on the default branch; null when empty. */
  lastCommitAt: string | null;
  defaultBranch: 'main' | 'master';
  sizeKb: number;
  archived: boolean;
  isPrivate: boolean;
  isEmpty: boolean;
  commitCount: number;
  commitSegments: readonly CommitSegment[];
  /** Every contributor, anonymous ones included (REST `anon=1`). */
  contributorCount: number;
  /** Contributors linked to a GitHub account (REST without `anon`). */
  linkedContributorCount: number;
  /** GitHub refuses to list contributors (403) for this repository. */
  contributorsTooLarge: boolean;
  /** How many top contributors author commits (fixed at the first observation). */
  authorPool: number;
  /** Dependabot is among the contributors and authors version bumps. */
  hasDependabot: boolean;
  snapshot: SnapshotDate;
  special: boolean;
}

/** What tests and the demo need to pick real names and check numbers. */
export interface DoubleRepositorySummary {
  fullName: string;
  id: number;
  stars: number;
  forks: number;
  language: string | null;
  /** REST `open_issues_count` (issues + pull requests). */
  openIssuesCount: number;
  commits: number;
  /** With anonymous contributors. */
  contributors: number;
  lastCommitAt: string | null;
  /** SPDX id, or null without a licence. */
  license: string | null;
  isPrivate: boolean;
  special: boolean;
}

export interface CatalogueView {
  snapshot: SnapshotDate;
  /** In the order of the ranking CSVs, special repositories last. */
  repositories: readonly DoubleRepository[];
  byName: ReadonlyMap<string, DoubleRepository>;
  byId: ReadonlyMap<number, DoubleRepository>;
  byPreviousName: ReadonlyMap<string, DoubleRepository>;
}

const DAY_MS = 86_400_000;
const GITHUB_LAUNCH_MS = Date.parse('2008-02-08T00:00:00Z');
const ID_SCALE_END_MS = Date.parse('2026-12-31T00:00:00Z');
const MAIN_BRANCH_ERA_MS = Date.parse('2020-10-01T00:00:00Z');

const catalogueCache = new Map<SnapshotDate, CatalogueView>();
let identityCache: ReadonlyMap<string, number> | undefined;

export function getCatalogue(snapshot: SnapshotDate): CatalogueView {
  const cached = catalogueCache.get(snapshot);
  if (cached) {
    return cached;
  }
  const view = buildCatalogue(snapshot);
  catalogueCache.set(snapshot, view);
  return view;
}

/** A repository under its current name (any case), or undefined. */
export function findRepository(fullName: string, snapshot: SnapshotDate): DoubleRepository | undefined {
  return getCatalogue(snapshot).byName.get(fullName.toLowerCase());
}

export function findRepositoryById(id: number, snapshot: SnapshotDate): DoubleRepository | undefined {
  return getCatalogue(snapshot).byId.get(id);
}

/** The repository a former name now points to (GitHub answers such names with 301). */
export function findRenamedRepository(
  oldFullName: string,
  snapshot: SnapshotDate,
): DoubleRepository | undefined {
  return getCatalogue(snapshot).byPreviousName.get(oldFullName.toLowerCase());
}

export function listDoubleRepositories(
  options: { snapshot?: SnapshotDate; includeSpecial?: boolean } = {},
): DoubleRepositorySummary[] {
  const { snapshot = SNAPSHOT_DATES[0], includeSpecial = false } = options;
  return getCatalogue(snapshot)
    .repositories.filter((repo) => includeSpecial || !repo.special)
    .map(summarizeRepository);
}

export function summarizeRepository(repo: DoubleRepository): DoubleRepositorySummary {
  return {
    fullName: repo.fullName,
    id: repo.id,
    stars: repo.stars,
    forks: repo.forks,
    language: repo.language,
    openIssuesCount: repo.openIssuesCount,
    commits: repo.commitCount,
    contributors: repo.contributorCount,
    lastCommitAt: repo.lastCommitAt,
    license: repo.license?.spdxId ?? null,
    isPrivate: repo.isPrivate,
    special: repo.special,
  };
}

function buildCatalogue(snapshot: SnapshotDate): CatalogueView {
  const [older, newer] = SNAPSHOT_DATES;
  const olderRows = loadRankingSnapshot(older);
  const newerRows = loadRankingSnapshot(newer);
  const ids = repositoryIds();
  const repositories: DoubleRepository[] = [];
  for (const key of allRankingKeys()) {
    const id = ids.get(key);
    if (id === undefined) {
      throw new Error(`No id for ${key}`);
    }
    repositories.push(deriveRankedRepository(key, id, olderRows.get(key), newerRows.get(key), snapshot));
  }
  for (const definition of SPECIAL_REPOSITORY_DEFINITIONS) {
    const key = definition.fullName.toLowerCase();
    const id = ids.get(key);
    if (id === undefined) {
      throw new Error(`No id for ${key}`);
    }
    repositories.push(deriveSpecialRepository(definition, id, snapshot));
  }

  const byName = new Map<string, DoubleRepository>();
  const byId = new Map<number, DoubleRepository>();
  const byPreviousName = new Map<string, DoubleRepository>();
  for (const repo of repositories) {
    byName.set(repo.fullName.toLowerCase(), repo);
    byId.set(repo.id, repo);
    for (const previous of repo.previousFullNames) {
      byPreviousName.set(previous.toLowerCase(), repo);
    }
  }
  return { snapshot, repositories, byName, byId, byPreviousName };
}

/** Keys of both snapshots: older snapshot's order first, then repositories new in the later one. */
function allRankingKeys(): string[] {
  const keys = new Set<string>();
  for (const date of SNAPSHOT_DATES) {
    for (const key of loadRankingSnapshot(date).keys()) {
      keys.add(key);
    }
  }
  return [...keys];
}

/**
 * Numeric ids, the same in both snapshots. Like GitHub's they grow with the creation date;
 * collisions are resolved in a fixed order so the mapping never depends on the snapshot.
 */
function repositoryIds(): ReadonlyMap<string, number> {
  if (identityCache) {
    return identityCache;
  }
  const candidates: Array<[key: string, createdMs: number]> = [];
  for (const key of allRankingKeys()) {
    const first = firstObservation(key);
    candidates.push([key, Date.parse(deriveCreatedAt(key, first.lastCommit))]);
  }
  for (const definition of SPECIAL_REPOSITORY_DEFINITIONS) {
    candidates.push([definition.fullName.toLowerCase(), Date.parse(definition.createdAt)]);
  }
  candidates.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const used = new Set<number>();
  const ids = new Map<string, number>();
  for (const [key, createdMs] of candidates) {
    const share = (createdMs - GITHUB_LAUNCH_MS) / (ID_SCALE_END_MS - GITHUB_LAUNCH_MS);
    let id = 1_000 + Math.floor(share * 1_100_000_000) + hashInt(`${key}:id`, 0, 999_999);
    while (used.has(id)) {
      id += 1;
    }
    used.add(id);
    ids.set(key, id);
  }
  identityCache = ids;
  return ids;
}

function firstObservation(key: string): RankingRow {
  for (const date of SNAPSHOT_DATES) {
    const row = loadRankingSnapshot(date).get(key);
    if (row) {
      return row;
    }
  }
  throw new Error(`${key} is in no snapshot`);
}

/** Created between four months and twelve years before its first observed commit. */
function deriveCreatedAt(key: string, firstLastCommit: string): string {
  const ageDays = hashInt(`${key}:age-days`, 120, 5_000);
  const createdMs = Math.max(GITHUB_LAUNCH_MS, Date.parse(firstLastCommit) - ageDays * DAY_MS);
  // Whole seconds, as GitHub reports them.
  return isoSeconds(createdMs - hashInt(`${key}:created-seconds`, 0, 86_399) * 1000);
}

function deriveRankedRepository(
  key: string,
  id: number,
  olderRow: RankingRow | undefined,
  newerRow: RankingRow | undefined,
  snapshot: SnapshotDate,
): DoubleRepository {
  const first = olderRow ?? newerRow;
  if (!first) {
    throw new Error(`${key} is in no snapshot`);
  }
  // A repository missing from the chosen snapshot dropped out of the ranking lists, not off
  // GitHub: it keeps the numbers of the snapshot that has it.
  const current = (snapshot === SNAPSHOT_DATES[1] ? newerRow : olderRow) ?? first;
  const createdAt = deriveCreatedAt(key, first.lastCommit);
  const createdMs = Date.parse(createdAt);
  const firstLastMs = Date.parse(first.lastCommit);
  const currentLastMs = Date.parse(current.lastCommit);

  // Commits: a base history up to the first observation, then growth up to the current one.
  const ageDays = Math.max(1, (firstLastMs - createdMs) / DAY_MS);
  const commitsPerDay = Math.exp(Math.log(0.3) + hashUnit(`${key}:commit-rate`) * Math.log(30 / 0.3));
  const baseCommits = clamp(Math.round(ageDays * commitsPerDay), 300, 100_000);
  const segments: CommitSegment[] = [
    { firstNumber: 1, lastNumber: baseCommits, startMs: createdMs, endMs: firstLastMs },
  ];
  let newCommits = 0;
  if (currentLastMs > firstLastMs) {
    const days = (currentLastMs - firstLastMs) / DAY_MS;
    const rate = (baseCommits / ageDays) * (0.4 + 1.2 * hashUnit(`${key}:growth`));
    newCommits = Math.max(1, Math.round(days * rate));
    segments.push({
      firstNumber: baseCommits + 1,
      lastNumber: baseCommits + newCommits,
      startMs: firstLastMs,
      endMs: currentLastMs,
    });
  }
  const commitCount = baseCommits + newCommits;

  // Contributors: a share of the commit count; some new ones arrive with new commits.
  const contributorShare = Math.exp(
    Math.log(0.004) + hashUnit(`${key}:contributors`) * Math.log(0.15 / 0.004),
  );
  const baseContributors = clamp(Math.round(baseCommits * contributorShare), 1, Math.min(baseCommits, 4_000));
  const newContributors =
    newCommits > 0
      ? Math.min(newCommits, Math.round(newCommits * contributorShare) + hashInt(`${key}:nc`, 0, 3))
      : 0;
  const contributorCount = baseContributors + newContributors;
  const anonymous = Math.round(contributorCount * (0.02 + 0.13 * hashUnit(`${key}:anonymous`)));
  // Only the first 500 author e-mails link to accounts, so big repositories count low without anon.
  const linkedContributorCount = Math.min(contributorCount - anonymous, 500);

  const snapshotMs = Date.parse(`${snapshot}T00:00:00Z`);
  const pushedMs = derivePushedMs(key, currentLastMs, snapshotMs);
  const openPullRequests =
    Math.round(current.openIssues * (0.05 + 0.6 * hashUnit(`${key}:${snapshot}:prs`))) +
    hashInt(`${key}:${snapshot}:prs-extra`, 0, 15);
  const language = current.language;
  const description = current.description;
  const olderThanTwoYears = snapshotMs - currentLastMs > 2 * 365 * DAY_MS;

  return {
    key,
    id,
    owner: ownerAccount(current.owner),
    name: current.name,
    fullName: current.fullName,
    previousFullNames: [],
    description,
    homepage:
      hashUnit(`${key}:homepage`) < 0.35
        ? `https://${current.owner.toLowerCase()}.github.io/${current.name}`
        : null,
    language,
    license: licenseForShare(hashUnit(`${key}:license`)),
    topics: deriveTopics(key, current.name, language, description),
    stars: current.stars,
    forks: current.forks,
    subscribers: Math.max(1, Math.round(current.stars * (0.004 + 0.026 * hashUnit(`${key}:watchers`)))),
    openIssues: current.openIssues,
    openPullRequests,
    openIssuesCount: current.openIssues + openPullRequests,
    createdAt,
    updatedAt: deriveUpdatedAt(key, pushedMs, snapshotMs),
    pushedAt: isoSeconds(pushedMs),
    lastCommitAt: current.lastCommit,
    defaultBranch: deriveDefaultBranch(key, createdMs),
    sizeKb: 50 + Math.round(commitCount * (3 + 57 * hashUnit(`${key}:size`))),
    archived: olderThanTwoYears && hashUnit(`${key}:archived`) < 0.45,
    isPrivate: false,
    isEmpty: false,
    commitCount,
    commitSegments: segments,
    contributorCount,
    linkedContributorCount,
    contributorsTooLarge: false,
    authorPool: Math.min(200, baseContributors),
    hasDependabot: hashUnit(`${key}:dependabot`) < 0.3,
    snapshot,
    special: false,
  };
}

function deriveSpecialRepository(
  definition: SpecialRepositoryDefinition,
  id: number,
  snapshot: SnapshotDate,
): DoubleRepository {
  const key = definition.fullName.toLowerCase();
  const [owner = '', name = ''] = definition.fullName.split('/');
  const createdMs = Date.parse(definition.createdAt);
  const lastMs = definition.lastCommit ? Date.parse(definition.lastCommit) : null;
  const snapshotMs = Date.parse(`${snapshot}T00:00:00Z`);
  const pushedMs = lastMs ?? createdMs;
  const stars = definition.stars[SNAPSHOT_DATES.indexOf(snapshot)] ?? definition.stars[0];
  const isEmpty = definition.commits === 0;
  return {
    key,
    id,
    owner: { ...ownerAccount(owner), type: 'Organization' },
    name,
    fullName: definition.fullName,
    previousFullNames: definition.previousFullNames,
    description: definition.description,
    homepage: definition.homepage,
    language: definition.language,
    license: definition.license ? LICENSES[definition.license] : null,
    topics: definition.topics,
    stars,
    forks: definition.forks,
    subscribers: Math.max(1, Math.round(stars / 40)),
    openIssues: definition.openIssues,
    openPullRequests: definition.openPullRequests,
    openIssuesCount: definition.openIssues + definition.openPullRequests,
    createdAt: definition.createdAt,
    updatedAt: deriveUpdatedAt(key, pushedMs, snapshotMs),
    pushedAt: isoSeconds(pushedMs),
    lastCommitAt: definition.lastCommit,
    defaultBranch: 'main',
    sizeKb: isEmpty ? 0 : 40 + Math.min(definition.commits, 100_000) * 4,
    archived: false,
    isPrivate: definition.isPrivate,
    isEmpty,
    commitCount: definition.commits,
    commitSegments:
      lastMs === null
        ? []
        : [{ firstNumber: 1, lastNumber: definition.commits, startMs: createdMs, endMs: lastMs }],
    contributorCount: definition.contributors,
    linkedContributorCount: definition.linkedContributors,
    contributorsTooLarge: definition.contributorsTooLarge,
    authorPool: Math.max(1, Math.min(200, definition.contributors)),
    hasDependabot: false,
    snapshot,
    special: true,
  };
}

/** Four repositories in ten also pushed to another branch a little after the newest commit. */
function derivePushedMs(key: string, lastCommitMs: number, snapshotMs: number): number {
  if (hashUnit(`${key}:pushed-later`) >= 0.4) {
    return lastCommitMs;
  }
  const later = lastCommitMs + hashInt(`${key}:pushed-minutes`, 1, 240) * 60_000;
  return Math.max(lastCommitMs, Math.min(later, snapshotMs + DAY_MS - 1000));
}

/** updated_at moves with stars and settings: some time on the snapshot day, never before a push. */
function deriveUpdatedAt(key: string, pushedMs: number, snapshotMs: number): string {
  const onSnapshotDay = snapshotMs + hashInt(`${key}:updated-seconds`, 0, 21_600) * 1000;
  return isoSeconds(Math.max(pushedMs, onSnapshotDay));
}

/** GitHub switched new repositories to `main` in October 2020; older ones mostly kept `master`. */
function deriveDefaultBranch(key: string, createdMs: number): 'main' | 'master' {
  const masterShare = createdMs < MAIN_BRANCH_ERA_MS ? 0.75 : 0.15;
  return hashUnit(`${key}:branch`) < masterShare ? 'master' : 'main';
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** ISO 8601 without milliseconds, as GitHub writes dates. */
export function isoSeconds(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
