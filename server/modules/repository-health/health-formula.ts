import spdxLicenses from 'spdx-license-list';
import type { HealthGrade, HealthSignal, HealthSignalKey } from '#shared/schemas/health.ts';

/**
 * The health formula, version 1 (docs/health.md: the weights, thresholds and why). Every signal
 * keeps its raw value and when it was measured; a signal whose value is unknown is left out of
 * both the points earned and the points possible, and too little known makes the grade
 * `unknown` instead of a guess. A change of weights or thresholds is a new version.
 */
export const FORMULA_VERSION = 1;

/** Below this share of the possible points known, the grade is `unknown` (docs/health.md). */
const KNOWN_SHARE_FOR_A_GRADE = 0.5;

const DAY_MS = 86_400_000;

/** A value and when it was measured (null: unknown). */
export interface Measured<T> {
  value: T | null;
  at: string | null;
}

/** What the formula reads (server/modules/repository-health/health-signals.ts gathers it). */
export interface HealthInputs {
  archived: Measured<boolean>;
  lastCommitAt: Measured<string>;
  commits90d: Measured<number>;
  /** Publication dates of the latest ≤ 10 releases (drafts and pre-releases left out), newest first. */
  releaseDates: Measured<string[]>;
  /**
   * Days to the first comment or close of each of the ≤ 10 newest issues opened in the last 90
   * days; one still unanswered counts the days it has waited so far (a lower bound).
   */
  issueResponses: Measured<number[]>;
  pullRequestsMerged90d: Measured<number>;
  /** With the ETag of the contributors list it was read from (a 304 costs nothing). */
  topContributorShare: Measured<number> & { etag?: string };
  /** SPDX id; '' when the repository has none, null when unknown. */
  license: Measured<string>;
  securityPolicy: Measured<boolean>;
  openAdvisories: Measured<Record<'critical' | 'high' | 'medium' | 'low' | 'unknown', number>>;
}

export interface HealthOverride {
  reason: string;
}

export interface HealthResult {
  score: number | null;
  grade: HealthGrade;
  signals: HealthSignal[];
}

/** Activity signals: met in full while the team marks the repository finished. */
const ACTIVITY: readonly HealthSignalKey[] = [
  'days_since_last_commit',
  'commits_90d',
  'days_since_last_release',
  'issue_response_days',
  'pull_requests_merged_90d',
];

type Step = readonly [limit: number, points: number];

