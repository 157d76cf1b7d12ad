import { describe, expect, it } from 'vitest';
import {
  defaultVersionNumber,
  describeRelativeAge,
  displayLicense,
  formatAccountAge,
  formatAverage,
  formatBytes,
  formatContributors,
  formatCount,
  formatDate,
  formatDateTime,
  formatRelativeAge,
  formatStars,
  formatTime,
  isoDay,
  licenseGroup,
  splitList,
  starRangeLabel,
} from './format.ts';

describe('formatStars (k or M with one decimal)', () => {
  it.each([
    [0, '0'],
    [7, '7'],
    [999, '999'],
    [1000, '1.0k'],
    [1049, '1.0k'],
    [1050, '1.1k'],
    [12_345, '12.3k'],
    [999_949, '999.9k'],
    [999_950, '1.0M'],
    [1_000_000, '1.0M'],
    [1_549_999, '1.5M'],
    [234_567_890, '234.6M'],
    [-1500, '-1.5k'],
  ])('%d → %s', (count, text) => {
    expect(formatStars(count)).toBe(text);
  });

  it('reads a non-number as 0', () => {
    expect(formatStars(Number.NaN)).toBe('0');
  });
});

describe('formatCount', () => {
  it('groups thousands', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
  });
});

describe('formatContributors', () => {
  it("shows 'counting…' while the count is null, the grouped number, or the capped text as stored", () => {
    expect(formatContributors(null)).toBe('counting…');
    expect(formatContributors(1234, 'en-US')).toBe('1,234');
    expect(formatContributors(0, 'en-US')).toBe('0');
    expect(formatContributors('1000+')).toBe('1000+');
  });
});

describe('formatRelativeAge (Today, Nd, Nw, Nmo, Ny)', () => {
  const now = new Date('2026-08-22T12:00:00Z');
  const ago = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();

  it.each([
    [0, 'Today'],
    [0.9, 'Today'],
    [1, '1d'],
    [6, '6d'],
    [7, '1w'],
    [29, '4w'],
    [30, '1mo'],
    [364, '12mo'],
    [365, '1y'],
    [800, '2y'],
  ])('%d days ago → %s', (days, text) => {
    expect(formatRelativeAge(ago(days), now)).toBe(text);
  });

  it("reads a future date as Today, a missing one as 'Never', garbage as 'Invalid date'", () => {
    expect(formatRelativeAge(ago(-3), now)).toBe('Today');
    expect(formatRelativeAge(null, now)).toBe('Never');
    expect(formatRelativeAge(undefined, now)).toBe('Never');
    expect(formatRelativeAge('', now)).toBe('Never');
    expect(formatRelativeAge('not a date', now)).toBe('Invalid date');
  });

  it('says it in words for screen readers', () => {
    expect(describeRelativeAge(ago(1), now)).toBe('1 day ago');
    expect(describeRelativeAge(ago(14), now)).toBe('2 weeks ago');
    expect(describeRelativeAge(ago(400), now)).toBe('1 year ago');
    expect(describeRelativeAge(ago(0), now)).toBe('Today');
    expect(describeRelativeAge(null, now)).toBe('Never');
  });
});

describe('formatDate and formatDateTime', () => {
  it("shows 'N/A' for a missing date unless told otherwise, and 'Invalid date' for garbage", () => {
    expect(formatDate(null)).toBe('N/A');
    expect(formatDate(undefined, { missing: 'Never' })).toBe('Never');
    expect(formatDate('2026-13-45')).toBe('Invalid date');
    expect(formatDateTime(null)).toBe('N/A');
    expect(formatDateTime('', { missing: 'Never' })).toBe('Never');
    expect(formatDateTime('yesterday')).toBe('Invalid date');
  });

  it('formats a valid date in the given locale and zone', () => {
    expect(formatDate('2026-08-22T23:30:00Z', { locale: 'en-GB', timeZone: 'UTC' })).toBe('22 Aug 2026');
    expect(formatDate('2026-08-22T23:30:00Z', { locale: 'en-GB', timeZone: 'UTC', month: 'long' })).toBe(
      '22 August 2026',
    );
    expect(formatDateTime('2026-08-22T09:05:00Z', { locale: 'en-GB', timeZone: 'UTC' })).toBe(
      '22 Aug 2026, 09:05',
    );
  });
});

