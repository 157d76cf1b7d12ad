import fc from 'fast-check';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { parseTagPattern, tagPatternProblem } from '#shared/schemas/releases.ts';
import { tagMatcher } from './release-rules.ts';
import { type StepMeter, TagGlob } from './tag-glob.ts';

/**
 * The glob matcher against picomatch, which matched tags before it (same options): the same
 * answer for every pattern the shared schema admits and every tag git and GitHub allow.
 * GLOB_RUNS and GLOB_SEED run the comparison longer or elsewhere (160,000 runs over eight seeds
 * passed when it was written).
 */

/** What tagMatcher was: picomatch, case aside, dotfiles like any name. */
function picomatchMatcher(pattern: string): (tag: string) => boolean {
  const { includes, excludes } = parseTagPattern(pattern);
  const options = { nocase: true, dot: true };
  const included = includes.length > 0 ? picomatch(includes, options) : () => true;
  const excluded = excludes.length > 0 ? picomatch(excludes, options) : () => false;
  return (tag) => included(tag) && !excluded(tag);
}

/** `git check-ref-format` for a tag name: what GitHub can answer as a tag. */
function validTag(tag: string): boolean {
  if (tag === '' || tag === '@' || tag.endsWith('.') || tag.endsWith('/') || tag.startsWith('/'))
    return false;
  if (tag.includes('..') || tag.includes('//') || tag.includes('@{')) return false;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: git refuses control characters.
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(tag)) return false;
  return tag.split('/').every((part) => !part.startsWith('.') && !part.endsWith('.lock'));
}

const LITERALS = ['a', 'b', 'A', 'B', 'v', 'V', '1', '2', '.', '-', '_', '+', '@', '!', '#', '=', '~', '^'];
const TAG_CHARACTERS = [
  'a',
  'b',
  'A',
  'B',
  'v',
  'V',
  '1',
  '2',
  '.',
  '-',
  '_',
  '+',
  '@',
  '!',
  '#',
  '=',
  '/',
  'é',
  'ſ',
  'K',
  '{',
  ',',
];
const CLASS_CHARACTERS = [
  'a',
  'b',
  'B',
  'z',
  'Z',
  '0',
  '1',
  '9',
  '.',
  '-',
  '_',
  '+',
  '@',
  '!',
  '^',
  '/',
  '#',
  '=',
  '~',
  '?',
  '*',
];

const classGlob = fc
  .tuple(
    fc.constantFrom('', '', '^', '!'),
    fc.array(fc.constantFrom(...CLASS_CHARACTERS), { minLength: 1, maxLength: 5 }),
  )
  .map(([negation, characters]) => `[${negation}${characters.join('')}]`);

const atom = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...LITERALS) },
  { weight: 2, arbitrary: fc.constant('?') },
  { weight: 3, arbitrary: fc.constant('*') },
  { weight: 2, arbitrary: classGlob },
);

const part = fc.oneof(
  { weight: 1, arbitrary: fc.constant('**') },
  { weight: 6, arbitrary: fc.array(atom, { minLength: 0, maxLength: 5 }).map((atoms) => atoms.join('')) },
);

const glob = fc
  .tuple(fc.constantFrom('', '', '', '', './'), fc.array(part, { minLength: 1, maxLength: 4 }))
  .map(([prefix, parts]) => prefix + parts.join('/'))
  // Stars in picomatch backtrack: a few keep the reference quick.
  .filter((text) => (text.match(/\*/g)?.length ?? 0) <= 6);

const pattern = fc
  .array(fc.tuple(fc.boolean(), glob), { minLength: 1, maxLength: 3 })
  .map((globs) => globs.map(([exclude, text]) => (exclude ? `!${text}` : text)).join(', '))
  .filter((text) => tagPatternProblem(text) === null);

const randomTag = fc
  .array(fc.constantFrom(...TAG_CHARACTERS), { minLength: 1, maxLength: 24 })
  .map((characters) => characters.join(''));

