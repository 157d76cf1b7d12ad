import { describe, expect, it } from 'vitest';
import type { StarHistoryWeek } from '../../github/github-client.ts';
import { DAILY_DAYS, reconstructStarCounts } from './star-history.ts';

const DAY_MS = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const ms = (value: string) => Date.parse(`${value}T00:00:00Z`);

/** Weeks from `firstMonday` up to the week holding `today`, each day adding `perDay(dayMs)`. */
function weeksOf(firstMonday: string, today: string, perDay: (dayMs: number) => number): StarHistoryWeek[] {
  const weeks: StarHistoryWeek[] = [];
  for (let monday = ms(firstMonday); monday <= ms(today); monday += 7 * DAY_MS) {
    weeks.push({
      week: day(monday),
      days: Array.from({ length: 7 }, (_, offset) => perDay(monday + offset * DAY_MS)),
    });
  }
  return weeks;
}

describe('star counts rebuilt from the weekly history', () => {
  // A Wednesday: the current week has days after today.
  const today = '2026-11-25';

  it('is daily for the last year and weekly before, ending at today’s stars', () => {
    // Two stars a day since Monday 2024-01-01; nothing after today.
    const perDay = (dayMs: number) => (dayMs <= ms(today) ? 2 : 0);
    const weeks = weeksOf('2024-01-01', today, perDay).reverse(); // GitHub's order: newest first
    const elapsed = (value: string) => (ms(value) - ms('2024-01-01')) / DAY_MS + 1;
    const todayStars = 2 * elapsed(today);

    const counts = reconstructStarCounts(weeks, todayStars, today);

    const dailyFrom = day(ms(today) - (DAILY_DAYS - 1) * DAY_MS);
    const daily = counts.filter((count) => count.day >= dailyFrom);
    const weekly = counts.filter((count) => count.day < dailyFrom);
    expect(daily).toHaveLength(DAILY_DAYS);
    expect(daily[0]?.day).toBe('2025-11-26');
    expect(counts[counts.length - 1]).toEqual({ day: today, stars: todayStars });
    // Before the last year: one point per week, on the week's last day (a Sunday here).
    expect(weekly[0]).toEqual({ day: '2024-01-07', stars: 14 });
    expect(weekly.every((count) => new Date(`${count.day}T00:00:00Z`).getUTCDay() === 0)).toBe(true);
    expect(weekly).toHaveLength(99);
    // Every point is today's count minus what was added after that day.
    for (const count of counts) expect(count.stars).toBe(2 * elapsed(count.day));
    expect(counts.map((count) => count.day)).toEqual([...counts.map((count) => count.day)].sort());
  });

  it('follows the daily counts of known weeks', () => {
    const weeks: StarHistoryWeek[] = [
      { week: '2026-11-23', days: [3, 1, 4, 0, 0, 0, 0] },
      { week: '2026-11-16', days: [12, 9, 15, 11, 8, 4, 6] },
    ];
    const counts = reconstructStarCounts(weeks, 1000, today);
    expect(counts).toEqual([
      { day: '2026-11-16', stars: 939 },
      { day: '2026-11-17', stars: 948 },
      { day: '2026-11-18', stars: 963 },
      { day: '2026-11-19', stars: 974 },
      { day: '2026-11-20', stars: 982 },
      { day: '2026-11-21', stars: 986 },
      { day: '2026-11-22', stars: 992 },
      { day: '2026-11-23', stars: 995 },
      { day: '2026-11-24', stars: 996 },
      { day: '2026-11-25', stars: 1000 },
    ]);
  });

  it('counts a week listed twice once, ignores additions after today and never goes below 0', () => {
    const weeks: StarHistoryWeek[] = [
      { week: '2026-11-23', days: [1, 1, 1, 50, 50, 50, 50] },
      { week: '2026-11-16', days: [5, 5, 5, 5, 5, 5, 5] },
      // The same week again (pages shifted while they were read): counted once.
      { week: '2026-11-23', days: [1, 1, 1, 50, 50, 50, 50] },
    ];
    const counts = reconstructStarCounts(weeks, 20, today);
    expect(counts[counts.length - 1]).toEqual({ day: today, stars: 20 });
    expect(counts.find((count) => count.day === '2026-11-22')).toEqual({ day: '2026-11-22', stars: 17 });
    // 20 − 3 − 35 < 0: stars removed since don't show in the additions.
    expect(counts[0]).toEqual({ day: '2026-11-16', stars: 0 });
  });

  it('gives nothing for an empty history', () => {
    expect(reconstructStarCounts([], 42, today)).toEqual([]);
  });
});
