import type { DoubleRepository } from './catalogue.ts';
import { linkHeader, parsePageRequest } from './pagination.ts';
import type { Resolution } from './repository-directory.ts';
import type { DoubleRoute, RouteContext, RouteResult } from './rest-routes.ts';
import { restError } from './shapes.ts';
import { STAR_HISTORY_UNAVAILABLE } from './special-repositories.ts';
import { hashUnit } from './stable-hash.ts';

/**
 * GitHub's star history (`GET /repos/{owner}/{repo}/stargazers/history`, September 2026): stars
 * added per week, each week with its seven daily counts (Monday first), newest week first,
 * paginated with the usual `Link` header. The double derives the daily additions from the
 * repository's creation date and its `stargazers_count` in the served snapshot, so every day up
 * to today adds up to exactly `stargazers_count` (see README.md, "Star history").
 *
 * Only REST version 2026-03-10 has the endpoint: without `X-GitHub-Api-Version` (GitHub's
 * default, 2022-11-28) it answers 404 like any unknown route, and an unknown version 400.
 */

export const STAR_HISTORY_API_VERSION = '2026-03-10';
/** Versions GitHub's REST API answers to; only the newest has the star history. */
const KNOWN_API_VERSIONS = new Set(['2022-11-28', STAR_HISTORY_API_VERSION]);
const DAY_MS = 86_400_000;
export const STAR_HISTORY_DOCS = 'https://docs.github.com/rest/activity/starring#get-star-history';

export interface StarHistoryWeek {
  /** The week's Monday, `YYYY-MM-DD`. */
  week: string;
  /** Stars added on each day of the week, Monday first. */
  days: [number, number, number, number, number, number, number];
}

