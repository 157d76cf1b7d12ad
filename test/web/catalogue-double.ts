import { ADVISORY_SEVERITIES, SEVERITY_RANK } from '#shared/schemas/advisories.ts';
/**
 * The catalogue calls of the API (docs/product.md#catalogue-queries) answered from an in-memory
 * list, for component tests: `GET /repositories/` one page at a time with keyset-like cursors,
 * `GET /repositories/stats`, `GET /tags`, `GET /repositories/counts` and the admin list. Requests
 * are checked with the contract's own zod schemas (a malformed one answers 400 as the server
 * does), and every call is recorded so a test can see what the screen asked for.
 *
 * It follows the server's documented rules — substring search over name, full id, description,
 * tags and licence; AND of tags and topics; NULLs last either way, ties by id; a cursor only
 * valid with the filters and sort that made it — not its SQL; the server's own tests hold the
 * real thing to the same rules on both databases.
 */
import {
  CATALOGUE_PAGE_DEFAULT,
  type CatalogueCounts,
  type CatalogueFilters,
  type CatalogueListQuery,
  type CatalogueStats,
  catalogueFilterQuerySchema,
  catalogueListQuerySchema,
  defaultCatalogueOrder,
  parseHealthGrades,
  parseStatusFilter,
  STATUS_FILTER_VALUES,
  type TagsResponse,
} from '#shared/schemas/catalogue.ts';
import { HEALTH_GRADES } from '#shared/schemas/health.ts';
import type { RepositorySummary } from '#shared/schemas/repositories.ts';
import {
  computeStats,
  distinctValues,
  licenseDistribution,
  starDistribution,
  topTopics,
} from '#shared/stats.ts';
import { countDistinctTags, countTags, tagSuggestions } from '#shared/tag-colors.ts';
import { type FetchHandler, jsonResponse, renderApp, signIn } from './render.tsx';

export interface CatalogueCall {
  /** `METHOD /path`. */
  route: string;
  params: URLSearchParams;
}

export interface CatalogueDoubleOptions {
  /** Whose repositories `added_by=me`, `mine` and the tag suggestions count (default 1, `buildUser`'s id). */
  viewerId?: number;
  /** "Recently updated" is counted from here (default: the real clock). */
  now?: Date;
}

type Issues = { path: PropertyKey[]; message: string }[];

function badRequest(issues: Issues): Response {
  const fields: Record<string, string> = {};
  for (const issue of issues) fields[String(issue.path[0] ?? 'query')] ??= issue.message;
  return jsonResponse(
    { message: issues[0]?.message ?? 'Invalid request', code: 'validation_failed', fields },
    { status: 400 },
  );
}

const entries = (list: string) =>
  list
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);

function matches(row: RepositorySummary, filters: Partial<CatalogueFilters>, viewerId: number): boolean {
  const needle = (filters.q ?? '').trim().toLowerCase();
  if (needle) {
    const text = [row.name, row.id, row.description ?? '', row.tags, row.license].join('\n').toLowerCase();
    if (!text.includes(needle)) return false;
  }
  const rowTags = entries(row.tags);
  if (!entries(filters.tags ?? '').every((tag) => rowTags.includes(tag))) return false;
  const rowTopics = entries(row.topics);
  if (!entries(filters.topics ?? '').every((topic) => rowTopics.includes(topic))) return false;
  const license = (filters.license ?? '').trim().toLowerCase();
  const rowLicense = row.license.trim().toLowerCase();
  if (license === 'no license' && rowLicense !== '' && rowLicense !== 'no license') return false;
  if (license && license !== 'no license' && rowLicense !== license) return false;
  const language = (filters.language ?? '').trim().toLowerCase();
  if (language && (row.language ?? '').toLowerCase() !== language) return false;
  if (filters.min_stars !== undefined && row.stars < filters.min_stars) return false;
  if (filters.max_stars !== undefined && row.stars > filters.max_stars) return false;
  if (
    filters.min_growth_30d !== undefined &&
    (row.growth.stars_30d === null || row.growth.stars_30d < filters.min_growth_30d)
  )
    return false;
  const grades = filters.health ? (parseHealthGrades(filters.health) ?? []) : [];
  if (grades.length > 0 && !grades.includes(row.health.grade)) return false;
  const statuses = filters.status ? (parseStatusFilter(filters.status) ?? []) : [];
  if (statuses.length > 0 && !statuses.includes(row.decision?.status ?? 'none')) return false;
  if (filters.advisories !== undefined) {
    const floor = SEVERITY_RANK[filters.advisories];
    if (
      !ADVISORY_SEVERITIES.some(
        (severity) => row.open_advisories[severity] > 0 && SEVERITY_RANK[severity] >= floor,
      )
    )
      return false;
  }
  if (filters.archived !== undefined && row.archived !== filters.archived) return false;
  if (filters.gone !== undefined && row.gone !== filters.gone) return false;
  if (filters.added_by === 'me' && row.user_id !== viewerId) return false;
  return true;
}

