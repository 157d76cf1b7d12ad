/**
 * Display formatting (docs/product.md#formatting) as pure functions: every date, count and size any screen
 * shows goes through here. Dates are ISO strings from the API; `now` is a parameter so tests are exact.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

export const NEVER = 'Never';
export const NOT_AVAILABLE = 'N/A';
export const INVALID_DATE = 'Invalid date';
export const NO_LICENSE = 'No License';

/** null for a missing value, 'invalid' for an unreadable one, else the date. */
export function parseDate(value: string | null | undefined): Date | null | 'invalid' {
  if (value === null || value === undefined || value.trim() === '') return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? 'invalid' : date;
}

/**
 * Star counts as k or M with one decimal (1.0k, 12.3k, 1.5M); below 1,000 the plain
 * number. 999,950 reads 1.0M rather than 1000.0k.
 */
export function formatStars(count: number): string {
  if (!Number.isFinite(count)) return '0';
  const sign = count < 0 ? '-' : '';
  const value = Math.abs(Math.round(count));
  if (value < 1000) return `${sign}${value}`;
  const thousands = Math.round(value / 100) / 10;
  if (thousands < 1000) return `${sign}${thousands.toFixed(1)}k`;
  return `${sign}${(Math.round(value / 100_000) / 10).toFixed(1)}M`;
}

/** A count with thousands separators (12,345), for places that show the exact number. */
export function formatCount(count: number, locale?: string): string {
  return new Intl.NumberFormat(locale ?? 'en-US').format(count);
}

/** An average, grouped with one decimal ('66,001.2'): the same on Statistics and the admin overview. */
export function formatAverage(value: number, locale?: string): string {
  return new Intl.NumberFormat(locale ?? 'en-US', {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  }).format(value);
}

/**
 * The relative age: Today, Nd, Nw, Nmo, Ny. A missing date is 'Never' (a
 * missing last commit or sync); an unreadable one 'Invalid date'. Future dates read Today.
 */
export function formatRelativeAge(value: string | null | undefined, now: Date = new Date()): string {
  const date = parseDate(value);
  if (date === null) return NEVER;
  if (date === 'invalid') return INVALID_DATE;
  const days = Math.floor((now.getTime() - date.getTime()) / DAY_MS);
  if (days < 1) return 'Today';
  if (days < 7) return `${days}d`;
  if (days < 30) return `${Math.floor(days / 7)}w`;
  if (days < 365) return `${Math.floor(days / 30)}mo`;
  return `${Math.floor(days / 365)}y`;
}

