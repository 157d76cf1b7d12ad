/**
 * The catalogue queried on the server (docs/product.md#catalogue-queries): search, filters,
 * sort and keyset paging of `GET /repositories/`, the same filters on the export, statistics
 * and tag counts, and the sidebar counts. Every request parameter and every answer of those
 * calls is defined here; the web builds its requests with `catalogueSearchParams`.
 */
import { z } from 'zod';
import { MAX_STARS_NEGATIVE, MIN_GREATER_THAN_MAX, MIN_STARS_NEGATIVE } from '../stats.ts';
import { ADVISORY_SEVERITIES, openAdvisoriesSchema } from './advisories.ts';
import { DECISION_STATUSES, type DecisionStatus } from './decisions.ts';
import { HEALTH_GRADES, type HealthGrade } from './health.ts';
import { repositorySummarySchema } from './repositories.ts';

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

/** Every list column the catalogue sorts by. */
export const CATALOGUE_SORTS = [
  'name',
  'description',
  'license',
  'stars',
  'forks',
  'issues',
  'commits',
  'last_commit',
  'last_synced',
  'created_at',
  'updated_at',
  'growth_7d',
  'growth_30d',
  'health',
] as const;
export type CatalogueSort = (typeof CATALOGUE_SORTS)[number];
export type CatalogueOrder = 'asc' | 'desc';

/** `health=at_risk,watch` as grades; null when it names none or one that is not a grade. */
export function parseHealthGrades(value: string): HealthGrade[] | null {
  const parts = [
    ...new Set(
      value
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean),
    ),
  ];
  if (parts.length === 0 || !parts.every((part) => (HEALTH_GRADES as readonly string[]).includes(part)))
    return null;
  return parts as HealthGrade[];
}

/** What `status=` takes: the decision statuses, and `none` for repositories without one. */
export const STATUS_FILTER_VALUES = [...DECISION_STATUSES, 'none'] as const;
export type StatusFilterValue = DecisionStatus | 'none';
export const STATUS_FILTER_MESSAGE = `status takes one or more of ${STATUS_FILTER_VALUES.join(', ')}, comma-separated`;

/** `status=adopt,none` as values; null when it names none or one that is not allowed. */
export function parseStatusFilter(value: string): StatusFilterValue[] | null {
  const parts = [
    ...new Set(
      value
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean),
    ),
  ];
  if (
    parts.length === 0 ||
    !parts.every((part) => (STATUS_FILTER_VALUES as readonly string[]).includes(part))
  )
    return null;
  return parts as StatusFilterValue[];
}

/** No `sort`: newest commit first (the list's default). */
export const DEFAULT_CATALOGUE_SORT: CatalogueSort = 'last_commit';
export const DEFAULT_CATALOGUE_ORDER: CatalogueOrder = 'desc';

/** A `sort` without `order` starts descending for these columns, ascending otherwise (as a column click does). */
const DESCENDING_FIRST: ReadonlySet<CatalogueSort> = new Set([
  'last_synced',
  'created_at',
  'updated_at',
  'stars',
  'forks',
  'issues',
  'commits',
  'growth_7d',
  'growth_30d',
  'health',
]);

export function defaultCatalogueOrder(sort: CatalogueSort): CatalogueOrder {
  return DESCENDING_FIRST.has(sort) ? 'desc' : 'asc';
}

export const CATALOGUE_PAGE_DEFAULT = 50;
export const CATALOGUE_PAGE_MAX = 500;
export const CATALOGUE_SEARCH_MAX = 200;
/** The most stars a filter takes: PostgreSQL's `integer`. */
const STARS_MAX = 2_147_483_647;

