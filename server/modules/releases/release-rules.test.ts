import { describe, expect, it } from 'vitest';
import type { ReleaseInfo } from '../../github/repository-snapshot.ts';
import { releaseDay, releaseDescription, tagMatcher } from './release-rules.ts';

const release = (overrides: Partial<ReleaseInfo>): ReleaseInfo => ({
  tag: 'v1.0.0',
  name: null,
  notes: null,
  publishedAt: '2026-08-01T23:30:00Z',
  prerelease: false,
  draft: false,
  url: null,
  ...overrides,
});

describe('tagMatcher', () => {
  it('takes every tag without a pattern', () => {
    expect(tagMatcher('')('anything')).toBe(true);
  });

  it('needs one include to match and no exclude, case aside', () => {
    const matches = tagMatcher('v*, release-*, !*-rc*, !*beta*');
    expect(['v1.2.0', 'V2.0.0', 'release-2026']).toEqual(
      ['v1.2.0', 'V2.0.0', 'release-2026'].filter(matches),
    );
    expect(['v1.0.0-rc.1', 'v2.0.0-BETA', 'nightly'].filter(matches)).toEqual([]);
  });

  it('excludes alone leave every other tag in; classes and ? work; * stops at a slash', () => {
    expect(tagMatcher('!nightly*')('v1')).toBe(true);
    expect(tagMatcher('!nightly*')('nightly-1')).toBe(false);
    expect(tagMatcher('v[0-9].?')('v1.2')).toBe(true);
    expect(tagMatcher('v[0-9].?')('vx.2')).toBe(false);
    expect(tagMatcher('release/*')('release/1.0')).toBe(true);
    expect(tagMatcher('*')('release/1.0')).toBe(false);
  });
});

describe('releaseDescription', () => {
  it('is the title, then the first five lines of the notes, headings unmarked, bounded', () => {
    expect(
      releaseDescription(
        release({ name: 'Big one', notes: '## What changed\r\n\n* a\n* b\n* c\n* d\n* e\n' }),
      ),
    ).toBe('Big one\nWhat changed\n* a\n* b\n* c\n* d\n…');
    expect(releaseDescription(release({ name: 'v1.0.0', notes: null }))).toBeNull();
    expect(releaseDescription(release({ notes: 'x'.repeat(800) }))?.length).toBe(500);
  });

  it('dates a release by its UTC publication day, else the day it was seen', () => {
    expect(releaseDay(release({}), '2026-11-25T10:00:00.000Z')).toBe('2026-08-01');
    expect(releaseDay(release({ publishedAt: null }), '2026-11-25T10:00:00.000Z')).toBe('2026-11-25');
  });
});