/** The same age in words, for screen readers and tooltips ('3 weeks ago'). */
export function describeRelativeAge(value: string | null | undefined, now: Date = new Date()): string {
  const short = formatRelativeAge(value, now);
  const match = /^(\d+)(d|w|mo|y)$/.exec(short);
  if (!match) return short;
  const count = Number(match[1]);
  const unit = { d: 'day', w: 'week', mo: 'month', y: 'year' }[match[2] as 'd' | 'w' | 'mo' | 'y'];
  return `${count} ${unit}${count === 1 ? '' : 's'} ago`;
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();
function formatter(locale: string | undefined, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale ?? ''}|${JSON.stringify(options)}`;
  let cached = dateFormats.get(key);
  if (!cached) {
    cached = new Intl.DateTimeFormat(locale, options);
    dateFormats.set(key, cached);
  }
  return cached;
}

export interface DateFormatOptions {
  /** What a missing date reads: 'N/A' by default, 'Never' for a last commit or sync. */
  missing?: string;
  locale?: string;
  timeZone?: string;
  /** 'short' (22 Aug 2026) by default; 'long' (22 August 2026) on the account screens. */
  month?: 'short' | 'long';
}

/** A contributor count as screens show it: "1,234", "1000+", or "counting…" right after an import. */
export function formatContributors(value: number | string | null, locale?: string): string {
  if (value === null) return 'counting…';
  return typeof value === 'number' ? formatCount(value, locale) : value;
}

/** A calendar date ('22 Aug 2026' in the reader's locale); 'N/A' or 'Invalid date' otherwise. */
export function formatDate(value: string | null | undefined, options: DateFormatOptions = {}): string {
  const date = parseDate(value);
  if (date === null) return options.missing ?? NOT_AVAILABLE;
  if (date === 'invalid') return INVALID_DATE;
  return formatter(options.locale, {
    year: 'numeric',
    month: options.month ?? 'short',
    day: 'numeric',
    timeZone: options.timeZone,
  }).format(date);
}

/** A time of day ('14:05' or '2:05 PM' in the reader's locale), for when queued work will be done. */
export function formatTime(value: string, options: DateFormatOptions = {}): string {
  const date = parseDate(value);
  if (date === null) return options.missing ?? NOT_AVAILABLE;
  if (date === 'invalid') return INVALID_DATE;
  return formatter(options.locale, { timeStyle: 'short', timeZone: options.timeZone }).format(date);
}

/** Date and time, for comments, syncs and commits. */
export function formatDateTime(value: string | null | undefined, options: DateFormatOptions = {}): string {
  const date = parseDate(value);
  if (date === null) return options.missing ?? NOT_AVAILABLE;
  if (date === 'invalid') return INVALID_DATE;
  return formatter(options.locale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: options.timeZone,
  }).format(date);
}

const BYTE_UNITS = ['B', 'KB', 'MB', 'GB'] as const;

/**
 * A byte count as backup sizes are shown (docs/product.md#formatting): B, KB, MB or GB in steps of 1024, with
 * at most two decimals and no trailing zeros ("512 B", "1.5 KB", "2 MB"). Sizes beyond GB stay in GB;
 * negative or non-finite input counts as 0.
 */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 B';
  let unit = 0;
  let value = bytes;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  if (unit === 0) return `${Math.round(value)} B`;
  const rounded = Math.round(value * 100) / 100;
  // 1023.999 KB rounds to 1024 KB: show it as the next unit instead.
  if (rounded >= 1024 && unit < BYTE_UNITS.length - 1) return `1 ${BYTE_UNITS[unit + 1]}`;
  return `${rounded} ${BYTE_UNITS[unit]}`;
}

export type LicenseGroup = 'mit' | 'apache' | 'bsd' | 'gpl' | 'other';

/** Licence badges group as mit, apache, bsd, gpl or other (LGPL and AGPL are gpl). */
export function licenseGroup(license: string | null | undefined): LicenseGroup {
  const value = (license ?? '').toLowerCase();
  if (value.includes('mit')) return 'mit';
  if (value.includes('apache')) return 'apache';
  if (value.includes('bsd')) return 'bsd';
  if (value.includes('gpl')) return 'gpl';
  return 'other';
}

/** An empty licence shows as 'No License'. */
export function displayLicense(license: string | null | undefined): string {
  const value = (license ?? '').trim();
  return value === '' ? NO_LICENSE : value;
}

/** Splits a comma-separated field (topics, tags) into trimmed, non-empty entries. */
export function splitList(value: string | null | undefined): string[] {
  if (!value) return [];
  const entries: string[] = [];
  for (const raw of value.split(',')) {
    const entry = raw.trim();
    if (entry) entries.push(entry);
  }
  return entries;
}

/** Days under 30 days, months under 365 days, otherwise years. */
export function formatAccountAge(createdAt: string | null | undefined, now: Date = new Date()): string {
  const created = parseDate(createdAt);
  if (created === null) return NOT_AVAILABLE;
  if (created === 'invalid') return INVALID_DATE;
  const days = Math.max(0, Math.floor((now.getTime() - created.getTime()) / DAY_MS));
  const plural = (count: number, unit: string) => `${count} ${unit}${count === 1 ? '' : 's'}`;
  if (days < 30) return plural(days, 'day');
  if (days < 365) return plural(Math.floor(days / 30), 'month');
  return plural(Math.floor(days / 365), 'year');
}

/** The default version number, vYYYY.M.D for the given day (no leading zeros). */
export function defaultVersionNumber(today: Date = new Date()): string {
  return `v${today.getFullYear()}.${today.getMonth() + 1}.${today.getDate()}`;
}

/** The local calendar day as YYYY-MM-DD (a date input's value). */
export function isoDay(today: Date = new Date()): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${today.getFullYear()}-${pad(today.getMonth() + 1)}-${pad(today.getDate())}`;
}

/** A star-range filter's chip label: 'Stars: 10–500', 'Stars: ≥ 10' or 'Stars: ≤ 500'. */
export function starRangeLabel(min: number | null | undefined, max: number | null | undefined): string {
  // Grouped like every other number on screen ('Stars: 300,000–200,000', not '300000–200000').
  const count = (value: number) => formatCount(value);
  if (min != null && max != null) return `Stars: ${count(min)}–${count(max)}`;
  return min != null ? `Stars: ≥ ${count(min)}` : `Stars: ≤ ${count(max ?? 0)}`;
}