/** A tag one of the pattern's globs is likely to match, then perhaps changed a little. */
function tagFor(text: string, choices: number[]): string {
  let next = 0;
  const pick = <T>(options: readonly T[]): T =>
    options[(choices[next++ % choices.length] ?? 0) % options.length] as T;
  const globs = text.split(/[\s,]+/).map((entry) => entry.replace(/^!/, ''));
  const chosen = pick(globs).replace(/^\.\//, '');
  let out = '';
  for (let index = 0; index < chosen.length; index++) {
    const character = chosen[index] as string;
    if (character === '*') {
      while (chosen[index + 1] === '*') index++;
      out += pick(['', 'a', 'v1', 'b.2', 'a/b', '']);
    } else if (character === '?') out += pick(['a', 'B', '1', '-', '/']);
    else if (character === '[') {
      const close = chosen.indexOf(']', index + 2);
      const body = chosen.slice(index + 1, close === -1 ? undefined : close);
      out += pick([...body.replace(/^\^/, ''), 'x', 'Z']);
      index = close === -1 ? chosen.length : close;
    } else out += pick([character, character.toUpperCase(), character.toLowerCase()]);
  }
  const change = pick([0, 0, 0, 1, 2, 3]);
  const at = pick([0, 1, 2, 3, 5, 8]) % (out.length + 1);
  if (change === 1) out = out.slice(0, at) + pick(TAG_CHARACTERS) + out.slice(at);
  if (change === 2) out = out.slice(0, at) + out.slice(at + 1);
  if (change === 3) out = out.slice(0, at) + pick(TAG_CHARACTERS) + out.slice(at + 1);
  return out;
}

const patternAndTags = pattern.chain((text) =>
  fc.tuple(
    fc.constant(text),
    fc.array(
      fc.oneof(
        randomTag,
        fc.array(fc.nat(), { minLength: 1, maxLength: 40 }).map((choices) => tagFor(text, choices)),
      ),
      { minLength: 1, maxLength: 8 },
    ),
  ),
);

describe('TagGlob', () => {
  it('answers as picomatch did for every pattern the schema admits and every valid tag', () => {
    let compared = 0;
    let matched = 0;
    fc.assert(
      fc.property(patternAndTags, ([text, tags]) => {
        const ours = tagMatcher(text);
        const theirs = picomatchMatcher(text);
        for (const tag of tags.filter(validTag)) {
          compared += 1;
          if (theirs(tag)) matched += 1;
          expect({ text, tag, matches: ours(tag) }).toEqual({ text, tag, matches: theirs(tag) });
        }
      }),
      { numRuns: Number(process.env.GLOB_RUNS ?? 3000), seed: Number(process.env.GLOB_SEED ?? 20_261_126) },
    );
    // The generator reaches both answers often enough to mean something.
    expect(compared).toBeGreaterThan(5000);
    expect(matched).toBeGreaterThan(compared / 10);
  });

  it.each([
    ['v*', ['v1.2.0', 'V2', 'v'], ['release/v1', 'x']],
    ['release/**', ['release', 'release/1', 'release/1/2'], ['releases', 'other/release']],
    ['**/v*', ['v1', 'a/v1', 'a/b/v1'], ['a/xv1']],
    ['a/**/b', ['a/b', 'a/x/b', 'a/x/y/b'], ['ab', 'a/xb']],
    ['a*/**', ['ax/1', 'a/1/2'], ['a', 'ax']],
    ['?/**', ['a', 'a/1'], ['ab']],
    ['**', ['a', 'a/b/c'], []],
    ['[a-c-e]', ['a', 'B', '-', 'e'], ['d', 'f']],
    ['[^a-c/]x', ['dx', '1x'], ['ax', 'Cx']],
    ['[!a]', ['!', 'A'], ['b']],
    ['[.-0]', ['.', '/', '0'], ['a']],
    ['[z-a]', [], ['z', 'a', 'm']],
    ['[a--]', [], ['a', '-']],
    ['[^]', [], ['^', 'a']],
    ['./v1', ['v1'], ['v2']],
    ['v?.0', ['v1.0', 'VX.0'], ['v/.0', 'v10.0']],
  ])('%s', (glob, yes, no) => {
    const compiled = new TagGlob(glob);
    const reference = picomatch(glob, { nocase: true, dot: true });
    for (const tag of yes) expect([tag, compiled.matches(tag), reference(tag)]).toEqual([tag, true, true]);
    for (const tag of no) expect([tag, compiled.matches(tag), reference(tag)]).toEqual([tag, false, false]);
  });

  it('counts its steps, at most a few per state and tag character', () => {
    const meter: StepMeter = { steps: 0 };
    const compiled = new TagGlob(`${'*a'.repeat(12)}b`);
    expect(compiled.matches('a'.repeat(40), meter)).toBe(false);
    expect(meter.steps).toBeGreaterThan(0);
    expect(meter.steps).toBeLessThanOrEqual(6 * compiled.states * 41);
  });
});
