import { SEVERITY_RANK } from '#shared/schemas/advisories.ts';
import {
  type CatalogueFilters,
  parseHealthGrades,
  parseStatusFilter,
  type StatusFilterValue,
} from '#shared/schemas/catalogue.ts';
import type { HealthGrade } from '#shared/schemas/health.ts';
import { labelKey } from '../../repository/repository-labels.ts';

/**
 * The list's filters as the queries use them (docs/product.md#catalogue-queries): parsed once
 * from the query string, keys lower-cased, empty values dropped.
 */

/** Filters in the form the queries use: keys lower-cased, empty values dropped. */
export interface NormalizedFilters {
  /** Lower-cased, trimmed search text; null for none. */
  needle: string | null;
  tags: string[];
  topics: string[];
  license: string | null;
  language: string | null;
  minStars: number | null;
  maxStars: number | null;
  minGrowth30d: number | null;
  /** Health grades to keep (`unknown` also keeps the never assessed); null for any. */
  healthGrades: HealthGrade[] | null;
  /** Decision statuses to keep (`none`: without a status); null for any. */
  statuses: StatusFilterValue[] | null;
  /** Keep repositories with an open advisory at least this severe (its rank); null for any. */
  minAdvisoryLevel: number | null;
  archived: boolean | null;
  gone: boolean | null;
  addedByMe: boolean;
}

/** Lower-cases A–Z only, as SQLite's and "C"-collated PostgreSQL's `lower()` do. */
function asciiLower(value: string): string {
  return value.replace(/[A-Z]/g, (char) => char.toLowerCase());
}

function keys(list: string | undefined): string[] {
  if (!list) return [];
  return [...new Set(list.split(',').map(labelKey).filter(Boolean))].sort();
}

export function normalizeFilters(query: CatalogueFilters): NormalizedFilters {
  const needle = (query.q ?? '').trim().toLowerCase();
  const license = asciiLower((query.license ?? '').trim());
  const language = asciiLower((query.language ?? '').trim());
  return {
    needle: needle === '' ? null : needle,
    tags: keys(query.tags),
    topics: keys(query.topics),
    license: license === '' ? null : license,
    language: language === '' ? null : language,
    minStars: query.min_stars ?? null,
    maxStars: query.max_stars ?? null,
    minGrowth30d: query.min_growth_30d ?? null,
    healthGrades: query.health ? parseHealthGrades(query.health) : null,
    statuses: query.status ? (parseStatusFilter(query.status)?.sort() ?? null) : null,
    minAdvisoryLevel: query.advisories ? SEVERITY_RANK[query.advisories] : null,
    archived: query.archived ?? null,
    gone: query.gone ?? null,
    addedByMe: query.added_by === 'me',
  };
}

/** Search text, tags or topics: the filters answered by an id set of derived rows (`idSet`). */
export function hasIdSetFilters(filters: NormalizedFilters): boolean {
  return filters.needle !== null || filters.tags.length > 0 || filters.topics.length > 0;
}

/** The filters on the repository's own columns. */
export function hasColumnFilters(filters: NormalizedFilters): boolean {
  return (
    filters.license !== null ||
    filters.language !== null ||
    filters.minStars !== null ||
    filters.maxStars !== null ||
    filters.minGrowth30d !== null ||
    filters.healthGrades !== null ||
    filters.statuses !== null ||
    filters.minAdvisoryLevel !== null ||
    filters.archived !== null ||
    filters.gone !== null ||
    filters.addedByMe
  );
}

export function hasFilters(filters: NormalizedFilters): boolean {
  return hasIdSetFilters(filters) || hasColumnFilters(filters);
}
