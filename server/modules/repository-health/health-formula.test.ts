import { describe, expect, it } from 'vitest';
import type { HealthSignalKey } from '#shared/schemas/health.ts';
import { assessHealth, type HealthInputs, isOsiApproved, releaseCadenceDays } from './health-formula.ts';

/** The formula of docs/health.md, version 1, at its thresholds. */

const NOW = new Date('2026-11-28T12:00:00Z');
const AT = '2026-11-28T11:00:00.000Z';
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 86_400_000).toISOString();
const known = <T>(value: T) => ({ value, at: AT });
const unknown = { value: null, at: null };

/** A repository that earns every point. */
function thriving(): HealthInputs {
  return {
    archived: known(false),
    lastCommitAt: known(daysAgo(1)),
    commits90d: known(50),
    releaseDates: known([daysAgo(10), daysAgo(40), daysAgo(70)]),
    issueResponses: known([0.5, 1, 2]),
    pullRequestsMerged90d: known(30),
    topContributorShare: known(0.3),
    license: known('MIT'),
    securityPolicy: known(true),
    openAdvisories: known({ critical: 0, high: 0, medium: 0, low: 0, unknown: 0 }),
  };
}

const pointsOf = (inputs: HealthInputs, key: HealthSignalKey, override = false) =>
  assessHealth(inputs, NOW, override ? { reason: 'finished' } : null).signals.find(
    (signal) => signal.key === key,
  )?.points;

describe('signals at their thresholds', () => {
  it.each([
    [30, 15],
    [31, 10],
    [90, 10],
    [91, 5],
    [180, 5],
    [365, 2],
    [366, 0],
  ])('a last commit %i days ago earns %i of 15', (days, points) => {
    expect(pointsOf({ ...thriving(), lastCommitAt: known(daysAgo(days)) }, 'days_since_last_commit')).toBe(
      points,
    );
  });

  it.each([
    [20, 10],
    [19, 7],
    [5, 7],
    [4, 4],
    [1, 4],
    [0, 0],
  ])('%i commits in 90 days earn %i of 10', (commits, points) => {
    expect(pointsOf({ ...thriving(), commits90d: known(commits) }, 'commits_90d')).toBe(points);
  });

  it.each([
    [2, 12],
    [2.1, 8],
    [7, 8],
    [30, 4],
    [31, 0],
  ])('a median first answer after %f days earns %i of 12', (days, points) => {
    expect(pointsOf({ ...thriving(), issueResponses: known([days]) }, 'issue_response_days')).toBe(points);
  });

  it.each([
    [10, 10],
    [9, 7],
    [3, 7],
    [2, 4],
    [0, 0],
  ])('%i merged pull requests earn %i of 10', (merged, points) => {
    expect(
      pointsOf({ ...thriving(), pullRequestsMerged90d: known(merged) }, 'pull_requests_merged_90d'),
    ).toBe(points);
  });

  it.each([
    [0.5, 8],
    [0.51, 4],
    [0.8, 4],
    [0.81, 0],
  ])('a top contributor with %f of the work earns %i of 8', (share, points) => {
    expect(pointsOf({ ...thriving(), topContributorShare: known(share) }, 'top_contributor_share')).toBe(
      points,
    );
  });

  it('licence: OSI-approved 10, another 5, none 0', () => {
    expect(isOsiApproved('Apache-2.0')).toBe(true);
    expect(isOsiApproved('CC-BY-4.0')).toBe(false);
    expect(pointsOf({ ...thriving(), license: known('Apache-2.0') }, 'license')).toBe(10);
    expect(pointsOf({ ...thriving(), license: known('CC-BY-4.0') }, 'license')).toBe(5);
    expect(pointsOf({ ...thriving(), license: known('NOASSERTION') }, 'license')).toBe(5);
    expect(pointsOf({ ...thriving(), license: known('') }, 'license')).toBe(0);
  });

  it('open advisories: none 15, lower ones 8, a high one 3, a critical one 0', () => {
    const counts = { critical: 0, high: 0, medium: 0, low: 0, unknown: 0 };
    expect(
      pointsOf({ ...thriving(), openAdvisories: known({ ...counts, unknown: 1 }) }, 'open_advisories'),
    ).toBe(8);
    expect(
      pointsOf({ ...thriving(), openAdvisories: known({ ...counts, low: 2, high: 1 }) }, 'open_advisories'),
    ).toBe(3);
    expect(
      pointsOf({ ...thriving(), openAdvisories: known({ ...counts, critical: 1 }) }, 'open_advisories'),
    ).toBe(0);
  });
});