/** The points of the first step whose limit `value` is within (`atMost`) or reaches (`atLeast`). */
function stepped(
  value: number,
  steps: readonly Step[],
  compare: 'atMost' | 'atLeast',
): { points: number; limit: number | null } {
  for (const [limit, points] of steps) {
    if (compare === 'atMost' ? value <= limit : value >= limit) return { points, limit };
  }
  return { points: 0, limit: null };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

const daysBetween = (from: string, to: Date) =>
  Math.max(0, Math.floor((to.getTime() - Date.parse(from)) / DAY_MS));
const round1 = (value: number) => Math.round(value * 10) / 10;

/** Median days between consecutive releases (dates newest first), or null with fewer than two. */
export function releaseCadenceDays(dates: readonly string[]): number | null {
  if (dates.length < 2) return null;
  const gaps: number[] = [];
  for (let i = 1; i < dates.length; i++)
    gaps.push(Math.abs(Date.parse(dates[i - 1] as string) - Date.parse(dates[i] as string)) / DAY_MS);
  return round1(median(gaps));
}

/** Whether an SPDX id is approved by the Open Source Initiative (spdx-license-list). */
export function isOsiApproved(spdxId: string): boolean {
  return (spdxLicenses as Record<string, { osiApproved: boolean } | undefined>)[spdxId]?.osiApproved === true;
}

/** Scores every signal, then the repository (docs/health.md). */
export function assessHealth(inputs: HealthInputs, now: Date, override: HealthOverride | null): HealthResult {
  const signals: HealthSignal[] = [];
  const add = (
    key: HealthSignalKey,
    label: string,
    unit: HealthSignal['unit'],
    measured: Measured<unknown>,
    value: HealthSignal['value'],
    maxPoints: number,
    score: () => { points: number; note: string },
  ) => {
    let points: number | null = null;
    let note = 'Unknown: GitHub has not told us yet.';
    if (override && ACTIVITY.includes(key)) {
      points = maxPoints;
      note = 'Counted as met: the team marked this repository finished.';
    } else if (value !== null) {
      ({ points, note } = score());
    }
    signals.push({ key, label, value, unit, points, max_points: maxPoints, measured_at: measured.at, note });
  };

  add('archived', 'Archived on GitHub', 'flag', inputs.archived, inputs.archived.value, 0, () => ({
    points: 0,
    note: inputs.archived.value ? 'Archived: read-only on GitHub, whatever the score.' : 'Not archived.',
  }));

  const sinceCommit = inputs.lastCommitAt.value === null ? null : daysBetween(inputs.lastCommitAt.value, now);
  add(
    'days_since_last_commit',
    'Days since the last commit',
    'days',
    inputs.lastCommitAt,
    sinceCommit,
    15,
    () => {
      const { points, limit } = stepped(
        sinceCommit as number,
        [
          [30, 15],
          [90, 10],
          [180, 5],
          [365, 2],
        ],
        'atMost',
      );
      return { points, note: limit === null ? 'Over a year without a commit.' : `Within ${limit} days.` };
    },
  );

  add(
    'commits_90d',
    'Commits in the last 90 days',
    'commits',
    inputs.commits90d,
    inputs.commits90d.value,
    10,
    () => {
      const { points, limit } = stepped(
        inputs.commits90d.value as number,
        [
          [20, 10],
          [5, 7],
          [1, 4],
        ],
        'atLeast',
      );
      return { points, note: limit === null ? 'No commit in 90 days.' : `At least ${limit}.` };
    },
  );

  const releases = inputs.releaseDates.value;
  const cadence = releases ? releaseCadenceDays(releases) : null;
  add(
    'release_cadence_days',
    'Median days between releases',
    'days',
    inputs.releaseDates,
    cadence,
    0,
    () => ({
      points: 0,
      note: 'The yardstick for the next signal: the repository’s own rhythm, not a fixed one.',
    }),
  );
  const sinceRelease = releases && releases.length > 0 ? daysBetween(releases[0] as string, now) : null;
  add(
    'days_since_last_release',
    'Days since the last release',
    'days',
    inputs.releaseDates,
    sinceRelease,
    15,
    () => {
      // Judged against its own cadence: a yearly project is not overdue after two months.
      const expected = Math.max(60, cadence ?? 180);
      const days = sinceRelease as number;
      if (days <= 2 * expected)
        return { points: 15, note: `Within twice its usual gap (${Math.round(2 * expected)} days).` };
      if (days <= 4 * expected)
        return { points: 8, note: `Within four times its usual gap (${Math.round(4 * expected)} days).` };
      return { points: 0, note: `Over four times its usual gap (${Math.round(4 * expected)} days).` };
    },
  );

  const responses = inputs.issueResponses.value;
  const responseDays = responses && responses.length > 0 ? round1(median(responses)) : null;
  add(
    'issue_response_days',
    'Median days to a first answer on new issues',
    'days',
    inputs.issueResponses,
    responseDays,
    12,
    () => {
      const { points, limit } = stepped(
        responseDays as number,
        [
          [2, 12],
          [7, 8],
          [30, 4],
        ],
        'atMost',
      );
      return { points, note: limit === null ? 'Slower than a month.' : `Within ${limit} days.` };
    },
  );

  add(
    'pull_requests_merged_90d',
    'Pull requests merged in the last 90 days',
    'pull_requests',
    inputs.pullRequestsMerged90d,
    inputs.pullRequestsMerged90d.value,
    10,
    () => {
      const { points, limit } = stepped(
        inputs.pullRequestsMerged90d.value as number,
        [
          [10, 10],
          [3, 7],
          [1, 4],
        ],
        'atLeast',
      );
      return { points, note: limit === null ? 'None merged in 90 days.' : `At least ${limit}.` };
    },
  );

  const share = inputs.topContributorShare.value;
  add(
    'top_contributor_share',
    'Top contributor’s share of contributions',
    'ratio',
    inputs.topContributorShare,
    share === null ? null : round1(share * 100) / 100,
    8,
    () => {
      const { points } = stepped(
        share as number,
        [
          [0.5, 8],
          [0.8, 4],
        ],
        'atMost',
      );
      return {
        points,
        note:
          points === 8
            ? 'No one person does most of the work.'
            : points === 4
              ? 'One person does most of the work.'
              : 'Almost all the work is one person’s.',
      };
    },
  );

  const license = inputs.license.value;
  add('license', 'Licence', 'spdx', inputs.license, license, 10, () => {
    if (license === '') return { points: 0, note: 'No licence: others may not be allowed to use it.' };
    if (isOsiApproved(license as string)) return { points: 10, note: 'An OSI-approved licence.' };
    return { points: 5, note: 'A licence, not approved by the OSI (or not identified by GitHub).' };
  });

  add(
    'security_policy',
    'Security policy',
    'flag',
    inputs.securityPolicy,
    inputs.securityPolicy.value,
    5,
    () => ({
      points: inputs.securityPolicy.value ? 5 : 0,
      note: inputs.securityPolicy.value ? 'Says how to report a vulnerability.' : 'No security policy.',
    }),
  );

  const advisories = inputs.openAdvisories.value;
  add(
    'open_advisories',
    'Open security advisories',
    'advisories',
    inputs.openAdvisories,
    advisories,
    15,
    () => {
      const counts = advisories as NonNullable<typeof advisories>;
      if (counts.critical > 0) return { points: 0, note: 'A critical advisory is open.' };
      if (counts.high > 0) return { points: 3, note: 'A high-severity advisory is open.' };
      if (counts.medium + counts.low + counts.unknown > 0)
        return { points: 8, note: 'Lower-severity advisories are open.' };
      return { points: 15, note: 'No open advisory.' };
    },
  );

  return { ...scoreOf(signals), signals, ...(inputs.archived.value ? { grade: 'archived' as const } : {}) };
}

/** The score over the signals known, and its grade; `unknown` when too little is known. */
function scoreOf(signals: HealthSignal[]): { score: number | null; grade: HealthGrade } {
  const possible = signals.reduce((sum, signal) => sum + signal.max_points, 0);
  let known = 0;
  let earned = 0;
  for (const signal of signals) {
    if (signal.points === null) continue;
    known += signal.max_points;
    earned += signal.points;
  }
  if (known === 0 || known < possible * KNOWN_SHARE_FOR_A_GRADE) return { score: null, grade: 'unknown' };
  const score = Math.round((100 * earned) / known);
  return { score, grade: score >= 75 ? 'healthy' : score >= 50 ? 'watch' : 'at_risk' };
}

/** Grades from best to worst: a move to the right is a drop (`health_dropped`). */
export const GRADE_ORDER: readonly HealthGrade[] = ['healthy', 'watch', 'at_risk'];

/** A grade with a place in GRADE_ORDER (archived and unknown have none). */
export type RankedGrade = 'healthy' | 'watch' | 'at_risk';
export const isRankedGrade = (grade: HealthGrade): grade is RankedGrade =>
  (GRADE_ORDER as readonly string[]).includes(grade);

/** Whether a grade fell (healthy → watch → at_risk); archived and unknown are not drops. */
export function gradeDropped(from: RankedGrade, to: HealthGrade): to is RankedGrade {
  return isRankedGrade(to) && GRADE_ORDER.indexOf(to) > GRADE_ORDER.indexOf(from);
}
