import { describe, expect, it } from 'vitest';
import {
  costliestSignals,
  openAdvisoryTotal,
  severityCounts,
  signalPoints,
  signalValue,
  worstSeverity,
} from './health.ts';

describe('health wording', () => {
  it('says each kind of raw value in words', () => {
    expect(signalValue({ value: null, unit: 'days' })).toBe('Unknown');
    expect(signalValue({ value: true, unit: 'flag' })).toBe('Yes');
    expect(signalValue({ value: false, unit: 'flag' })).toBe('No');
    expect(signalValue({ value: 1, unit: 'days' })).toBe('1 day');
    expect(signalValue({ value: 1200, unit: 'days' })).toBe('1,200 days');
    expect(signalValue({ value: 34, unit: 'commits' })).toBe('34 commits');
    expect(signalValue({ value: 1, unit: 'pull_requests' })).toBe('1 pull request');
    expect(signalValue({ value: 0.456, unit: 'ratio' })).toBe('46%');
    expect(signalValue({ value: 'MIT', unit: 'spdx' })).toBe('MIT');
    expect(signalValue({ value: '', unit: 'spdx' })).toBe('None');
    expect(signalValue({ value: { critical: 1, high: 0, low: 2 }, unit: 'advisories' })).toBe(
      '1 critical, 2 low',
    );
    expect(signalValue({ value: { critical: 0, high: 0 }, unit: 'advisories' })).toBe('None open');
  });

  it('gives points out of the most, and says when a signal is left out or not scored', () => {
    expect(signalPoints({ points: 8, max_points: 10 })).toBe('8 / 10');
    expect(signalPoints({ points: null, max_points: 12 })).toBe('Left out (of 12)');
    expect(signalPoints({ points: 0, max_points: 0 })).toBe('Not scored');
  });

  it('picks the two signals that cost the most points, known ones only', () => {
    const signals = [
      { key: 'a', points: 15, max_points: 15 },
      { key: 'b', points: 5, max_points: 15 },
      { key: 'c', points: null, max_points: 12 },
      { key: 'd', points: 0, max_points: 10 },
      { key: 'e', points: 0, max_points: 10 },
    ];
    expect(costliestSignals(signals).map((signal) => signal.key)).toEqual(['b', 'd']);
    expect(costliestSignals([{ points: 10, max_points: 10 }])).toEqual([]);
  });

  it('counts open advisories and names the worst', () => {
    const counts = { critical: 0, high: 2, medium: 0, low: 1, unknown: 1 };
    expect(openAdvisoryTotal(counts)).toBe(4);
    expect(worstSeverity(counts)).toBe('high');
    expect(severityCounts(counts)).toBe('2 high, 1 low, 1 unrated');
    expect(worstSeverity({ critical: 0, high: 0, medium: 0, low: 0, unknown: 0 })).toBeNull();
  });
});