/** Control characters can't be typed into a search box; one would only ever be a malformed request. */
function hasControlCharacter(value: string): boolean {
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

const booleanParam = (name: string) =>
  z
    .enum(['true', 'false', '1', '0'], { error: `${name} must be true or false` })
    .transform((value) => value === 'true' || value === '1');

const starsParam = (label: string, negative: string) =>
  z.coerce
    .number({ error: `${label} must be a whole number.` })
    .int(`${label} must be a whole number.`)
    .min(0, negative)
    .max(STARS_MAX, `${label} is too large.`);

/** A comma-separated list: every entry must be present (AND), compared case-insensitively. */
const listParam = (what: string) =>
  z
    .string()
    .max(2000, `${what} are too long`)
    .describe(`comma-separated; every one must be present (AND), case-insensitive`);

/** The filters every catalogue call takes (list, export, statistics, tags). */
export const catalogueFilterShape = {
  q: z
    .string()
    .max(CATALOGUE_SEARCH_MAX, `Search is at most ${CATALOGUE_SEARCH_MAX} characters`)
    .refine((value) => !hasControlCharacter(value), 'Search may not contain control characters')
    .optional()
    .describe('case-insensitive substring of the name, full id, description, tags or licence'),
  tags: listParam('Tags').optional(),
  topics: listParam('Topics').optional(),
  license: z
    .string()
    .max(100, 'License is at most 100 characters')
    .optional()
    .describe("exact, case-insensitive; 'No License' matches repositories without one"),
  language: z
    .string()
    .max(100, 'Language is at most 100 characters')
    .optional()
    .describe('exact, case-insensitive'),
  min_stars: starsParam('Minimum stars', MIN_STARS_NEGATIVE).optional(),
  max_stars: starsParam('Maximum stars', MAX_STARS_NEGATIVE).optional(),
  min_growth_30d: z.coerce
    .number({ error: 'Minimum growth (30 days) must be a whole number.' })
    .int('Minimum growth (30 days) must be a whole number.')
    .min(-STARS_MAX, 'Minimum growth (30 days) is too small.')
    .max(STARS_MAX, 'Minimum growth (30 days) is too large.')
    .optional()
    .describe(
      'stars gained in the last 30 days at least this (repositories without 30 days of history never match)',
    ),
  health: z
    .string()
    .max(200)
    .refine((value) => parseHealthGrades(value) !== null, {
      error: `health takes one or more of ${HEALTH_GRADES.join(', ')}, comma-separated`,
    })
    .optional()
    .describe("health grades, comma-separated ('unknown' includes the repositories not assessed yet)"),
  status: z
    .string()
    .max(200, STATUS_FILTER_MESSAGE)
    .refine((value) => parseStatusFilter(value) !== null, { error: STATUS_FILTER_MESSAGE })
    .optional()
    .describe(
      `the team's decision status, comma-separated (${STATUS_FILTER_VALUES.join(', ')}; 'none': no status)`,
    ),
  advisories: z
    .enum(ADVISORY_SEVERITIES, {
      error: `advisories takes a minimum severity: one of ${ADVISORY_SEVERITIES.join(', ')}`,
    })
    .optional()
    .describe("repositories with an open security advisory at least this severe ('unknown' counts lowest)"),
  archived: booleanParam('archived').optional(),
  gone: booleanParam('gone').optional(),
  added_by: z
    .enum(['me'], { error: "added_by takes only 'me'" })
    .optional()
    .describe("'me': only repositories the caller added"),
};

const sortShape = {
  sort: z
    .enum(CATALOGUE_SORTS, { error: `Unknown sort column: use one of ${CATALOGUE_SORTS.join(', ')}` })
    .optional()
    .describe('default last_commit'),
  order: z
    .enum(['asc', 'desc'], { error: 'order must be asc or desc' })
    .optional()
    .describe(
      "default: desc for last_commit without sort, else the column's own (desc for counts and dates but last_commit)",
    ),
};

const pageShape = {
  limit: z.coerce
    .number({ error: `limit must be a whole number from 1 to ${CATALOGUE_PAGE_MAX}` })
    .int(`limit must be a whole number from 1 to ${CATALOGUE_PAGE_MAX}`)
    .min(1, `limit must be a whole number from 1 to ${CATALOGUE_PAGE_MAX}`)
    .max(CATALOGUE_PAGE_MAX, `limit must be a whole number from 1 to ${CATALOGUE_PAGE_MAX}`)
    .optional()
    .describe(`rows per page, default ${CATALOGUE_PAGE_DEFAULT}`),
  cursor: z
    .string()
    .max(2000, 'Invalid cursor')
    .optional()
    .describe('next_cursor of the previous page, sent with the same filters and sort'),
};

/** min ≤ max, reported on min_stars as the statistics screen does. */
function refineStarRange(value: { min_stars?: number; max_stars?: number }, ctx: z.RefinementCtx) {
  if (value.min_stars !== undefined && value.max_stars !== undefined && value.min_stars > value.max_stars) {
    ctx.addIssue({ code: 'custom', message: MIN_GREATER_THAN_MAX, path: ['min_stars'] });
  }
}

/** Statistics and tag counts: the filters only. */
export const catalogueFilterQuerySchema = z.object(catalogueFilterShape).superRefine(refineStarRange);
/** The CSV export: the filters and the sort, every matching row. */
export const catalogueExportQuerySchema = z
  .object({ ...catalogueFilterShape, ...sortShape })
  .superRefine(refineStarRange);
/** `GET /repositories/` and `GET /auth/admin/repositories`: any parameter asks for one page. */
export const catalogueListQuerySchema = z
  .object({ ...catalogueFilterShape, ...sortShape, ...pageShape })
  .superRefine(refineStarRange);

export type CatalogueFilters = z.output<typeof catalogueFilterQuerySchema>;
export type CatalogueExportQuery = z.output<typeof catalogueExportQuerySchema>;
export type CatalogueListQuery = z.output<typeof catalogueListQuerySchema>;

/** True when a list call asked for a page: any parameter at all (none keeps the whole-catalogue answer). */
export function isPageRequest(query: CatalogueListQuery): boolean {
  return Object.values(query).some((value) => value !== undefined);
}

/**
 * The query string of a catalogue call from typed values: booleans as `true`/`false`, unset
 * and empty values left out. A list call must carry at least one parameter to be paged, so
 * send `limit` even when nothing is filtered.
 */
export function catalogueSearchParams(query: Partial<CatalogueListQuery>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, String(value));
  }
  return params;
}

