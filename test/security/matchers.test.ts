import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailOnlyBodySchema } from '#shared/schemas/auth.ts';
import { tagPatternProblem } from '#shared/schemas/releases.ts';
import { RELEASES_READ } from '../../server/github/repository-snapshot.ts';
import { tagMatcher, VERSION_NUMBER_MAX } from '../../server/modules/releases/release-rules.ts';
import { MATCH_STEPS, type StepMeter } from '../../server/modules/releases/tag-glob.ts';
import { listDoubleRepositories } from '../github-double/index.ts';
import { signedInUser } from '../helpers/auth-factory.ts';
import { createReposTestApp, repoPath, syncEverythingNow } from '../helpers/repos-app.ts';

/**
 * User patterns reach no backtracking matcher (issue 22, docs/security.md#user-patterns). A
 * release tag pattern is the one piece of user text the server matches against other text; it
 * used to go through picomatch's regular expressions, where `*a*a*a…*ab` against a tag of `a`s
 * backtracks exponentially and blocked the event loop for minutes. The matcher now counts its
 * steps, and this suite holds the count to c · |pattern| · |tag| for the worst patterns we can
 * build against 255-character tags (git's longest tag names), directly and through a sync.
 * Counts, never times: the times are in `npm run bench -- matcher`.
 */

/**
 * Steps per pattern character and tag character. Per tag character the automaton tries each
 * edge of each live state once and enters each reached state once: at most 2 reading edges
 * and 1 other per glob character (a `**` part has 4 and 1 for its 2 characters), so at most
 * 5 steps, plus one pass over the states at the start and the end (≤ 2 per glob character).
 */
const STEPS_PER_CELL = 8;
const TAG_LENGTH = 255;

function steps(pattern: string, tag: string): { matched: boolean; steps: number } {
  const meter: StepMeter = { steps: 0 };
  const matched = tagMatcher(pattern, meter)(tag);
  return { matched, steps: meter.steps };
}

const bound = (pattern: string, tag: string) => STEPS_PER_CELL * pattern.length * Math.max(1, tag.length);

const as = (length: number) => 'a'.repeat(length);

/** The worst patterns we found, each as long as the schema lets it be, with the tags that hurt them most. */
const WORST: { name: string; pattern: string; tags: string[] }[] = [
  {
    name: 'stars between letters, ending where the tag does not (picomatch: exponential)',
    pattern: `${'*a'.repeat(99)}b`,
    tags: [as(TAG_LENGTH), `${as(TAG_LENGTH - 1)}b`, `${as(TAG_LENGTH - 1)}/`],
  },
  {
    name: 'a star after every any-character',
    pattern: '?*'.repeat(100),
    tags: [as(TAG_LENGTH), 'a/'.repeat(127)],
  },
  {
    name: 'classes between stars',
    pattern: `${'*[a-z0-9]'.repeat(22)}b`,
    tags: [as(TAG_LENGTH), '9'.repeat(TAG_LENGTH)],
  },
  { name: 'repeated classes between stars', pattern: `${'*[^b]+'.repeat(33)}b`, tags: [as(TAG_LENGTH)] },
  {
    name: 'long negated classes between stars',
    pattern: `${'*[^bcdefghijklmnopqrstuvwxyz0123456789._/-]'.repeat(4)}b`,
    tags: [as(TAG_LENGTH)],
  },
  {
    name: 'globstars between parts',
    pattern: `${'**/a*/'.repeat(33)}b`,
    tags: [`${'a/'.repeat(127)}a`, `${'aa/'.repeat(84)}aaa`],
  },
  {
    name: 'twenty globs, includes and excludes',
    pattern: Array.from({ length: 20 }, (_, index) => (index % 2 ? '!*a*a*ab' : '*a*a*a*ab')).join(','),
    tags: [as(TAG_LENGTH)],
  },
];

