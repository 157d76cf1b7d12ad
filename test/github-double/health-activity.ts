import type { DoubleRepository } from './catalogue.ts';
import { commitDateMs } from './history.ts';
import type { SnapshotDate } from './ranking-snapshots.ts';
import { hashInt, hashSha1, hashUnit } from './stable-hash.ts';

/**
 * What the app's health query reads besides counts (pure, no HTTP or GraphQL): issues with
 * their first answer, pull requests with their merge, the security policy, root manifests and
 * commits in a window. Everything is derived from the repository's seed, its ranking numbers
 * (stars, open issues) and its commit history (history.ts), as of the snapshot's "now":
 *
 * - Maintainers act until the newest commit (plus ACTIVITY_GRACE_MS): no issue is answered or
 *   closed, and no pull request updated, after that. Issues keep arriving (more slowly) and
 *   stay open and unanswered, so a repository whose last commit is years old has old PRs and
 *   old answers only.
 * - Only the newest ISSUE_NODES issues (by creation) and PULL_REQUEST_NODES pull requests (by
 *   update) are generated; the open ones among them never outnumber `openIssues` /
 *   `openPullRequests`, and `totalCount` (all states) adds an estimate of older closed ones.
 */

export const DAY_MS = 86_400_000;
export const ISSUE_NODES = 30;
export const PULL_REQUEST_NODES = 100;
const ACTIVITY_GRACE_MS = 7 * DAY_MS;

/**
 * A real fixture repository that is active in the 2025-08-01 snapshot (last commit 11 days
 * before it) and stale in the 2026-08-22 one (no commit, release, pull request update or issue
 * answer for more than a year). JavaScript, so it has a package.json.
 */
export const FADING_REPOSITORY = 'f/awesome-chatgpt-prompts';

/** The snapshot's "now": the end of its day (no served date is later, except new ones). */
export function snapshotNowMs(snapshot: SnapshotDate): number {
  return Date.parse(`${snapshot}T00:00:00Z`) + DAY_MS - 1000;
}

/** `isSecurityPolicyEnabled` (the repository publishes a security policy): about six in ten, likelier with stars. */
export function securityPolicyEnabled(repo: DoubleRepository): boolean {
  if (repo.isEmpty) return false;
  const lift = Math.min(0.15, Math.log10(Math.max(1, repo.stars)) / 40);
  return hashUnit(`${repo.key}:security-policy`) < 0.5 + lift;
}

/**
 * Commits on the default branch committed in [sinceMs, untilMs] (`history(since:, until:)`),
 * as the numbers `from..to` (none when to < from): commit dates grow with their number, so
 * two binary searches over history.ts's dates.
 */
export function commitNumberRange(
  repo: DoubleRepository,
  sinceMs: number,
  untilMs = Number.POSITIVE_INFINITY,
): { from: number; to: number } {
  // The first commit dated at or after `ms` (strict: after it); commitCount + 1 when none.
  const firstFrom = (ms: number, strict: boolean): number => {
    let low = 1;
    let high = repo.commitCount + 1;
    while (low < high) {
      const middle = Math.floor((low + high) / 2);
      const date = commitDateMs(repo, middle);
      if (strict ? date > ms : date >= ms) high = middle;
      else low = middle + 1;
    }
    return low;
  };
  const from = firstFrom(sinceMs, false);
  const to = untilMs === Number.POSITIVE_INFINITY ? repo.commitCount : firstFrom(untilMs, true) - 1;
  return { from, to };
}

/** How many commits `commitNumberRange` holds. */
export function commitsBetween(repo: DoubleRepository, sinceMs: number, untilMs?: number): number {
  const { from, to } = commitNumberRange(repo, sinceMs, untilMs);
  return Math.max(0, to - from + 1);
}

/** Dates are epoch milliseconds (whole seconds): formatting 200,000 of them costs seconds. */
export interface DoubleIssue {
  number: number;
  /** Seed of the title (`issueTitle`). */
  seed: string;
  createdMs: number;
  updatedMs: number;
  closedMs: number | null;
  /** Comment dates, oldest first; empty when nobody answered. */
  commentMs: number[];
}