// ---------------------------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------------------------

/** One page of the catalogue. `next_cursor` is null on the last page. */
export const repositoryPageSchema = z
  .object({
    repositories: z.array(repositorySummarySchema),
    total: z.number().int().nonnegative().describe('every row matching the filters, across all pages'),
    next_cursor: z.string().nullable(),
  })
  .meta({ id: 'RepositoryPage' });
export type RepositoryPage = z.infer<typeof repositoryPageSchema>;

/**
 * `GET /repositories/`'s answer: with no query parameter the whole visible catalogue
 * `{ repositories }` (the original answer, kept), with any a `RepositoryPage`.
 */
export const repositoryListOrPageResponseSchema = z
  .object({
    repositories: z.array(repositorySummarySchema),
    total: z.number().int().nonnegative().optional().describe('present on a page'),
    next_cursor: z.string().nullable().optional().describe('present on a page; null on the last one'),
  })
  .meta({ id: 'RepositoryListOrPage' });

/** `GET /auth/admin/repositories`: `{ repositories, total }`, plus `next_cursor` on a page. */
export const adminRepositoryListOrPageResponseSchema = z
  .object({
    repositories: z.array(repositorySummarySchema),
    total: z.number().int().nonnegative(),
    next_cursor: z.string().nullable().optional().describe('present on a page; null on the last one'),
  })
  .meta({ id: 'AdminRepositoryListOrPage' });

export const nameCountSchema = z.object({ name: z.string(), count: z.number().int().nonnegative() });
export type NameCount = z.infer<typeof nameCountSchema>;