describe('the tag matcher stays within c · |pattern| · |tag| steps', () => {
  it.each(WORST)('$name', ({ pattern, tags }) => {
    expect(tagPatternProblem(pattern)).toBeNull();
    expect(pattern.length).toBeGreaterThan(150);
    for (const tag of tags) {
      const counted = steps(pattern, tag);
      expect(counted.steps).toBeGreaterThan(0);
      expect({ tag: tag.length, steps: counted.steps }).toEqual({
        tag: tag.length,
        steps: expect.toSatisfy((value: number) => value <= bound(pattern, tag)),
      });
    }
  });

  it('answers correctly on the worst cases (it is no faster by being wrong)', () => {
    const [stars] = WORST;
    expect(steps(stars?.pattern ?? '', `${as(99)}b`).matched).toBe(true);
    expect(steps(stars?.pattern ?? '', `${as(98)}b`).matched).toBe(false);
    expect(steps(stars?.pattern ?? '', as(TAG_LENGTH)).matched).toBe(false);
  });

  it('holds for any pattern the schema admits, built from the characters that cost most', () => {
    const glob = fc
      .array(fc.constantFrom('*', '*', '?', 'a', 'b', '/', '**/', '[a-z]', '[^b]+', '[ab]'), {
        minLength: 1,
        maxLength: 60,
      })
      .map((atoms) => atoms.join(''));
    const pattern = fc
      .array(fc.tuple(fc.boolean(), glob), { minLength: 1, maxLength: 20 })
      .map((globs) => globs.map(([exclude, text]) => (exclude ? `!${text}` : text)).join(','))
      .map((text) => text.slice(0, 200))
      .filter((text) => tagPatternProblem(text) === null);
    const tag = fc
      .array(fc.constantFrom('a', 'a', 'a', 'b', '/', 'A', '-'), { minLength: 1, maxLength: TAG_LENGTH })
      .map((characters) => characters.join(''));
    fc.assert(
      fc.property(pattern, tag, (text, tagText) => {
        expect(steps(text, tagText).steps).toBeLessThanOrEqual(bound(text, tagText));
      }),
      { numRuns: 300, seed: 20_261_126 },
    );
  });
});

describe('a member saves the worst pattern and the next sync reads tags of a', () => {
  const SERVER_TOKEN = 'ghp_serverTokenForMatchers01';
  let t: Awaited<ReturnType<typeof createReposTestApp>>;

  beforeAll(async () => {
    t = await createReposTestApp({ GITHUB_TOKEN: SERVER_TOKEN });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('finishes, takes the one tag the pattern accepts, and counts its steps within the bound', async () => {
    const member = await signedInUser(t.app);
    const name = listDoubleRepositories()
      .filter((repository) => !repository.special && !repository.isPrivate)
      .map((repository) => repository.fullName)
      .find((fullName) => t.github.releases.style(fullName) === 'releases');
    if (!name) throw new Error('no repository with releases in the double');
    const added = await t.app.inject({
      method: 'POST',
      url: '/repositories/',
      headers: member.headers,
      payload: { id: name },
    });
    expect(added.statusCode).toBe(201);

    const pattern = `${'*a'.repeat(99)}b`;
    const saved = await t.app.inject({
      method: 'PUT',
      url: repoPath(name, '/release-settings'),
      headers: member.headers,
      payload: { include_prereleases: false, tag_pattern: pattern },
    });
    expect(saved.statusCode).toBe(200);

    // Anyone can push such tags to a repository of their own. The longest reach the matcher
    // (a version number is at most VERSION_NUMBER_MAX characters); the 255-character one doesn't.
    const tags = [as(TAG_LENGTH), as(VERSION_NUMBER_MAX), as(VERSION_NUMBER_MAX - 2), `${as(99)}b`, as(97)];
    expect(tags).toHaveLength(RELEASES_READ);
    for (const tag of tags) t.github.releases.publish(name, { tag });

    const before = MATCH_STEPS.steps;
    const run = await syncEverythingNow(t.app);
    const counted = MATCH_STEPS.steps - before;
    expect(run.synced).toBeGreaterThanOrEqual(1);

    // Each tag short enough is matched at most twice (the newest accepted one, then the new ones).
    const matched = tags.filter((tag) => tag.length <= VERSION_NUMBER_MAX);
    const ceiling = 2 * matched.reduce((sum, tag) => sum + bound(pattern, tag), 0);
    expect(counted).toBeGreaterThan(0);
    expect(counted).toBeLessThanOrEqual(ceiling);

    const detail = await t.app.inject({ method: 'GET', url: repoPath(name), headers: member.headers });
    const versions = detail.json().repository.versions as { version_number: string }[];
    expect(versions.map((version) => version.version_number)).toContain(`${as(99)}b`);
    expect(versions.map((version) => version.version_number)).not.toContain(as(VERSION_NUMBER_MAX));
  });
});

describe('the e-mail address pattern (anonymous routes)', () => {
  it('never reads more than 254 characters: a 100,000-character address is refused at once', () => {
    // The pattern is quadratic in the domain's length (each `.` is a place to split it): before
    // the length check aborted, 40,000 characters held the event loop 7.5 s. A ceiling, not a
    // measurement: the parse now takes well under a millisecond.
    const address = `a@${'a.'.repeat(50_000)}@`;
    const started = performance.now();
    const parsed = emailOnlyBodySchema.safeParse({ email: address });
    const tookMs = performance.now() - started;
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.message)).toEqual([
      'Please enter a valid email address',
    ]);
    expect(tookMs).toBeLessThan(1000);
  });
});
