import { parseTime } from '../lib/clock.ts';
import { GitHubError } from './github-error.ts';
import { countFromLink } from './link-header.ts';
import { headerString, NotAvailable, type RestAnswer, type RestCaller, splitFullName } from './rest-call.ts';
import type { PaceOption } from './transport.ts';

/** The REST version that has the star history (docs/decisions.md, "Star history from GitHub"). */
export const STAR_HISTORY_API_VERSION = '2026-03-10';
/** Weeks per page of the star history: GitHub's usual maximum. */
const STAR_HISTORY_PER_PAGE = 100;
/** Pages read at most (10,000 weeks): a guard against a Link header that never ends. */
const STAR_HISTORY_MAX_PAGES = 100;

/** One week of GitHub's star history: stars added on each of its seven days, its first day first. */
export interface StarHistoryWeek {
  /** The week's first day, `YYYY-MM-DD`. */
  week: string;
  days: number[];
}

/** The star history, or the status GitHub answered when it has none to give (404, 403, 410). */
export type StarHistoryRead =
  | { available: true; weeks: StarHistoryWeek[] }
  | { available: false; status: number };

export type StarHistoryOptions = PaceOption & { beforePage?: (page: number) => Promise<void> };

/**
 * GitHub's star history (`GET /repos/{owner}/{repo}/stargazers/history`, REST version
 * 2026-03-10): every week's daily additions, all pages of 100, in GitHub's order. Always with
 * a token (never anonymous). 404, 403 (unless it is a rate limit) and 410 mean GitHub has no
 * history to give: `{ available: false, status }`. Extra fields are ignored; an item without
 * a `week` date and seven counts fails the read. `beforePage` runs before every page, so
 * the lowest-priority caller can stop between them.
 */
export async function readStarHistory(
  rest: RestCaller,
  fullName: string,
  token: string,
  options: StarHistoryOptions = {},
): Promise<StarHistoryRead> {
  if (!token) throw new Error('the star history is read with a token only');
  const [owner, repo] = splitFullName(fullName);
  const weeks: StarHistoryWeek[] = [];
  for (let page = 1; page <= STAR_HISTORY_MAX_PAGES; page++) {
    await options.beforePage?.(page);
    let answer: RestAnswer<unknown>;
    try {
      answer = await rest.call<unknown>({
        token,
        route: 'GET /repos/{owner}/{repo}/stargazers/history',
        params: { owner, repo, per_page: STAR_HISTORY_PER_PAGE, page },
        headers: { 'x-github-api-version': STAR_HISTORY_API_VERSION },
        notAvailable: [403, 404, 410],
        subject: fullName,
        deadline: options.deadline,
      });
    } catch (error) {
      if (error instanceof NotAvailable) return { available: false, status: error.status };
      throw error;
    }
    const items = Array.isArray(answer.data) ? answer.data : null;
    if (!items)
      throw new GitHubError(
        'unreachable',
        'GitHub answered the star history with something else than a list.',
      );
    for (const item of items) weeks.push(parseStarHistoryWeek(item));
    const last = countFromLink(headerString(answer.headers.link), page);
    if (page >= last || items.length === 0) break;
  }
  return { available: true, weeks };
}

/** One item of the star history: `week` (a date) and `days` (seven counts); anything else ignored. */
function parseStarHistoryWeek(item: unknown): StarHistoryWeek {
  const candidate = item as { week?: unknown; days?: unknown } | null;
  const week = typeof candidate?.week === 'string' ? candidate.week.slice(0, 10) : '';
  const days = candidate?.days;
  if (
    !/^\d{4}-\d{2}-\d{2}$/.test(week) ||
    Number.isNaN(parseTime(`${week}T00:00:00Z`).getTime()) ||
    !Array.isArray(days) ||
    days.length !== 7 ||
    !days.every((count) => Number.isInteger(count) && count >= 0)
  )
    throw new GitHubError(
      'unreachable',
      'GitHub answered the star history in a shape this app does not know.',
    );
  return { week, days: days as number[] };
}