export interface DoublePullRequest {
  number: number;
  seed: string;
  createdMs: number;
  updatedMs: number;
  closedMs: number | null;
  mergedMs: number | null;
  isDraft: boolean;
}

export interface RepositoryActivity {
  /** Newest first by creation. */
  issues: DoubleIssue[];
  /** Issues in every state (the generated ones plus older ones). */
  issueTotal: number;
  /** Newest first by update. */
  pullRequests: DoublePullRequest[];
  pullRequestTotal: number;
}

const activityCache = new WeakMap<DoubleRepository, RepositoryActivity>();

export function repositoryActivity(repo: DoubleRepository): RepositoryActivity {
  let activity = activityCache.get(repo);
  if (!activity) {
    activity = deriveActivity(repo);
    activityCache.set(repo, activity);
  }
  return activity;
}

function deriveActivity(repo: DoubleRepository): RepositoryActivity {
  const nowMs = snapshotNowMs(repo.snapshot);
  const createdMs = Date.parse(repo.createdAt);
  if (repo.isEmpty || repo.lastCommitAt === null) {
    return {
      issues: [],
      issueTotal: repo.openIssues,
      pullRequests: [],
      pullRequestTotal: repo.openPullRequests,
    };
  }
  // Maintainers answer, close and merge until their newest commit (and a week after it).
  const activeUntilMs = Math.min(nowMs, Date.parse(repo.lastCommitAt) + ACTIVITY_GRACE_MS);
  const key = repo.key;
  const topNumber = Math.ceil(repo.commitCount / 3) + hashInt(`${key}:top-number`, 40, 400);
  const issues = deriveIssues(repo, nowMs, createdMs, activeUntilMs, topNumber);
  const pullRequests = derivePullRequests(repo, createdMs, activeUntilMs, topNumber);
  return {
    issues: issues.items,
    issueTotal: repo.openIssues + issues.closed + issues.olderClosed,
    pullRequests: pullRequests.items,
    pullRequestTotal: repo.openPullRequests + pullRequests.closed + pullRequests.olderClosed,
  };
}

/** Days until the next event of a Poisson process with `ratePerDay` (deterministic). */
function gapMs(seed: string, ratePerDay: number): number {
  return (-Math.log(1 - hashUnit(seed) * 0.999) / ratePerDay) * DAY_MS;
}

/** Commits a day in the newest stretch of history (the latest segment). */
function recentCommitRate(repo: DoubleRepository): number {
  const segment = repo.commitSegments.at(-1);
  if (!segment) return 0;
  const days = Math.max(1, (segment.endMs - segment.startMs) / DAY_MS);
  return (segment.lastNumber - segment.firstNumber + 1) / days;
}

interface Generated<T> {
  items: T[];
  closed: number;
  olderClosed: number;
}

