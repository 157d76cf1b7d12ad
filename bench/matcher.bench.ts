/**
 * The release tag matcher on the worst patterns the schema admits (issue 22): time per match of
 * a 200-character pattern against a 255-character tag (git's longest tag), the most a sync spends
 * matching for one repository (5 tags of at most 100 characters, each matched at most twice),
 * and picomatch, which matched tags before, on the same pattern with short tags for comparison
 * (docs/benchmarks.md). test/security/matchers.test.ts holds the step counts; these are times.
 */
import picomatch from 'picomatch';
import { RELEASES_READ } from '../server/github/repository-snapshot.ts';
import { tagMatcher, VERSION_NUMBER_MAX } from '../server/modules/releases/release-rules.ts';
import type { StepMeter } from '../server/modules/releases/tag-glob.ts';
import { atMost, type Figure, measured, printFigures } from './lib/results.ts';

const TAG_LENGTH = 255;
const ROUNDS = 2000;

const WORST: { name: string; pattern: string; tag: string }[] = [
  {
    name: '`*a`×99 `b` (picomatch: exponential)',
    pattern: `${'*a'.repeat(99)}b`,
    tag: 'a'.repeat(TAG_LENGTH),
  },
  { name: '`?*`×100', pattern: '?*'.repeat(100), tag: 'a'.repeat(TAG_LENGTH) },
  { name: '`*[a-z0-9]`×22 `b`', pattern: `${'*[a-z0-9]'.repeat(22)}b`, tag: 'a'.repeat(TAG_LENGTH) },
  { name: '`**/a*/`×33 `b`', pattern: `${'**/a*/'.repeat(33)}b`, tag: `${'a/'.repeat(127)}a` },
  {
    name: '20 globs `*a*a*a*ab`, `!*a*a*ab`',
    pattern: Array.from({ length: 20 }, (_, index) => (index % 2 ? '!*a*a*ab' : '*a*a*a*ab')).join(','),
    tag: 'a'.repeat(TAG_LENGTH),
  },
];

/** Median and worst time of `work` over `rounds` runs, in ms, after as many to warm up. */
function time(work: () => void, rounds = ROUNDS): { median: number; max: number } {
  for (let round = 0; round < rounds; round++) work();
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const started = performance.now();
    work();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)] ?? 0, max: times.at(-1) ?? 0 };
}

export async function runMatcherBench(): Promise<object> {
  const figures: Figure[] = [];
  let worst = 0;
  for (const { name, pattern, tag } of WORST) {
    const meter: StepMeter = { steps: 0 };
    tagMatcher(pattern, meter)(tag);
    const matches = tagMatcher(pattern);
    const { median, max } = time(() => matches(tag));
    worst = Math.max(worst, median);
    figures.push(
      measured(
        `${name}, ${pattern.length} × ${tag.length} characters`,
        median * 1000,
        'µs',
        `${meter.steps} steps; slowest run ${Math.round(max * 1000)} µs`,
      ),
    );
  }
  figures.push(atMost('worst match, median', worst, 'ms', 1));

  // The most matching one sync does for one repository: the pattern compiled once, then each
  // of the 5 newest tags that reach the matcher, at the longest a version number may be, twice.
  const pattern = `${'*a'.repeat(99)}b`;
  const sync = time(() => {
    const matches = tagMatcher(pattern);
    for (let index = 0; index < 2 * RELEASES_READ; index++) matches('a'.repeat(VERSION_NUMBER_MAX));
  }, 200);
  figures.push(atMost("one repository's matching in a sync, worst pattern, median", sync.median, 'ms', 5));

  // picomatch on the same pattern: time grows about ten times every four characters of tag.
  const before = picomatch(`${'*a'.repeat(12)}b`, { nocase: true, dot: true });
  for (const length of [20, 24, 28]) {
    const { median } = time(() => before('a'.repeat(length)), 3);
    figures.push(measured(`before: picomatch, \`*a\`×12 \`b\` × ${length} characters`, median, 'ms'));
  }
  printFigures('release tag matcher', figures);
  return { figures };
}
