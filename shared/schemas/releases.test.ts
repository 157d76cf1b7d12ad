import { describe, expect, it } from 'vitest';
import { parseTagPattern, releaseSettingsBodySchema, tagPatternProblem } from './releases.ts';

describe('tag patterns', () => {
  it('splits globs on commas and spaces into includes and excludes', () => {
    expect(parseTagPattern(' v*, !*-rc*  release-*,,!nightly ')).toEqual({
      includes: ['v*', 'release-*'],
      excludes: ['*-rc*', 'nightly'],
    });
    expect(parseTagPattern('')).toEqual({ includes: [], excludes: [] });
  });

  it.each([
    ['', null],
    ['v*, !*-rc*', null],
    ['v[0-9]*.*', null],
    ['release/*', null],
    ['**, **/v*, release/**, a/**/b, v[0-9]+.*', null],
    ['[/]', null],
    ['v*, !', 'A "!" must be followed by the tags to leave out, for example !*-rc*.'],
    ['!!v*', '"!!v*": one "!" is enough to leave tags out.'],
    ['v[0-9*', '"v[0-9*" opens a [class] it doesn\'t close.'],
    ['v[]', '"v[]" opens a [class] it doesn\'t close.'],
    ['v[^]', '"v[^]" opens a [class] it doesn\'t close.'],
    ['v**', '"v**": ** stands alone between slashes (release/**); elsewhere one * is enough.'],
    ['!***', '"!***": ** stands alone between slashes (release/**); elsewhere one * is enough.'],
    ['a/**b', '"a/**b": ** stands alone between slashes (release/**); elsewhere one * is enough.'],
    ['./v*', '"./v*": a tag has no empty, "." or ".." part between slashes.'],
    ['a//b', '"a//b": a tag has no empty, "." or ".." part between slashes.'],
    ['release/', '"release/": a tag has no empty, "." or ".." part between slashes.'],
    ['a/../b', '"a/../b": a tag has no empty, "." or ".." part between slashes.'],
    ['v1++', '"v1++": write one + at a time (a tag glob reads ++ ambiguously).'],
    ['v{1,2}', expect.stringContaining("has a character a tag glob can't use")],
    ['(a|b)', expect.stringContaining("has a character a tag glob can't use")],
    ['x'.repeat(201), 'A tag pattern is at most 200 characters.'],
    [Array.from({ length: 21 }, (_, index) => `v${index}`).join(','), 'A tag pattern has at most 20 globs.'],
  ])('%j → %j', (pattern, problem) => {
    expect(tagPatternProblem(pattern)).toEqual(problem);
  });

  it('the settings body trims the pattern and reports problems on tag_pattern', () => {
    expect(releaseSettingsBodySchema.parse({ include_prereleases: true, tag_pattern: '  v*  ' })).toEqual({
      include_prereleases: true,
      tag_pattern: 'v*',
    });
    const failed = releaseSettingsBodySchema.safeParse({ include_prereleases: false, tag_pattern: 'v*,!' });
    expect(failed.success).toBe(false);
    expect(failed.error?.issues[0]?.path).toEqual(['tag_pattern']);
  });
});
