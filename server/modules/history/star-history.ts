import type { StarHistoryWeek } from '../../github/github-client.ts';
import { dateAtMs } from '../../lib/clock.ts';

/**
 * Star counts rebuilt from GitHub's weekly star history (docs/decisions.md, "Star history from
 * GitHub"): GitHub gives stars added per day, not totals, so the curve is counted backwards
 * from today's `stargazers_count` — the count at the end of a day is today's minus everything
 * added after that day. One point per day for the last year, one per week (the week's last
 * day) before that.
 */

export interface StarCount {
  /** `YYYY-MM-DD`; the count is the one at the end of that day. */
  day: string;
  stars: number;
}

/** Days with a point each, today included; older history gets one point per week. */
export const DAILY_DAYS = 365;
const DAY_MS = 86_400_000;

const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);
const dayOf = (ms: number) => dateAtMs(ms).toISOString().slice(0, 10);

/**
 * `weeks` in any order (GitHub's is newest first); a week listed twice — pages can shift by a
 * week while they are read — counts once, as first seen. Additions after `today` (clocks
 * differ) are left out, and a count never goes below 0 (stars removed since don't show in
 * the additions). Oldest first; empty when GitHub listed no week.
 */
export function reconstructStarCounts(
  weeks: readonly StarHistoryWeek[],
  todayStars: number,
  today: string,
): StarCount[] {
  const added = new Map<number, number>();
  const weekStarts = new Set<number>();
  for (const item of weeks) {
    const start = dayMs(item.week);
    if (weekStarts.has(start)) continue;
    weekStarts.add(start);
    for (const [offset, count] of item.days.entries()) {
      const day = start + offset * DAY_MS;
      added.set(day, (added.get(day) ?? 0) + count);
    }
  }
  if (weekStarts.size === 0) return [];
  const todayMs = dayMs(today);
  const first = Math.min(...weekStarts);
  if (first > todayMs) return [];
  const dailyFrom = todayMs - (DAILY_DAYS - 1) * DAY_MS;
  // A week's point is its last day, when that day is older than the daily part.
  const weekEnds = new Set(
    [...weekStarts].map((start) => start + 6 * DAY_MS).filter((end) => end < dailyFrom),
  );

  const counts: StarCount[] = [];
  let stars = todayStars;
  for (let day = todayMs; day >= first; day -= DAY_MS) {
    if (day >= dailyFrom || weekEnds.has(day)) counts.push({ day: dayOf(day), stars: Math.max(0, stars) });
    stars -= added.get(day) ?? 0;
  }
  return counts.reverse();
}