describe('formatTime (when queued work will be done)', () => {
  it('shows the time of day in the given locale and zone', () => {
    expect(formatTime('2026-11-24T14:05:00Z', { locale: 'en-GB', timeZone: 'UTC' })).toBe('14:05');
    expect(formatTime('2026-11-24T14:05:00Z', { locale: 'en-US', timeZone: 'UTC' })).toBe('2:05 PM');
  });

  it("shows 'N/A' for a missing time and 'Invalid date' for garbage", () => {
    expect(formatTime('')).toBe('N/A');
    expect(formatTime('soon')).toBe('Invalid date');
  });
});

describe('formatAverage', () => {
  it('groups thousands and keeps one decimal', () => {
    expect(formatAverage(66_001.23)).toBe('66,001.2');
    expect(formatAverage(0)).toBe('0.0');
    expect(formatAverage(2.75, 'de-DE')).toBe('2,8');
  });
});

describe('starRangeLabel', () => {
  it('groups thousands like every other number on screen', () => {
    expect(starRangeLabel(300_000, 200_000)).toBe('Stars: 300,000–200,000');
    expect(starRangeLabel(1_000, null)).toBe('Stars: ≥ 1,000');
    expect(starRangeLabel(null, 2_500)).toBe('Stars: ≤ 2,500');
  });
});

describe('licenseGroup (mit, apache, bsd, gpl, other)', () => {
  it.each([
    ['MIT', 'mit'],
    ['mit-0', 'mit'],
    ['Apache-2.0', 'apache'],
    ['BSD-3-Clause', 'bsd'],
    ['0BSD', 'bsd'],
    ['GPL-3.0', 'gpl'],
    ['LGPL-2.1', 'gpl'],
    ['AGPL-3.0', 'gpl'],
    ['MPL-2.0', 'other'],
    ['Other', 'other'],
    ['', 'other'],
    [null, 'other'],
  ])('%s → %s', (license, group) => {
    expect(licenseGroup(license)).toBe(group);
  });

  it("shows an empty licence as 'No License'", () => {
    expect(displayLicense('')).toBe('No License');
    expect(displayLicense('  ')).toBe('No License');
    expect(displayLicense(null)).toBe('No License');
    expect(displayLicense('MIT')).toBe('MIT');
  });
});

describe('splitList', () => {
  it('trims entries and drops empty ones', () => {
    expect(splitList(' react, ,ui ,, web ')).toEqual(['react', 'ui', 'web']);
    expect(splitList('')).toEqual([]);
    expect(splitList(null)).toEqual([]);
  });
});

describe('formatAccountAge', () => {
  const now = new Date('2026-08-22T00:00:00Z');
  it.each([
    ['2026-08-22T00:00:00Z', '0 days'],
    ['2026-08-21T00:00:00Z', '1 day'],
    ['2026-07-24T00:00:00Z', '29 days'],
    ['2026-07-23T00:00:00Z', '1 month'],
    ['2025-08-23T00:00:00Z', '12 months'],
    ['2025-08-22T00:00:00Z', '1 year'],
    ['2020-01-01T00:00:00Z', '6 years'],
  ])('%s → %s', (created, text) => {
    expect(formatAccountAge(created, now)).toBe(text);
  });

  it("reads a missing date as 'N/A' and garbage as 'Invalid date'", () => {
    expect(formatAccountAge(null, now)).toBe('N/A');
    expect(formatAccountAge('soon', now)).toBe('Invalid date');
  });
});

describe('version defaults', () => {
  it('numbers a version vYYYY.M.D without leading zeros, and dates it today', () => {
    const day = new Date(2026, 0, 5, 15, 0, 0);
    expect(defaultVersionNumber(day)).toBe('v2026.1.5');
    expect(isoDay(day)).toBe('2026-01-05');
  });
});

describe('formatBytes (B, KB, MB, GB in base 1024)', () => {
  it.each([
    [0, '0 B'],
    [1, '1 B'],
    [512, '512 B'],
    [1023, '1023 B'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [10 * 1024 + 300, '10.29 KB'],
    [1024 * 1024 - 1, '1 MB'],
    [1024 * 1024, '1 MB'],
    [5.25 * 1024 * 1024, '5.25 MB'],
    [1024 ** 3, '1 GB'],
    [3.5 * 1024 ** 3, '3.5 GB'],
    [2048 * 1024 ** 3, '2048 GB'],
  ])('%d bytes → %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY])('%d counts as 0 B', (bytes) => {
    expect(formatBytes(bytes)).toBe('0 B');
  });
});
