/**
 * Release tracking (docs/product.md#releases): per repository, whether pre-releases become
 * versions and which tags count, as a list of globs. Shared so the server and the detail
 * page's form reject the same patterns with the same words.
 */
import { z } from 'zod';

/** Where a version came from: recorded by a member, or made from a GitHub release or tag. */
export const VERSION_SOURCES = ['manual', 'release'] as const;
export type VersionSource = (typeof VERSION_SOURCES)[number];

/** What the sync engine follows for a repository: its releases, its tags (no releases), or not read yet. */
export const RELEASE_FOLLOWS = ['releases', 'tags'] as const;
export type ReleaseFollows = (typeof RELEASE_FOLLOWS)[number];

export const TAG_PATTERN_MAX_LENGTH = 200;
/** Globs in one pattern, includes and excludes together. */
export const TAG_PATTERN_MAX_ENTRIES = 20;

/**
 * Characters a glob may use: what tags are made of, plus `*`, `?`, `[…]` classes and a leading
 * `!`. No braces or parentheses (extended globs), so a comma always separates two globs. The
 * server matches them without backtracking (server/modules/releases/tag-glob.ts).
 */
const GLOB_CHARACTERS = /^[A-Za-z0-9._\-/+@*?[\]!^#=~]+$/;

/** A pattern split into its globs: `v*, !*-rc*` → includes `v*`, excludes `*-rc*`. */
export function parseTagPattern(pattern: string): { includes: string[]; excludes: string[] } {
  const includes: string[] = [];
  const excludes: string[] = [];
  for (const entry of pattern.split(/[\s,]+/)) {
    if (entry === '') continue;
    if (entry.startsWith('!')) excludes.push(entry.slice(1));
    else includes.push(entry);
  }
  return { includes, excludes };
}

/** Why a pattern can't be used, in words a member can act on; null when it is fine. */
export function tagPatternProblem(pattern: string): string | null {
  if (pattern.length > TAG_PATTERN_MAX_LENGTH)
    return `A tag pattern is at most ${TAG_PATTERN_MAX_LENGTH} characters.`;
  const entries = pattern.split(/[\s,]+/).filter((entry) => entry !== '');
  if (entries.length > TAG_PATTERN_MAX_ENTRIES)
    return `A tag pattern has at most ${TAG_PATTERN_MAX_ENTRIES} globs.`;
  for (const entry of entries) {
    const glob = entry.startsWith('!') ? entry.slice(1) : entry;
    if (glob === '') return 'A "!" must be followed by the tags to leave out, for example !*-rc*.';
    if (!GLOB_CHARACTERS.test(glob))
      return `"${entry}" has a character a tag glob can't use: use letters, digits, . _ - / + @, * and ? and [abc] classes.`;
    if (glob.startsWith('!')) return `"${entry}": one "!" is enough to leave tags out.`;
    if (!bracketsBalanced(glob)) return `"${entry}" opens a [class] it doesn't close.`;
    const parts = partsOf(glob);
    if (parts.some((part) => part === '' || part === '.' || part === '..'))
      return `"${entry}": a tag has no empty, "." or ".." part between slashes.`;
    // `**` (any number of parts) only as a whole part: `**`, `**/v*`, `release/**`; elsewhere
    // (`v**`, `***`) picomatch read it sometimes as `*`, sometimes as `**`.
    if (parts.some((part) => part !== '**' && part.includes('**')))
      return `"${entry}": ** stands alone between slashes (release/**); elsewhere one * is enough.`;
    if (glob.includes('++')) return `"${entry}": write one + at a time (a tag glob reads ++ ambiguously).`;
  }
  return null;
}

/**
 * `[` and `]` pair up without nesting, and a class holds at least one character (`[]` and
 * `[^]` hold none: picomatch would read their `]` as a character and the class on).
 */
function bracketsBalanced(glob: string): boolean {
  let open = -1;
  for (let index = 0; index < glob.length; index++) {
    const character = glob[index];
    if (character === '[') {
      if (open !== -1) return false;
      open = index;
    } else if (character === ']') {
      if (open === -1 || index === open + 1 || (index === open + 2 && glob[open + 1] === '^')) return false;
      open = -1;
    }
  }
  return open === -1;
}

/** A glob's parts between slashes (a `/` inside a class is a character of the class). */
function partsOf(glob: string): string[] {
  const parts = [''];
  let inClass = false;
  for (const character of glob) {
    if (character === '[') inClass = true;
    else if (character === ']') inClass = false;
    if (character === '/' && !inClass) parts.push('');
    else parts[parts.length - 1] += character;
  }
  return parts;
}

export const tagPatternSchema = z
  .string()
  .trim()
  .max(TAG_PATTERN_MAX_LENGTH, `A tag pattern is at most ${TAG_PATTERN_MAX_LENGTH} characters.`)
  .superRefine((pattern, context) => {
    const problem = tagPatternProblem(pattern);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  })
  .describe('globs separated by commas or spaces; a leading ! leaves matching tags out; empty: every tag');

/** PUT /repositories/{id}/release-settings. */
export const releaseSettingsBodySchema = z.object({
  include_prereleases: z.boolean().describe('GitHub pre-releases become versions too (drafts never do)'),
  tag_pattern: tagPatternSchema,
});
export type ReleaseSettingsBody = z.input<typeof releaseSettingsBodySchema>;

/** A repository's release tracking, as the detail answer and the settings call give it. */
export const releaseTrackingSchema = z
  .object({
    include_prereleases: z.boolean(),
    tag_pattern: z.string(),
    follows: z
      .enum(RELEASE_FOLLOWS)
      .nullable()
      .describe("what GitHub has for it: 'releases', only 'tags', or null before the first read"),
    checked_at: z.string().nullable().describe('when its releases were last read from GitHub'),
  })
  .meta({ id: 'ReleaseTracking' });
export type ReleaseTracking = z.infer<typeof releaseTrackingSchema>;

export const DEFAULT_RELEASE_TRACKING: ReleaseTracking = {
  include_prereleases: false,
  tag_pattern: '',
  follows: null,
  checked_at: null,
};

export const releaseTrackingResponseSchema = z.object({ release_tracking: releaseTrackingSchema });
