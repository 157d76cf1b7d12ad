import { type CommitSegment, type DoubleRepository, isoSeconds } from './catalogue.ts';
import {
  anonymousIdentity,
  DEPENDABOT,
  type DoubleAccount,
  type GitIdentity,
  personAccount,
  WEB_FLOW,
} from './people.ts';
import { hashInt, hashPick, hashSha1, hashUnit } from './stable-hash.ts';

/**
 * Commits and contributors of a repository, generated on demand from its seed: any page of a
 * 100,000-commit history costs only the items on it. Commit number 1 is the root; number N
 * (the commit count) is the newest, dated at the repository's last commit. A commit's sha
 * depends only on the repository and its number, so new commits after a snapshot switch leave
 * the older ones (and their shas) untouched.
 */

export interface GitSignature {
  name: string;
  email: string;
  date: string;
}

export interface DoubleCommit {
  sha: string;
  /** 1 = root commit. */
  number: number;
  treeSha: string;
  parentShas: string[];
  message: string;
  author: GitSignature;
  committer: GitSignature;
  /** The GitHub account the author e-mail links to; null for unlinked e-mails. */
  authorAccount: DoubleAccount | null;
  committerAccount: DoubleAccount | null;
  /** Commits made through GitHub's web interface (merges, squashes) carry its signature. */
  verified: boolean;
}

export type DoubleContributor =
  | { kind: 'account'; account: DoubleAccount; contributions: number }
  | { kind: 'anonymous'; identity: GitIdentity; contributions: number };

/** Newest-first commits starting `offset` commits below `fromNumber` (default: newest). */
export function listCommits(
  repo: DoubleRepository,
  options: { offset: number; limit: number; fromNumber?: number },
): DoubleCommit[] {
  const start = (options.fromNumber ?? repo.commitCount) - options.offset;
  const commits: DoubleCommit[] = [];
  for (let number = start; number > start - options.limit && number >= 1; number--) {
    commits.push(commitByNumber(repo, number));
  }
  return commits;
}

export function commitSha(repo: DoubleRepository, number: number): string {
  return hashSha1(`${repo.key}:commit:${number}`);
}

/**
 * The commit number a `sha` query parameter names: the default branch, HEAD, or a full or
 * abbreviated sha among the newest 1,000 commits. undefined when nothing matches.
 */
export function resolveCommitRef(repo: DoubleRepository, ref: string): number | undefined {
  if (repo.commitCount === 0) {
    return undefined;
  }
  if (ref === repo.defaultBranch || ref === 'HEAD' || ref === `refs/heads/${repo.defaultBranch}`) {
    return repo.commitCount;
  }
  const prefix = ref.toLowerCase();
  if (!/^[0-9a-f]{7,40}$/.test(prefix)) {
    return undefined;
  }
  const oldest = Math.max(1, repo.commitCount - 999);
  for (let number = repo.commitCount; number >= oldest; number--) {
    if (commitSha(repo, number).startsWith(prefix)) {
      return number;
    }
  }
  return undefined;
}

export function commitByNumber(repo: DoubleRepository, number: number): DoubleCommit {
  const seed = `${repo.key}:commit:${number}`;
  const committedMs = commitDateMs(repo, number);
  const parentShas = number > 1 ? [commitSha(repo, number - 1)] : [];
  const style = number === 1 ? 'root' : pickCommitStyle(repo, seed);
  const author = pickAuthor(repo, seed, style);
  const authorSignature = signature(author, committedMs - authorLagMs(seed, style));

  let message: string;
  let committer: DoubleAccount | GitIdentity = author.account ?? author.identity;
  let committerAccount = author.account;
  let verified = false;
  // Pull-request numbers grow with the history, as they do on GitHub.
  const pullNumber = Math.ceil(number / 3) + hashInt(`${seed}:pr`, 0, 25);
  switch (style) {
    case 'root':
      message = 'Initial commit';
      break;
    case 'merge': {
      const login = author.account?.login ?? 'contributor';
      message = `Merge pull request #${pullNumber} from ${login}/${branchName(seed)}\n\n${commitTitle(seed)}`;
      parentShas.push(hashSha1(`${seed}:merged-branch`));
      committer = WEB_FLOW;
      committerAccount = WEB_FLOW;
      verified = true;
      break;
    }
    case 'squash':
      message = `${commitTitle(seed)} (#${pullNumber})`;
      committer = WEB_FLOW;
      committerAccount = WEB_FLOW;
      verified = true;
      break;
    case 'dependabot':
      message = bumpMessage(seed);
      committer = WEB_FLOW;
      committerAccount = WEB_FLOW;
      verified = true;
      break;
    default:
      message =
        hashUnit(`${seed}:body`) < 0.25 ? `${commitTitle(seed)}\n\n${commitBody(seed)}` : commitTitle(seed);
  }

  return {
    sha: commitSha(repo, number),
    number,
    treeSha: hashSha1(`${seed}:tree`),
    parentShas,
    message,
    author: authorSignature,
    committer: signature({ account: null, identity: identityOf(committer) }, committedMs),
    authorAccount: author.account,
    committerAccount,
    verified,
  };
}