function deriveIssues(
  repo: DoubleRepository,
  nowMs: number,
  createdMs: number,
  activeUntilMs: number,
  topNumber: number,
): Generated<DoubleIssue> {
  const key = `${repo.key}:issues`;
  const rate = clamp((repo.stars / 4_000) * (0.3 + 1.7 * hashUnit(`${key}:rate`)), 0.02, 25);
  // Median first answer between an hour and two weeks; some issues never get one.
  const medianResponseMs = Math.exp(Math.log(3_600_000) + hashUnit(`${key}:response`) * Math.log(336));
  const silentShare = 0.08 + 0.2 * hashUnit(`${key}:silent`);
  const closeShare = 0.55 + 0.35 * hashUnit(`${key}:close`);
  let openLeft = repo.openIssues;
  let cursor = nowMs;
  let closed = 0;
  let number = topNumber;
  const items: DoubleIssue[] = [];
  for (let index = 0; index < ISSUE_NODES; index++) {
    const seed = `${key}:${index}`;
    // After the maintainers left, issues arrive at a fifth of the rate.
    const quiet = cursor > activeUntilMs ? 0.2 : 1;
    cursor -= gapMs(`${seed}:gap`, rate * quiet);
    if (cursor > activeUntilMs - 3_600_000 && openLeft === 0) {
      // Unanswered issues after the maintainers left would be open: there are no more open ones.
      cursor = activeUntilMs - 3_600_000 - gapMs(`${seed}:gap2`, rate);
    }
    let created = Math.floor(cursor / 1000) * 1000;
    const answerDelay = medianResponseMs * (-Math.log(1 - hashUnit(`${seed}:answer`) * 0.99) / Math.LN2);
    const silent = hashUnit(`${seed}:silent`) < silentShare;
    let closedMs: number | null = null;
    if (hashUnit(`${seed}:closes`) < closeShare || openLeft === 0) {
      const closeDelay =
        (silent ? 0 : answerDelay) +
        Math.exp(Math.log(600_000) + hashUnit(`${seed}:close-after`) * Math.log(4_000));
      if (created + closeDelay <= activeUntilMs) {
        closedMs = created + closeDelay;
      } else if (openLeft === 0) {
        // No open issue left to be: it was opened early enough to be closed in time.
        created = activeUntilMs - closeDelay - hashInt(`${seed}:shift`, 3_600, 3 * 86_400) * 1000;
        created = Math.floor(created / 1000) * 1000;
        closedMs = created + closeDelay;
        cursor = created;
      }
    }
    if (created < createdMs) break;
    number -= 1 + 2 * hashInt(`${seed}:number`, 0, 2);
    const firstAnswer = created + answerDelay;
    const answered = !silent && firstAnswer <= Math.min(activeUntilMs, closedMs ?? activeUntilMs);
    if (closedMs === null) openLeft -= 1;
    else closed += 1;
    const commentMs: number[] = [];
    if (answered) {
      const end = closedMs ?? activeUntilMs;
      let at = wholeSecond(firstAnswer);
      const count = 1 + hashInt(`${seed}:comments`, 0, 8);
      for (let c = 0; c < count && at <= end; c++) {
        commentMs.push(at);
        at += hashInt(`${seed}:comment:${c}`, 5, 72 * 60) * 60_000;
      }
    }
    const closedWhole = closedMs === null ? null : Math.max(created, wholeSecond(closedMs));
    items.push({
      number,
      seed,
      createdMs: created,
      updatedMs: Math.max(created, closedWhole ?? 0, commentMs.at(-1) ?? 0),
      closedMs: closedWhole,
      commentMs,
    });
  }
  const oldest = items.at(-1);
  const olderDays = oldest ? (oldest.createdMs - createdMs) / DAY_MS : 0;
  return { items, closed, olderClosed: Math.round(Math.max(0, olderDays) * rate * closeShare) };
}

function derivePullRequests(
  repo: DoubleRepository,
  createdMs: number,
  activeUntilMs: number,
  topNumber: number,
): Generated<DoublePullRequest> {
  const key = `${repo.key}:pulls`;
  const rate = clamp(recentCommitRate(repo) * (0.25 + 0.6 * hashUnit(`${key}:rate`)), 0.01, 40);
  const mergeShare = 0.6 + 0.25 * hashUnit(`${key}:merge`);
  let openLeft = repo.openPullRequests;
  let cursor = activeUntilMs - hashInt(`${key}:last-update`, 0, 3 * 86_400) * 1000;
  let closed = 0;
  let number = topNumber + 1;
  const items: DoublePullRequest[] = [];
  for (let index = 0; index < PULL_REQUEST_NODES; index++) {
    const seed = `${key}:${index}`;
    if (index > 0) cursor -= gapMs(`${seed}:gap`, rate);
    if (cursor < createdMs) break;
    number -= 1 + 2 * hashInt(`${seed}:number`, 0, 2);
    const updated = Math.floor(cursor / 1000) * 1000;
    const roll = hashUnit(`${seed}:state`);
    const open = roll >= 0.85 && openLeft > 0;
    const merged = !open && hashUnit(`${seed}:merged`) < mergeShare / 0.85;
    const lifetime = Math.exp(Math.log(1_800_000) + hashUnit(`${seed}:lifetime`) * Math.log(2_000));
    const closedMs = open ? null : updated - hashInt(`${seed}:closed-before`, 0, 600) * 1000;
    const created = Math.max(createdMs, (closedMs ?? updated) - lifetime);
    if (open) openLeft -= 1;
    else closed += 1;
    const closedWhole = closedMs === null ? null : Math.max(wholeSecond(created), closedMs);
    items.push({
      number,
      seed,
      createdMs: wholeSecond(created),
      updatedMs: updated,
      closedMs: closedWhole,
      mergedMs: merged ? closedWhole : null,
      isDraft: open && hashUnit(`${seed}:draft`) < 0.15,
    });
  }
  const oldest = items.at(-1);
  const olderDays = oldest ? (oldest.updatedMs - createdMs) / DAY_MS : 0;
  return { items, closed, olderClosed: Math.round(Math.max(0, olderDays) * rate * 0.9) };
}

