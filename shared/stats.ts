/**
 * The Statistics page's computations (docs/product.md#statistics-page) as pure
 * functions over the repository list.
 */
import { CONTRIBUTORS_CAP, RECENTLY_UPDATED_DAYS } from './constants.ts';
import { displayLicense, NO_LICENSE, parseDate, splitList } from './format.ts';

/** The fields the statistics read; RepositorySummary has them all. */
export interface StatsRepository {
  tags: string;
  topics: string;
  license: string;
  stars: number;
  forks: number;
  issues: number;
  commits: number;
  contributors: number | string | null;
  last_commit: string | null;
}

export const MIN_STARS_NEGATIVE = 'Minimum stars must be 0 or greater.';
export const MAX_STARS_NEGATIVE = 'Maximum stars must be 0 or greater.';
export const MIN_GREATER_THAN_MAX = 'Minimum stars cannot be greater than maximum.';
export const INVALID_RANGE_HINT = 'Fix the star range above or clear all filters.';

export interface StatsFilters {
  /** Every one must be present (AND), case-insensitive. */
  tags: readonly string[];
  /** Every one must be present (AND), case-insensitive. */
  topics: readonly string[];
  /** Exact, case-insensitive; 'No License' matches repositories without one. Empty = any. */
  license: string;
  minStars: number | null;
  maxStars: number | null;
}

export const EMPTY_FILTERS: StatsFilters = {
  tags: [],
  topics: [],
  license: '',
  minStars: null,
  maxStars: null,
};

export interface StarRangeCheck {
  min: string | null;
  max: string | null;
  /** Min above max. */
  range: string | null;
  valid: boolean;
}

/** The three star-range messages; an invalid range is ignored when filtering. */
export function checkStarRange(minStars: number | null, maxStars: number | null): StarRangeCheck {
  const min = minStars !== null && minStars < 0 ? MIN_STARS_NEGATIVE : null;
  const max = maxStars !== null && maxStars < 0 ? MAX_STARS_NEGATIVE : null;
  const range =
    !min && !max && minStars !== null && maxStars !== null && minStars > maxStars
      ? MIN_GREATER_THAN_MAX
      : null;
  return { min, max, range, valid: !min && !max && !range };
}

function lowerSet(value: string): Set<string> {
  return new Set(splitList(value).map((entry) => entry.toLowerCase()));
}

function containsAll(value: string, wanted: readonly string[]): boolean {
  if (wanted.length === 0) return true;
  const present = lowerSet(value);
  return wanted.every((entry) => present.has(entry.trim().toLowerCase()));
}

/** Tags AND, topics AND, licence exact, and the star range when it is valid. */
export function filterRepositories<T extends StatsRepository>(
  repositories: readonly T[],
  filters: StatsFilters,
): T[] {
  const tags = filters.tags.map((tag) => tag.trim()).filter(Boolean);
  const topics = filters.topics.map((topic) => topic.trim()).filter(Boolean);
  const license = filters.license.trim().toLowerCase();
  const stars = checkStarRange(filters.minStars, filters.maxStars);
  const min = stars.valid ? filters.minStars : null;
  const max = stars.valid ? filters.maxStars : null;
  return repositories.filter(
    (repository) =>
      containsAll(repository.tags, tags) &&
      containsAll(repository.topics, topics) &&
      (license === '' || displayLicense(repository.license).toLowerCase() === license) &&
      (min === null || repository.stars >= min) &&
      (max === null || repository.stars <= max),
  );
}

/** A contributor count ("1000+" included) as a number, capped at 1000. */
export function contributorCount(value: number | string | null): number {
  if (value === null) return 0; // still being counted
  const count = typeof value === 'number' ? value : Number(String(value).trim().replace(/\+$/, ''));
  if (!Number.isFinite(count) || count < 0) return 0;
  return Math.min(count, CONTRIBUTORS_CAP);
}

export interface LicenseCount {
  name: string;
  count: number;
}