/** Committer date of a commit: spread over its segment, jittered, the newest exactly at the end. */
export function commitDateMs(repo: DoubleRepository, number: number): number {
  const segment = segmentOf(repo.commitSegments, number);
  const count = segment.lastNumber - segment.firstNumber + 1;
  const step = (segment.endMs - segment.startMs) / count;
  const jitter = number === segment.lastNumber ? 0 : hashUnit(`${repo.key}:jitter:${number}`) * step * 0.9;
  return Math.floor((segment.endMs - (segment.lastNumber - number) * step - jitter) / 1000) * 1000;
}

function segmentOf(segments: readonly CommitSegment[], number: number): CommitSegment {
  const segment = segments.find((s) => number >= s.firstNumber && number <= s.lastNumber);
  if (!segment) {
    throw new Error(`Commit ${number} is outside the history`);
  }
  return segment;
}

type CommitStyle = 'root' | 'direct' | 'merge' | 'squash' | 'dependabot';

function pickCommitStyle(repo: DoubleRepository, seed: string): CommitStyle {
  const roll = hashUnit(`${seed}:style`);
  if (repo.hasDependabot && roll < 0.1) {
    return 'dependabot';
  }
  if (roll < 0.25) {
    return 'merge';
  }
  if (roll < 0.55) {
    return 'squash';
  }
  return 'direct';
}

interface Author {
  account: DoubleAccount | null;
  identity: GitIdentity;
}

/**
 * Authors lean towards the top contributors, as real histories do. Only facts that never
 * change for a commit feed this (not the current contributor count), so a commit keeps its
 * author when the history grows.
 */
function pickAuthor(repo: DoubleRepository, seed: string, style: CommitStyle): Author {
  if (style === 'dependabot') {
    return { account: DEPENDABOT, identity: identityOf(DEPENDABOT) };
  }
  const position = Math.floor(repo.authorPool * hashUnit(`${seed}:author`) ** 2.5);
  const positionSeed = `${repo.key}:contributor:${position}`;
  if (position === 0 && repo.owner.type === 'User') {
    return { account: repo.owner, identity: identityOf(repo.owner) };
  }
  if (position > 0 && hashUnit(`${positionSeed}:unlinked`) < 0.08) {
    return { account: null, identity: anonymousIdentity(positionSeed) };
  }
  const account = personAccount(positionSeed);
  return { account, identity: identityOf(account) };
}

function identityOf(who: DoubleAccount | GitIdentity): GitIdentity {
  return 'login' in who ? { name: who.displayName, email: who.email } : who;
}

function signature(who: Author, ms: number): GitSignature {
  return { name: who.identity.name, email: who.identity.email, date: isoSeconds(ms) };
}

/** Pull-request commits were authored before GitHub committed them on merge. */
function authorLagMs(seed: string, style: CommitStyle): number {
  if (style === 'direct' || style === 'root') {
    return 0;
  }
  return hashInt(`${seed}:lag`, 600, 5 * 86_400) * 1000;
}

const VERBS = ['Fix', 'Add', 'Update', 'Remove', 'Refactor', 'Improve', 'Document', 'Simplify'] as const;
const SUBJECTS = [
  'typo in README',
  'memory leak in the parser',
  'flaky integration test',
  'CI workflow for macOS',
  'release notes',
  'error handling on timeouts',
  'Windows path handling',
  'dark mode colours',
  'translations',
  'type definitions',
  'benchmark script',
  'config loading',
  'cache invalidation',
  'keyboard shortcuts',
] as const;
const NON_ASCII_TITLES = [
  'Mise à jour de la documentation',
  '修复拼写错误',
  '✨ Add emoji support to the renderer',
  'Übersetzungen aktualisiert',
  'Исправлена ошибка сборки',
  '🐛 Fix crash when the list is empty',
] as const;
const PACKAGES = [
  'lodash',
  'eslint',
  'typescript',
  'requests',
  'serde',
  'golang.org/x/net',
  'actions/checkout',
  'vite',
  'pytest',
  'tokio',
] as const;

function commitTitle(seed: string): string {
  if (hashUnit(`${seed}:non-ascii`) < 0.06) {
    return hashPick(`${seed}:title`, NON_ASCII_TITLES);
  }
  const title = `${hashPick(`${seed}:verb`, VERBS)} ${hashPick(`${seed}:subject`, SUBJECTS)}`;
  return hashUnit(`${seed}:conventional`) < 0.3
    ? `${hashPick(`${seed}:type`, ['fix', 'feat', 'docs', 'chore', 'refactor'])}: ${title[0]?.toLowerCase()}${title.slice(1)}`
    : title;
}

