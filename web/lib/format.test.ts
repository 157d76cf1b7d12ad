import { describe, expect, it } from 'vitest';
import { formatAccountAge, formatDate, formatDateTime } from './format.ts';

describe('formatAccountAge (SPEC §9)', () => {
  const now = new Date('2026-06-30T12:00:00.000Z');
  const ago = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();

  it.each([
    [0, '0 days'],
    [1, '1 day'],
    [29, '29 days'],
    [30, '1 month'],
    [75, '2 months'],
    [364, '12 months'],
    [365, '1 year'],
    [800, '2 years'],
  ])('%i days old reads %s', (days, expected) => {
    expect(formatAccountAge(ago(days), now)).toBe(expected);
  });

  it('says so when the date is unreadable', () => {
    expect(formatAccountAge('not a date', now)).toBe('Invalid date');
  });
});

describe('formatDate', () => {
  it("shows 'N/A' (or the given word) when missing and 'Invalid date' when unreadable", () => {
    expect(formatDate(null)).toBe('N/A');
    expect(formatDateTime(null, 'Never')).toBe('Never');
    expect(formatDate('yesterday-ish')).toBe('Invalid date');
    expect(formatDate('2026-01-15T10:00:00.000Z')).toMatch(/2026/);
  });
});