describe('release recency against the repository’s own cadence', () => {
  it('a yearly project is not overdue after two months; a monthly one is after six', () => {
    const yearly = known([daysAgo(60), daysAgo(425), daysAgo(790)]);
    expect(releaseCadenceDays(yearly.value)).toBe(365);
    expect(pointsOf({ ...thriving(), releaseDates: yearly }, 'days_since_last_release')).toBe(15);
    const monthly = known([daysAgo(180), daysAgo(210), daysAgo(240)]);
    expect(pointsOf({ ...thriving(), releaseDates: monthly }, 'days_since_last_release')).toBe(8);
    const lapsed = known([daysAgo(400), daysAgo(430), daysAgo(460)]);
    expect(pointsOf({ ...thriving(), releaseDates: lapsed }, 'days_since_last_release')).toBe(0);
  });

  it('without any release the signal is unknown, not a failure', () => {
    expect(pointsOf({ ...thriving(), releaseDates: known([]) }, 'days_since_last_release')).toBeNull();
  });
});

describe('score and grade', () => {
  it('every point earned: 100, healthy', () => {
    expect(assessHealth(thriving(), NOW, null)).toMatchObject({ score: 100, grade: 'healthy' });
  });

  it('grades at 75 and 50', () => {
    // Out of the 100 possible: lose exactly 25 (licence 10, security policy 5, merged PRs 10).
    const watch = {
      ...thriving(),
      license: known(''),
      securityPolicy: known(false),
      pullRequestsMerged90d: known(0),
    };
    expect(assessHealth(watch, NOW, null)).toMatchObject({ score: 75, grade: 'healthy' });
    const lower = { ...watch, commits90d: known(19) };
    expect(assessHealth(lower, NOW, null)).toMatchObject({ score: 72, grade: 'watch' });
    const risk = { ...lower, lastCommitAt: known(daysAgo(400)), issueResponses: known([40]) };
    expect(assessHealth(risk, NOW, null)).toMatchObject({ score: 45, grade: 'at_risk' });
  });

  it('unknown signals are left out; too little known is grade unknown, not a guess', () => {
    const partly = { ...thriving(), topContributorShare: unknown, openAdvisories: unknown };
    // 23 of 100 points unknown: the other 77 all earned.
    expect(assessHealth(partly, NOW, null)).toMatchObject({ score: 100, grade: 'healthy' });
    const little = {
      ...partly,
      commits90d: unknown,
      issueResponses: unknown,
      pullRequestsMerged90d: unknown,
      securityPolicy: unknown,
    };
    // Known: last commit 15, last release 15, licence 10 = 40 of 100.
    expect(assessHealth(little, NOW, null)).toMatchObject({ score: null, grade: 'unknown' });
  });

  it('archived is its own grade, whatever the score', () => {
    expect(assessHealth({ ...thriving(), archived: known(true) }, NOW, null)).toMatchObject({
      score: 100,
      grade: 'archived',
    });
  });

  it('finished: activity counts as met, licence and advisories are still judged', () => {
    const dormant = {
      ...thriving(),
      lastCommitAt: known(daysAgo(900)),
      commits90d: known(0),
      releaseDates: known([daysAgo(1500), daysAgo(1600)]),
      issueResponses: known([90]),
      pullRequestsMerged90d: known(0),
    };
    expect(assessHealth(dormant, NOW, null).grade).toBe('at_risk');
    const finished = assessHealth(dormant, NOW, { reason: 'Done: the spec is frozen' });
    expect(finished).toMatchObject({ score: 100, grade: 'healthy' });
    expect(finished.signals.find((signal) => signal.key === 'commits_90d')).toMatchObject({
      value: 0,
      points: 10,
      note: 'Counted as met: the team marked this repository finished.',
    });
    const withAdvisory = {
      ...dormant,
      openAdvisories: known({ critical: 1, high: 0, medium: 0, low: 0, unknown: 0 }),
    };
    expect(pointsOf(withAdvisory, 'open_advisories', true)).toBe(0);
  });

  it('every signal keeps its raw value and when it was measured', () => {
    const { signals } = assessHealth(thriving(), NOW, null);
    expect(signals.map((signal) => signal.key)).toHaveLength(11);
    expect(signals.find((signal) => signal.key === 'days_since_last_commit')).toMatchObject({
      value: 1,
      unit: 'days',
      points: 15,
      max_points: 15,
      measured_at: AT,
    });
  });
});