function commitBody(seed: string): string {
  return `The previous behaviour broke when ${hashPick(`${seed}:why`, ['the input was empty', 'two requests raced', 'the locale was not English', 'the file had CRLF line ends'])}.\n\nCloses #${hashInt(`${seed}:closes`, 1, 9999)}`;
}

function branchName(seed: string): string {
  return `${hashPick(`${seed}:branch-kind`, ['fix', 'feature', 'docs', 'patch'])}-${hashInt(`${seed}:branch`, 1, 999)}`;
}

function bumpMessage(seed: string): string {
  const name = hashPick(`${seed}:package`, PACKAGES);
  const major = hashInt(`${seed}:major`, 1, 9);
  const minor = hashInt(`${seed}:minor`, 0, 30);
  const patch = hashInt(`${seed}:patch`, 0, 20);
  return `Bump ${name} from ${major}.${minor}.${patch} to ${major}.${minor}.${patch + 1}\n\nBumps ${name} from ${major}.${minor}.${patch} to ${major}.${minor}.${patch + 1}.\n\nSigned-off-by: dependabot[bot] <support@github.com>`;
}

// ---------------------------------------------------------------------------------------------
// Contributors: positions 0..count-1 sorted by contributions (descending). Anonymous entries are
// spread evenly among them, so "how many are anonymous before position r" is a formula and any
// page can be produced without listing the ones before it.

/** How many entries a listing has: with `anon` every contributor, otherwise linked accounts only. */
export function contributorTotal(repo: DoubleRepository, anon: boolean): number {
  return anon ? repo.contributorCount : repo.linkedContributorCount;
}

export function listContributors(
  repo: DoubleRepository,
  options: { anon: boolean; offset: number; limit: number },
): DoubleContributor[] {
  const total = contributorTotal(repo, options.anon);
  const entries: DoubleContributor[] = [];
  for (let index = options.offset; index < Math.min(total, options.offset + options.limit); index++) {
    entries.push(contributorAt(repo, options.anon ? index : accountPosition(repo, index)));
  }
  return entries;
}

export function contributorAt(repo: DoubleRepository, position: number): DoubleContributor {
  const contributions = contributionsAt(repo, position);
  const seed = `${repo.key}:contributor:${position}`;
  if (isAnonymousPosition(repo, position)) {
    return { kind: 'anonymous', identity: anonymousIdentity(seed), contributions };
  }
  return { kind: 'account', account: accountAt(repo, position), contributions };
}

function anonymousCount(repo: DoubleRepository): number {
  return repo.contributorCount - repo.linkedContributorCount;
}

function anonymousBefore(repo: DoubleRepository, position: number): number {
  return Math.floor((position * anonymousCount(repo)) / repo.contributorCount);
}

function isAnonymousPosition(repo: DoubleRepository, position: number): boolean {
  return anonymousBefore(repo, position + 1) > anonymousBefore(repo, position);
}

/** Position of the index-th linked account: the first position with index + 1 accounts up to it. */
function accountPosition(repo: DoubleRepository, index: number): number {
  let low = index;
  let high = repo.contributorCount - 1;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    const accountsUpTo = middle + 1 - anonymousBefore(repo, middle + 1);
    if (accountsUpTo >= index + 1) {
      high = middle;
    } else {
      low = middle + 1;
    }
  }
  return low;
}

function accountAt(repo: DoubleRepository, position: number): DoubleAccount {
  const firstAccount = isAnonymousPosition(repo, 0) ? 1 : 0;
  if (position === firstAccount && repo.owner.type === 'User') {
    return repo.owner;
  }
  if (repo.hasDependabot && position === dependabotPosition(repo)) {
    return DEPENDABOT;
  }
  return personAccount(`${repo.key}:contributor:${position}`);
}

function dependabotPosition(repo: DoubleRepository): number {
  const wanted = Math.min(repo.contributorCount - 1, hashInt(`${repo.key}:dependabot-rank`, 2, 12));
  return isAnonymousPosition(repo, wanted) ? wanted + 1 : wanted;
}

/** A power law whose sum is close to the commit count. */
function contributionsAt(repo: DoubleRepository, position: number): number {
  const exponent = 0.9 + 0.4 * hashUnit(`${repo.key}:contribution-exponent`);
  const count = repo.contributorCount;
  // Integral approximation of sum_{r=1..count} r^-exponent (exact enough for a shape).
  const integral =
    Math.abs(1 - exponent) < 1e-9 ? Math.log(count) : (count ** (1 - exponent) - 1) / (1 - exponent);
  const harmonic = integral + 0.5 * (1 + count ** -exponent) + 0.08;
  const top = repo.commitCount / harmonic;
  return Math.max(1, Math.floor(top * (position + 1) ** -exponent));
}