function sortKey(
  row: RepositorySummary,
  sort: NonNullable<CatalogueListQuery['sort']>,
): string | number | null {
  switch (sort) {
    case 'name':
      return row.name.toLowerCase();
    case 'description':
      return row.description?.trim().toLowerCase() || null;
    case 'license':
      return row.license.trim().toLowerCase() || null;
    case 'stars':
    case 'forks':
    case 'issues':
    case 'commits':
      return row[sort];
    case 'growth_7d':
      return row.growth.stars_7d;
    case 'growth_30d':
      return row.growth.stars_30d;
    case 'health':
      return row.health.score;
    default: {
      const value = row[sort];
      return value ? Date.parse(value) : null;
    }
  }
}

/** The matching rows in the query's order: NULLs last either way, ties by id. */
function ordered(
  rows: readonly RepositorySummary[],
  query: CatalogueListQuery,
  viewerId: number,
): RepositorySummary[] {
  const sort = query.sort ?? 'last_commit';
  const order = query.order ?? (query.sort ? defaultCatalogueOrder(query.sort) : 'desc');
  const sign = order === 'asc' ? 1 : -1;
  return rows
    .filter((row) => matches(row, query, viewerId))
    .map((row) => ({ row, key: sortKey(row, sort) }))
    .sort((a, b) => {
      if (a.key === null || b.key === null) {
        if (a.key !== b.key) return a.key === null ? 1 : -1;
        return sign * a.row.id.localeCompare(b.row.id);
      }
      const byKey =
        typeof a.key === 'number' && typeof b.key === 'number'
          ? a.key - b.key
          : String(a.key).localeCompare(String(b.key));
      return sign * (byKey !== 0 ? byKey : a.row.id.localeCompare(b.row.id));
    })
    .map((entry) => entry.row);
}

/** Everything a cursor must be sent with again: the query without its paging. */
function fingerprint(query: CatalogueListQuery): string {
  const { limit: _limit, cursor: _cursor, ...rest } = query;
  return JSON.stringify(Object.entries(rest).sort(([a], [b]) => a.localeCompare(b)));
}

function page(rows: readonly RepositorySummary[], query: CatalogueListQuery, viewerId: number): Response {
  const matching = ordered(rows, query, viewerId);
  let start = 0;
  if (query.cursor !== undefined) {
    let decoded: { after?: unknown; query?: unknown };
    try {
      decoded = JSON.parse(atob(query.cursor));
    } catch {
      return badRequest([{ path: ['cursor'], message: 'Invalid cursor: start again without it.' }]);
    }
    if (decoded.query !== fingerprint(query)) {
      return badRequest([
        {
          path: ['cursor'],
          message: 'This cursor belongs to another search, filter or sort: start again without it.',
        },
      ]);
    }
    // Keyset, as the server: after the last row of the previous page, wherever it now is.
    const index = matching.findIndex((row) => row.id === decoded.after);
    start = index + 1;
  }
  const limit = query.limit ?? CATALOGUE_PAGE_DEFAULT;
  const slice = matching.slice(start, start + limit);
  const last = slice.at(-1);
  const more = start + limit < matching.length;
  return jsonResponse({
    repositories: slice,
    total: matching.length,
    next_cursor: more && last ? btoa(JSON.stringify({ after: last.id, query: fingerprint(query) })) : null,
  });
}

