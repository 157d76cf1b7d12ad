import { describe, expect, it } from 'vitest';
import {
  checkStarRange,
  computeStats,
  contributorCount,
  distinctValues,
  EMPTY_FILTERS,
  filterRepositories,
  licenseDistribution,
  type StatsRepository,
  starDistribution,
  topTopics,
} from './stats.ts';

const now = new Date('2026-08-22T12:00:00Z');
const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();

function repo(
  overrides: Partial<StatsRepository> & { name?: string } = {},
): StatsRepository & { name: string } {
  return {
    name: 'r',
    tags: '',
    topics: '',
    license: '',
    stars: 0,
    forks: 0,
    issues: 0,
    commits: 0,
    contributors: 0,
    last_commit: null,
    ...overrides,
  };
}

const rows = [
  repo({ name: 'a', tags: 'frontend,React', topics: 'ui,web', license: 'MIT', stars: 1500 }),
  repo({ name: 'b', tags: 'frontend', topics: 'web', license: 'mit', stars: 50 }),
  repo({ name: 'c', tags: 'react,backend', topics: 'api', license: '', stars: 200_000 }),
  repo({ name: 'd', tags: '', topics: 'ui', license: 'Apache-2.0', stars: 0 }),
];
const names = (list: { name: string }[]) => list.map((row) => row.name);

describe('star range', () => {
  it.each([
    [null, null, { min: null, max: null, range: null, valid: true }],
    [0, 0, { min: null, max: null, range: null, valid: true }],
    [-1, 10, { min: 'Minimum stars must be 0 or greater.', max: null, range: null, valid: false }],
    [1, -5, { min: null, max: 'Maximum stars must be 0 or greater.', range: null, valid: false }],
    [10, 5, { min: null, max: null, range: 'Minimum stars cannot be greater than maximum.', valid: false }],
    [10, null, { min: null, max: null, range: null, valid: true }],
  ])('min %s, max %s', (min, max, expected) => {
    expect(checkStarRange(min, max)).toEqual(expected);
  });
});

describe('filterRepositories', () => {
  it('passes everything without filters', () => {
    expect(names(filterRepositories(rows, EMPTY_FILTERS))).toEqual(['a', 'b', 'c', 'd']);
  });

  it('needs every tag (AND), case-insensitively', () => {
    expect(names(filterRepositories(rows, { ...EMPTY_FILTERS, tags: ['react'] }))).toEqual(['a', 'c']);
    expect(names(filterRepositories(rows, { ...EMPTY_FILTERS, tags: ['REACT', ' frontend '] }))).toEqual([
      'a',
    ]);
  });

  it('needs every topic (AND)', () => {
    expect(names(filterRepositories(rows, { ...EMPTY_FILTERS, topics: ['ui'] }))).toEqual(['a', 'd']);
    expect(names(filterRepositories(rows, { ...EMPTY_FILTERS, topics: ['ui', 'web'] }))).toEqual(['a']);
  });

  it("matches the licence exactly, case-insensitively, with 'No License' for none", () => {
    expect(names(filterRepositories(rows, { ...EMPTY_FILTERS, license: 'MIT' }))).toEqual(['a', 'b']);
    expect(names(filterRepositories(rows, { ...EMPTY_FILTERS, license: 'no license' }))).toEqual(['c']);
    expect(names(filterRepositories(rows, { ...EMPTY_FILTERS, license: 'Apache' }))).toEqual([]);
  });

  it('keeps stars within min and max, inclusive', () => {
    expect(names(filterRepositories(rows, { ...EMPTY_FILTERS, minStars: 50, maxStars: 1500 }))).toEqual([
      'a',
      'b',
    ]);
    expect(names(filterRepositories(rows, { ...EMPTY_FILTERS, minStars: 1000 }))).toEqual(['a', 'c']);
  });

  it('ignores an invalid star range but keeps the other filters', () => {
    expect(names(filterRepositories(rows, { ...EMPTY_FILTERS, minStars: 100, maxStars: 10 }))).toEqual([
      'a',
      'b',
      'c',
      'd',
    ]);
    expect(
      names(filterRepositories(rows, { ...EMPTY_FILTERS, tags: ['frontend'], minStars: -1, maxStars: 10 })),
    ).toEqual(['a', 'b']);
  });
});

describe('contributorCount', () => {
  it.each([
    [12, 12],
    [1000, 1000],
    [4000, 1000],
    ['1000+', 1000],
    ['250+', 250],
    ['oops', 0],
    [-3, 0],
  ])('%s → %d', (value, count) => {
    expect(contributorCount(value)).toBe(count);
  });
});

describe('computeStats', () => {
  it('adds up the cards', () => {
    const stats = computeStats(
      [
        repo({
          stars: 10,
          forks: 1,
          issues: 2,
          commits: 3,
          contributors: 5,
          license: 'MIT',
          last_commit: daysAgo(1),
        }),
        repo({ stars: 5, forks: 2, contributors: '1000+', license: '', last_commit: daysAgo(30) }),
        repo({ stars: 1, contributors: 3500, license: 'MIT', last_commit: daysAgo(31) }),
        repo({ stars: 0, license: '', last_commit: null }),
        repo({ stars: 0, license: '', last_commit: 'garbage' }),
        repo({ stars: 0, license: 'GPL-3.0' }),
      ],
      now,
    );
    expect(stats).toEqual({
      totalRepositories: 6,
      totalStars: 16,
      averageStars: 2.7,
      totalForks: 3,
      totalIssues: 2,
      totalCommits: 3,
      totalContributors: 2005,
      recentlyUpdated: 2,
      withLicense: 3,
      licenseCoverage: 50,
      mostCommonLicense: { name: 'No License', count: 3 },
    });
  });

  it('is all zeros without repositories', () => {
    expect(computeStats([], now)).toMatchObject({
      totalRepositories: 0,
      averageStars: 0,
      licenseCoverage: 0,
      mostCommonLicense: null,
    });
  });

  it('rounds coverage to a whole percentage', () => {
    const three = [repo({ license: 'MIT' }), repo({ license: '' }), repo({ license: '' })];
    expect(computeStats(three, now).licenseCoverage).toBe(33);
  });
});

describe('chart data', () => {
  it('counts licences, most common first', () => {
    expect(licenseDistribution(rows)).toEqual([
      { name: 'MIT', count: 2 },
      { name: 'Apache-2.0', count: 1 },
      { name: 'No License', count: 1 },
    ]);
  });

  it('ranks topics', () => {
    expect(topTopics(rows, 2)).toEqual([
      { name: 'ui', count: 2 },
      { name: 'web', count: 2 },
    ]);
  });

  it('buckets stars', () => {
    expect(starDistribution(rows)).toEqual([
      { range: '< 100', count: 2 },
      { range: '100–999', count: 0 },
      { range: '1k–10k', count: 1 },
      { range: '10k–50k', count: 0 },
      { range: '50k–100k', count: 0 },
      { range: '100k+', count: 1 },
    ]);
  });

  it('lists the distinct filter choices from the data', () => {
    expect(distinctValues(rows)).toEqual({
      tags: ['backend', 'frontend', 'React'],
      topics: ['api', 'ui', 'web'],
      licenses: ['Apache-2.0', 'MIT', 'No License'],
    });
  });
});