export interface RepositoryStats {
  totalRepositories: number;
  totalStars: number;
  /** One decimal. */
  averageStars: number;
  totalForks: number;
  totalIssues: number;
  totalCommits: number;
  /** Each repository's count capped at 1000. */
  totalContributors: number;
  /** A commit in the last 30 days. */
  recentlyUpdated: number;
  withLicense: number;
  /** Percentage of repositories with a licence, rounded. */
  licenseCoverage: number;
  /** Missing licences count as 'No License'; null without repositories. */
  mostCommonLicense: LicenseCount | null;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const byName = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

function roundOne(value: number): number {
  return Math.round(value * 10) / 10;
}

/** The stat cards (docs/product.md#statistics-page). */
export function computeStats(
  repositories: readonly StatsRepository[],
  now: Date = new Date(),
): RepositoryStats {
  const since = now.getTime() - RECENTLY_UPDATED_DAYS * DAY_MS;
  let totalStars = 0;
  let totalForks = 0;
  let totalIssues = 0;
  let totalCommits = 0;
  let totalContributors = 0;
  let recentlyUpdated = 0;
  let withLicense = 0;
  for (const repository of repositories) {
    totalStars += repository.stars;
    totalForks += repository.forks;
    totalIssues += repository.issues;
    totalCommits += repository.commits;
    totalContributors += contributorCount(repository.contributors);
    if (repository.license.trim() !== '') withLicense += 1;
    const lastCommit = parseDate(repository.last_commit);
    if (lastCommit instanceof Date && lastCommit.getTime() >= since) recentlyUpdated += 1;
  }
  const total = repositories.length;
  return {
    totalRepositories: total,
    totalStars,
    averageStars: total === 0 ? 0 : roundOne(totalStars / total),
    totalForks,
    totalIssues,
    totalCommits,
    totalContributors,
    recentlyUpdated,
    withLicense,
    licenseCoverage: total === 0 ? 0 : Math.round((withLicense / total) * 100),
    mostCommonLicense: licenseDistribution(repositories)[0] ?? null,
  };
}

/** Repositories per licence ('No License' for none), most common first, then by name. */
export function licenseDistribution(repositories: readonly { license: string }[]): LicenseCount[] {
  const counts = new Map<string, LicenseCount>();
  for (const repository of repositories) {
    const name = displayLicense(repository.license);
    const key = name.toLowerCase();
    const entry = counts.get(key);
    if (entry) entry.count += 1;
    else counts.set(key, { name, count: 1 });
  }
  return [...counts.values()].sort((a, b) => b.count - a.count || byName.compare(a.name, b.name));
}

/** The most used topics, most common first, then by name. */
export function topTopics(repositories: readonly { topics: string }[], limit = 10): LicenseCount[] {
  const counts = new Map<string, LicenseCount>();
  for (const repository of repositories) {
    for (const key of lowerSet(repository.topics)) {
      const entry = counts.get(key);
      if (entry) entry.count += 1;
      else counts.set(key, { name: key, count: 1 });
    }
  }
  return [...counts.values()]
    .sort((a, b) => b.count - a.count || byName.compare(a.name, b.name))
    .slice(0, limit);
}

/** Bucket edges of the stars chart: roughly logarithmic, as star counts are. */
export const STAR_BUCKETS = [
  { label: '< 100', min: 0, max: 99 },
  { label: '100–999', min: 100, max: 999 },
  { label: '1k–10k', min: 1_000, max: 9_999 },
  { label: '10k–50k', min: 10_000, max: 49_999 },
  { label: '50k–100k', min: 50_000, max: 99_999 },
  { label: '100k+', min: 100_000, max: Number.POSITIVE_INFINITY },
] as const;

export function starDistribution(
  repositories: readonly { stars: number }[],
): { range: string; count: number }[] {
  const counts = STAR_BUCKETS.map((bucket) => ({ range: bucket.label, count: 0 }));
  for (const repository of repositories) {
    const index = STAR_BUCKETS.findIndex((bucket) => repository.stars <= bucket.max);
    const entry = counts[index === -1 ? 0 : index];
    if (entry) entry.count += 1;
  }
  return counts;
}

export interface DistinctValues {
  tags: string[];
  topics: string[];
  /** Including 'No License' when some repository has none. */
  licenses: string[];
}

function distinct(values: Iterable<string>): string[] {
  const byKey = new Map<string, string>();
  for (const value of values) {
    const key = value.toLowerCase();
    if (!byKey.has(key)) byKey.set(key, value);
  }
  return [...byKey.values()].sort(byName.compare);
}

/** The filters' choices come from the loaded data. */
export function distinctValues(repositories: readonly StatsRepository[]): DistinctValues {
  return {
    tags: distinct(repositories.flatMap((repository) => splitList(repository.tags))),
    topics: distinct(repositories.flatMap((repository) => splitList(repository.topics))),
    licenses: distinct(repositories.map((repository) => displayLicense(repository.license))),
  };
}

export { NO_LICENSE };