const TITLE_STARTS = [
  'Crash when',
  'Docs: clarify',
  'Support for',
  'Regression in',
  'Wrong result from',
  'Add',
];
const TITLE_ENDS = [
  'the config loader',
  'Windows paths',
  'large inputs',
  'the CLI',
  'Unicode names',
  'the cache',
];

function wholeSecond(ms: number): number {
  return Math.floor(ms / 1000) * 1000;
}

export function issueTitle(seed: string, name: string): string {
  const start = TITLE_STARTS[hashInt(`${seed}:t1`, 0, TITLE_STARTS.length - 1)];
  const end = TITLE_ENDS[hashInt(`${seed}:t2`, 0, TITLE_ENDS.length - 1)];
  return `${start} ${end} (${name})`;
}

// --- Root manifests -----------------------------------------------------------------------------

export const MANIFEST_PATHS = [
  'package.json',
  'pyproject.toml',
  'Cargo.toml',
  'go.mod',
  'composer.json',
] as const;
export type ManifestPath = (typeof MANIFEST_PATHS)[number];

const MANIFEST_BY_LANGUAGE: Readonly<Record<string, ManifestPath>> = {
  JavaScript: 'package.json',
  TypeScript: 'package.json',
  Python: 'pyproject.toml',
  Rust: 'Cargo.toml',
  Go: 'go.mod',
  PHP: 'composer.json',
};

export interface DoubleBlob {
  oid: string;
  text: string;
  byteSize: number;
}

/** The repository's root manifest (one at most, by language), or null when it has none. */
export function rootManifest(repo: DoubleRepository, path: ManifestPath): DoubleBlob | null {
  if (repo.isEmpty || !repo.language || MANIFEST_BY_LANGUAGE[repo.language] !== path) return null;
  const text = manifestText(repo, path);
  return { oid: hashSha1(`${repo.key}:blob:${path}:${text}`), text, byteSize: Buffer.byteLength(text) };
}

/** The package name the manifest declares (npm and Composer names are lower case). */
export function manifestPackageName(repo: DoubleRepository): string | null {
  const path = repo.language ? MANIFEST_BY_LANGUAGE[repo.language] : undefined;
  if (!path || repo.isEmpty) return null;
  if (path === 'package.json') return repo.name.toLowerCase();
  if (path === 'composer.json') return repo.fullName.toLowerCase();
  if (path === 'go.mod') return `github.com/${repo.fullName}`;
  return repo.name;
}

function manifestText(repo: DoubleRepository, path: ManifestPath): string {
  const name = manifestPackageName(repo) ?? repo.name;
  switch (path) {
    case 'package.json': {
      // A few are applications, not published packages.
      const isPrivate = hashUnit(`${repo.key}:private-package`) < 0.12;
      return `${JSON.stringify(isPrivate ? { name, private: true } : { name }, null, 2)}\n`;
    }
    case 'pyproject.toml':
      return `[project]\nname = "${name}"\n`;
    case 'Cargo.toml':
      return `[package]\nname = "${name}"\n`;
    case 'go.mod':
      return `module ${name}\n`;
    case 'composer.json':
      return `${JSON.stringify({ name }, null, 4)}\n`;
  }
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
