/**
 * The health and advisories screens' wording (docs/health.md): a signal's raw value in words, the
 * signals that cost the most points, open advisories in a sentence, advisories by severity.
 */
import { formatCount } from '#shared/format.ts';
import {
  ADVISORY_SEVERITIES,
  type Advisory,
  type AdvisorySeverity,
  type OpenAdvisories,
} from '#shared/schemas/advisories.ts';
import type { HealthSignal } from '#shared/schemas/health.ts';

const plural = (count: number, one: string, many: string) =>
  `${formatCount(count)} ${count === 1 ? one : many}`;

/** 'critical 1, high 2' as '1 critical, 2 high'; none: null. */
export function severityCounts(counts: Partial<Record<string, number>>): string | null {
  const parts = ADVISORY_SEVERITIES.filter((severity) => (counts[severity] ?? 0) > 0).map(
    (severity) => `${formatCount(counts[severity] ?? 0)} ${severity === 'unknown' ? 'unrated' : severity}`,
  );
  return parts.length > 0 ? parts.join(', ') : null;
}

/** Every open advisory, whatever its severity. */
export function openAdvisoryTotal(counts: OpenAdvisories): number {
  return ADVISORY_SEVERITIES.reduce((sum, severity) => sum + counts[severity], 0);
}

/** The most severe open advisory's severity, or null when none is open. */
export function worstSeverity(counts: OpenAdvisories): AdvisorySeverity | null {
  return ADVISORY_SEVERITIES.find((severity) => counts[severity] > 0) ?? null;
}

/** A signal's raw value as the tab shows it; 'Unknown' when GitHub has not told the app yet. */
export function signalValue(signal: Pick<HealthSignal, 'value' | 'unit'>): string {
  const { value, unit } = signal;
  if (value === null) return 'Unknown';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'object') return severityCounts(value) ?? 'None open';
  if (typeof value === 'string') return unit === 'spdx' && value === '' ? 'None' : value;
  switch (unit) {
    case 'days':
      return plural(value, 'day', 'days');
    case 'commits':
      return plural(value, 'commit', 'commits');
    case 'pull_requests':
      return plural(value, 'pull request', 'pull requests');
    case 'ratio':
      return `${Math.round(value * 100)}%`;
    default:
      return formatCount(value);
  }
}

/** '8 / 10'; a signal left out of the score (unknown) and one worth no points say so. */
export function signalPoints(signal: Pick<HealthSignal, 'points' | 'max_points'>): string {
  if (signal.max_points === 0) return 'Not scored';
  if (signal.points === null) return `Left out (of ${signal.max_points})`;
  return `${signal.points} / ${signal.max_points}`;
}

/** The points a known signal did not earn. */
export function pointsLost(signal: Pick<HealthSignal, 'points' | 'max_points'>): number {
  return signal.points === null ? 0 : signal.max_points - signal.points;
}

/** The (at most) `count` known signals that cost the most points, most first; none that cost nothing. */
export function costliestSignals<Signal extends Pick<HealthSignal, 'points' | 'max_points'>>(
  signals: readonly Signal[],
  count = 2,
): Signal[] {
  return signals
    .map((signal, index) => ({ signal, index, lost: pointsLost(signal) }))
    .filter((entry) => entry.lost > 0)
    .sort((a, b) => b.lost - a.lost || a.index - b.index)
    .slice(0, count)
    .map((entry) => entry.signal);
}

/** Advisories by severity, most severe first, only the severities that have some. */
export function bySeverity(
  advisories: readonly Advisory[],
): { severity: AdvisorySeverity; advisories: Advisory[] }[] {
  return ADVISORY_SEVERITIES.map((severity) => ({
    severity,
    advisories: advisories.filter((advisory) => advisory.severity === severity),
  })).filter((group) => group.advisories.length > 0);
}