/** A catalogue of `rows` behind the API's catalogue calls; `rows` may be changed between calls. */
export function catalogueDouble(rows: RepositorySummary[], options: CatalogueDoubleOptions = {}) {
  const viewerId = options.viewerId ?? 1;
  const calls: CatalogueCall[] = [];
  const record = (route: string, request: Request) => {
    const params = new URL(request.url).searchParams;
    calls.push({ route, params });
    return Object.fromEntries(params);
  };

  const listHandler =
    (route: string): FetchHandler =>
    (request) => {
      const raw = record(route, request);
      if (Object.keys(raw).length === 0) return jsonResponse({ repositories: rows, total: rows.length });
      const parsed = catalogueListQuerySchema.safeParse(raw);
      if (!parsed.success) return badRequest(parsed.error.issues);
      return page(rows, parsed.data, viewerId);
    };

  const filtersOf = (route: string, request: Request) => {
    const parsed = catalogueFilterQuerySchema.safeParse(record(route, request));
    return parsed;
  };

  const handlers: Record<string, FetchHandler> = {
    'GET /repositories/': listHandler('GET /repositories/'),
    'GET /auth/admin/repositories': listHandler('GET /auth/admin/repositories'),
    'GET /repositories/stats': (request) => {
      const parsed = filtersOf('GET /repositories/stats', request);
      if (!parsed.success) return badRequest(parsed.error.issues);
      const matching = rows.filter((row) => matches(row, parsed.data, viewerId));
      const cards = computeStats(matching, options.now);
      const body: CatalogueStats = {
        catalogue_total: rows.length,
        cards: {
          total_repositories: cards.totalRepositories,
          total_stars: cards.totalStars,
          average_stars: cards.averageStars,
          total_forks: cards.totalForks,
          total_issues: cards.totalIssues,
          total_commits: cards.totalCommits,
          total_contributors: cards.totalContributors,
          recently_updated: cards.recentlyUpdated,
          with_license: cards.withLicense,
          license_coverage: cards.licenseCoverage,
          most_common_license: cards.mostCommonLicense,
        },
        licenses: licenseDistribution(matching),
        top_topics: topTopics(matching, 10),
        decision_statuses: STATUS_FILTER_VALUES.map((status) => ({
          status,
          count: matching.filter((row) => (row.decision?.status ?? 'none') === status).length,
        })),
        health_grades: HEALTH_GRADES.map((grade) => ({
          grade,
          count: matching.filter((row) => row.health.grade === grade).length,
        })),
        open_advisories: Object.fromEntries(
          ADVISORY_SEVERITIES.map((severity) => [
            severity,
            matching.reduce((sum, row) => sum + row.open_advisories[severity], 0),
          ]),
        ) as CatalogueStats['open_advisories'],
        fastest_growing: matching
          .filter((row) => (row.growth.stars_30d ?? 0) > 0)
          .sort((a, b) => (b.growth.stars_30d ?? 0) - (a.growth.stars_30d ?? 0) || b.id.localeCompare(a.id))
          .slice(0, 10)
          .map((row) => ({
            id: row.id,
            name: row.name,
            stars: row.stars,
            stars_30d: row.growth.stars_30d ?? 0,
          })),
        star_buckets: starDistribution(matching).map(({ range, count }) => ({ label: range, count })),
        options: distinctValues(rows),
      };
      return jsonResponse(body);
    },
    'GET /tags': (request) => {
      const parsed = filtersOf('GET /tags', request);
      if (!parsed.success) return badRequest(parsed.error.issues);
      const body: TagsResponse = {
        tags: countTags(rows.filter((row) => matches(row, parsed.data, viewerId))),
        suggestions: tagSuggestions(rows, viewerId),
      };
      return jsonResponse(body);
    },
    'GET /repositories/counts': (request) => {
      record('GET /repositories/counts', request);
      const body: CatalogueCounts = {
        total: rows.length,
        mine: rows.filter((row) => row.user_id === viewerId).length,
        tags: countDistinctTags(rows),
      };
      return jsonResponse(body);
    },
  };

  return {
    handlers,
    calls,
    /** The query strings of one call, in order (`'GET /repositories/'` by default). */
    requests: (route = 'GET /repositories/') =>
      calls.filter((call) => call.route === route).map((call) => call.params),
  };
}

/**
 * A signed-in member on `route` over a catalogue of `rows`; `overrides` replace single calls
 * (a failing one, a slow one).
 */
export function renderWithCatalogue(
  route: string,
  rows: RepositorySummary[],
  overrides: (catalogue: ReturnType<typeof catalogueDouble>) => Record<string, FetchHandler> = () => ({}),
) {
  signIn();
  const catalogue = catalogueDouble(rows);
  const rendered = renderApp({ route, handlers: { ...catalogue.handlers, ...overrides(catalogue) } });
  return { ...rendered, catalogue };
}