/** The statistics screen's cards over the filtered repositories. */
export const statCardsSchema = z.object({
  total_repositories: z.number().int().nonnegative(),
  total_stars: z.number().int().nonnegative(),
  /** One decimal. */
  average_stars: z.number().nonnegative(),
  total_forks: z.number().int().nonnegative(),
  total_issues: z.number().int().nonnegative(),
  total_commits: z.number().int().nonnegative(),
  /** Each repository counts at most 1,000. */
  total_contributors: z.number().int().nonnegative(),
  /** A commit in the last 30 days. */
  recently_updated: z.number().int().nonnegative(),
  with_license: z.number().int().nonnegative(),
  /** Percentage of repositories with a licence, rounded. */
  license_coverage: z.number().int().nonnegative(),
  /** Missing licences count as 'No License'; null without repositories. */
  most_common_license: nameCountSchema.nullable(),
});
export type StatCards = z.infer<typeof statCardsSchema>;

/** One repository of "Fastest growing, last 30 days". */
export const growingRepositorySchema = z.object({
  /** GitHub full name, owner/name (the repository's id in the API). */
  id: z.string(),
  name: z.string(),
  stars: z.number().int(),
  stars_30d: z.number().int(),
});
export type GrowingRepository = z.infer<typeof growingRepositorySchema>;

/** How many repositories "Fastest growing" lists. */
export const FASTEST_GROWING_LIMIT = 10;

export const catalogueStatsResponseSchema = z
  .object({
    /** Every repository the caller may see, filters aside ("… of Y repositories"). */
    catalogue_total: z.number().int().nonnegative(),
    cards: statCardsSchema,
    /** Repositories per licence ('No License' for none), most common first, then by name. */
    licenses: z.array(nameCountSchema),
    /** The 10 most used topics (lower-cased), most common first, then by name. */
    top_topics: z.array(nameCountSchema),
    /**
     * The 10 repositories that gained the most stars in the last 30 days (more than none),
     * most first, then by name; those without 30 days of history are left out.
     */
    fastest_growing: z.array(growingRepositorySchema),
    /** Repositories per health grade, every grade in order (the never assessed are `unknown`). */
    health_grades: z.array(z.object({ grade: z.enum(HEALTH_GRADES), count: z.number().int().nonnegative() })),
    /**
     * Repositories per decision status (docs/product.md#team-decisions), every status in order,
     * then `none` (no status).
     */
    decision_statuses: z.array(
      z.object({ status: z.enum(STATUS_FILTER_VALUES), count: z.number().int().nonnegative() }),
    ),
    /** Open security advisories by severity over the matching repositories. */
    open_advisories: openAdvisoriesSchema,
    /** The stars chart's buckets, in order, empty ones included. */
    star_buckets: z.array(z.object({ label: z.string(), count: z.number().int().nonnegative() })),
    /** What the filter inputs offer: distinct values over every visible repository, by name. */
    options: z.object({
      tags: z.array(z.string()),
      topics: z.array(z.string()),
      /** 'No License' included when some repository has none. */
      licenses: z.array(z.string()),
    }),
  })
  .meta({ id: 'CatalogueStats' });
export type CatalogueStats = z.infer<typeof catalogueStatsResponseSchema>;

export const tagsResponseSchema = z
  .object({
    /** Every tag over the (filtered) visible repositories with its repository count, by name. */
    tags: z.array(nameCountSchema),
    /** Up to 8 most used tags of the caller's own repositories, by count then name. */
    suggestions: z.array(nameCountSchema),
  })
  .meta({ id: 'TagCounts' });
export type TagsResponse = z.infer<typeof tagsResponseSchema>;

export const catalogueCountsResponseSchema = z
  .object({
    /** Every repository the caller may see. */
    total: z.number().int().nonnegative(),
    /** Of those, the ones the caller added. */
    mine: z.number().int().nonnegative(),
    /** Distinct tags (case-insensitive) over every repository the caller may see. */
    tags: z.number().int().nonnegative(),
  })
  .meta({ id: 'CatalogueCounts' });
export type CatalogueCounts = z.infer<typeof catalogueCountsResponseSchema>;
