const DAY_MS = 24 * 60 * 60 * 1000;

function parse(value: string | null | undefined): Date | null | 'invalid' {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? 'invalid' : date;
}

/**
 * SPEC §8: a missing date shows 'N/A' (or the caller's word, e.g. 'Never' for a last login)
 * and an unreadable one 'Invalid date'.
 */
export function formatDate(value: string | null | undefined, missing = 'N/A'): string {
  const date = parse(value);
  if (date === null) return missing;
  if (date === 'invalid') return 'Invalid date';
  return date.toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' });
}

export function formatDateTime(value: string | null | undefined, missing = 'N/A'): string {
  const date = parse(value);
  if (date === null) return missing;
  if (date === 'invalid') return 'Invalid date';
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

function plural(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/** SPEC §9: days under 30 days, months under 365 days, otherwise years. */
export function formatAccountAge(createdAt: string, now: Date = new Date()): string {
  const created = parse(createdAt);
  if (created === null) return 'N/A';
  if (created === 'invalid') return 'Invalid date';
  const days = Math.max(0, Math.floor((now.getTime() - created.getTime()) / DAY_MS));
  if (days < 30) return plural(days, 'day');
  if (days < 365) return plural(Math.floor(days / 30), 'month');
  return plural(Math.floor(days / 365), 'year');
}
