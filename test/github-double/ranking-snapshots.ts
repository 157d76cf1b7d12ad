import { readFileSync } from 'node:fs';
import { parseCsvRecords } from './csv.ts';

/**
 * The two EvanLi/Github-Ranking exports in test/fixtures/github-ranking: real top repositories
 * a year apart, so switching between them simulates GitHub changing between two syncs.
 */
export const SNAPSHOT_DATES = ['2025-08-01', '2026-08-22'] as const;
export type SnapshotDate = (typeof SNAPSHOT_DATES)[number];

/** One repository as the ranking export describes it (first appearance when listed twice). */
export interface RankingRow {
  owner: string;
  name: string;
  fullName: string;
  stars: number;
  forks: number;
  /** null when GitHub detected no language. */
  language: string | null;
  /** Open issues without pull requests (GraphQL's `issues(states: OPEN)`). */
  openIssues: number;
  /** ISO date; the export's `last_commit` is GitHub's `pushedAt`. */
  lastCommit: string;
  /** null when the repository has no description. */
  description: string | null;
  /** Rank within the first list the repository appears in. */
  rank: number;
  /** Every list it appears in ('top-100-stars', 'Python', …). */
  lists: string[];
}

const EXPECTED_HEADER = [
  'rank',
  'item',
  'repo_name',
  'stars',
  'forks',
  'language',
  'repo_url',
  'username',
  'issues',
  'last_commit',
  'description',
];

// Parsed once per process: benchmarks and test files start many doubles.
const snapshotCache = new Map<SnapshotDate, ReadonlyMap<string, RankingRow>>();

export function rankingCsvUrl(date: SnapshotDate): URL {
  return new URL(`../fixtures/github-ranking/github-ranking-${date}.csv`, import.meta.url);
}

/** Rows of one snapshot keyed by lower-case full name (GitHub matches names case-insensitively). */
export function loadRankingSnapshot(date: SnapshotDate): ReadonlyMap<string, RankingRow> {
  const cached = snapshotCache.get(date);
  if (cached) {
    return cached;
  }
  const rows = parseRankingCsv(readFileSync(rankingCsvUrl(date), 'utf8'));
  snapshotCache.set(date, rows);
  return rows;
}

export function parseRankingCsv(text: string): ReadonlyMap<string, RankingRow> {
  const firstLine = text.slice(0, text.search(/\r?\n/));
  if (firstLine.replace(/^\uFEFF/, '') !== EXPECTED_HEADER.join(',')) {
    throw new Error(`Unexpected ranking CSV header: ${firstLine}`);
  }
  const rows = new Map<string, RankingRow>();
  for (const record of parseCsvRecords(text)) {
    const owner = field(record, 'username');
    const name = field(record, 'repo_name');
    const fullName = `${owner}/${name}`;
    const key = fullName.toLowerCase();
    const list = field(record, 'item');
    const existing = rows.get(key);
    if (existing) {
      // The same repository in several lists was scraped at slightly different moments; the
      // first (highest-ranked list) wins so the numbers stay those of one observation.
      existing.lists.push(list);
      continue;
    }
    rows.set(key, {
      owner,
      name,
      fullName,
      stars: toCount(field(record, 'stars'), fullName),
      forks: toCount(field(record, 'forks'), fullName),
      language: field(record, 'language') || null,
      openIssues: toCount(field(record, 'issues'), fullName),
      lastCommit: field(record, 'last_commit'),
      description: field(record, 'description') || null,
      rank: toCount(field(record, 'rank'), fullName),
      lists: [list],
    });
  }
  return rows;
}

function field(record: Record<string, string>, column: string): string {
  return record[column] ?? '';
}

function toCount(value: string, fullName: string): number {
  const count = Number(value);
  if (!Number.isInteger(count) || count < 0) {
    throw new Error(`Ranking CSV: ${fullName} has a non-count value '${value}'`);
  }
  return count;
}