/** The Monday (UTC) of the week holding `ms`, as epoch ms at 00:00. */
function mondayOf(ms: number): number {
  const day = Math.floor(ms / DAY_MS) * DAY_MS;
  const weekday = (new Date(day).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  return day - weekday * DAY_MS;
}

const cache = new Map<string, StarHistoryWeek[]>();

/**
 * Every week from the one the repository was created in up to the current one, oldest first.
 * Daily weights follow a growth curve (a launch burst, steadier growth since, weekend dips and
 * a few viral weeks); the running total is scaled so that it ends at `stars` today, and days
 * after today are 0.
 */
export function starHistoryWeeks(repo: DoubleRepository, nowMs: number): StarHistoryWeek[] {
  const todayMs = Math.floor(nowMs / DAY_MS) * DAY_MS;
  const createdMs = Math.floor(Date.parse(repo.createdAt) / DAY_MS) * DAY_MS;
  const cacheKey = `${repo.key}:${repo.stars}:${todayMs}`;
  const cached = cache.get(cacheKey);
  if (cached) return cached;

  const firstMonday = mondayOf(Math.min(createdMs, todayMs));
  const dayCount = Math.round((todayMs - createdMs) / DAY_MS) + 1;
  const weights: number[] = [];
  let total = 0;
  for (let index = 0; index < Math.max(1, dayCount); index++) {
    const dayMs = createdMs + index * DAY_MS;
    const age = index / Math.max(1, dayCount - 1);
    const weekday = (new Date(dayMs).getUTCDay() + 6) % 7;
    const week = Math.floor((dayMs - firstMonday) / (7 * DAY_MS));
    const launch = 6 * Math.exp(-index / 10);
    const viral = hashUnit(`${repo.key}:stars-viral:${week}`) < 0.03 ? 4 : 1;
    const weight =
      (0.25 + age) * (weekday >= 5 ? 0.7 : 1) * viral * (0.6 + 0.8 * hashUnit(`${repo.key}:stars:${index}`)) +
      launch;
    total += weight;
    weights.push(total);
  }
  const daily = new Map<number, number>();
  let previous = 0;
  for (const [index, cumulative] of weights.entries()) {
    const upTo = index === weights.length - 1 ? repo.stars : Math.floor((repo.stars * cumulative) / total);
    daily.set(createdMs + index * DAY_MS, upTo - previous);
    previous = upTo;
  }

  const weeks: StarHistoryWeek[] = [];
  for (let monday = firstMonday; monday <= todayMs; monday += 7 * DAY_MS) {
    const days = Array.from({ length: 7 }, (_, offset) => daily.get(monday + offset * DAY_MS) ?? 0);
    weeks.push({
      week: new Date(monday).toISOString().slice(0, 10),
      days: days as StarHistoryWeek['days'],
    });
  }
  if (cache.size > 200) cache.clear();
  cache.set(cacheKey, weeks);
  return weeks;
}

/** Both routes: by name (a former name answers 301 to the id route) and by id. */
export const STAR_HISTORY_ROUTES: readonly DoubleRoute[] = [
  {
    method: 'GET',
    template: '/repos/{owner}/{repo}/stargazers/history',
    pattern: /^\/repos\/(?<owner>[^/]+)\/(?<repo>[^/]+)\/stargazers\/history\/?$/,
    resource: 'core',
    handle: (context) => {
      let name: string;
      try {
        name = `${decodeURIComponent(context.params.owner ?? '')}/${decodeURIComponent(context.params.repo ?? '')}`;
      } catch {
        return notFound();
      }
      return answer(context, context.directory.resolveName(name, context.caller));
    },
  },
  {
    method: 'GET',
    template: '/repositories/{id}/stargazers/history',
    pattern: /^\/repositories\/(?<id>\d+)\/stargazers\/history\/?$/,
    resource: 'core',
    handle: (context) =>
      answer(context, context.directory.resolveId(Number(context.params.id), context.caller)),
  },
];

function notFound(): RouteResult {
  return { status: 404, body: restError('Not Found', STAR_HISTORY_DOCS, 404) };
}

function answer(context: RouteContext, resolution: Resolution): RouteResult {
  const version = headerValue(context.headers['x-github-api-version']);
  if (version !== undefined && !KNOWN_API_VERSIONS.has(version)) {
    return {
      status: 400,
      body: restError(
        `Unsupported 'X-GitHub-Api-Version' header value '${version}'. Supported versions: ${[...KNOWN_API_VERSIONS].join(', ')}.`,
        'https://docs.github.com/rest/about-the-rest-api/api-versions',
        400,
      ),
    };
  }
  // The endpoint exists from REST version 2026-03-10 on; older versions don't route it.
  if (version !== STAR_HISTORY_API_VERSION) return notFound();
  if (resolution.kind === 'missing') return notFound();
  if (resolution.kind === 'moved') {
    const location = `${context.baseUrl}/repositories/${resolution.repo.id}/stargazers/history${context.url.search}`;
    return {
      status: 301,
      body: {
        message: 'Moved Permanently',
        url: location,
        documentation_url: 'https://docs.github.com/v3/#http-redirects',
      },
      headers: { location },
    };
  }
  const repo = resolution.repo;
  const unavailable = STAR_HISTORY_UNAVAILABLE.get(repo.fullName.toLowerCase());
  if (unavailable === 404) return notFound();
  if (unavailable === 403)
    return {
      status: 403,
      body: restError('Star history is not available for this repository.', STAR_HISTORY_DOCS, 403),
    };
  if (unavailable === 410)
    return {
      status: 410,
      body: restError('Star history is no longer available for this repository.', STAR_HISTORY_DOCS, 410),
    };

  const weeks = [...starHistoryWeeks(repo, context.nowMs)].reverse();
  const page = parsePageRequest(context.url.searchParams);
  const slice = weeks.slice((page.page - 1) * page.perPage, page.page * page.perPage);
  const link = linkHeader(
    `${context.baseUrl}/repositories/${repo.id}/stargazers/history`,
    context.url.searchParams,
    page,
    weeks.length,
  );
  return {
    status: 200,
    body: slice.map((item) => ({ week: item.week, days: [...item.days], total: sum(item.days) })),
    headers: link ? { link } : {},
    conditional: true,
  };
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
