import { parseTagPattern } from '#shared/schemas/releases.ts';
import type { ReleaseInfo } from '../../github/repository-snapshot.ts';
import { parseTime } from '../../lib/clock.ts';
import { MATCH_STEPS, type StepMeter, TagGlob } from './tag-glob.ts';

/** Lines of release notes a version's description keeps, and its length at most. */
export const NOTE_LINES = 5;
export const DESCRIPTION_MAX = 500;
/** A version number is at most this long (the versions table's column). */
export const VERSION_NUMBER_MAX = 100;

/**
 * Whether a tag passes a pattern (docs/product.md#releases): it matches one of the includes
 * (every tag when there are none) and none of the excludes, case aside. The pattern is checked
 * by the shared schema before it is stored; its globs are compiled by tag-glob.ts, which reads
 * a tag in O(|pattern| · |tag|) steps (added to `meter`) and never builds a regular expression
 * from user text (docs/security.md#user-patterns).
 */
export function tagMatcher(pattern: string, meter: StepMeter = MATCH_STEPS): (tag: string) => boolean {
  const { includes, excludes } = parseTagPattern(pattern);
  const included = includes.map((glob) => new TagGlob(glob));
  const excluded = excludes.map((glob) => new TagGlob(glob));
  return (tag) =>
    (included.length === 0 || included.some((glob) => glob.matches(tag, meter))) &&
    !excluded.some((glob) => glob.matches(tag, meter));
}

/** The release's title, then the first lines of its notes (headings unmarked), bounded. */
export function releaseDescription(release: ReleaseInfo): string | null {
  const parts: string[] = [];
  if (release.name && release.name.trim() !== release.tag) parts.push(release.name.trim());
  const lines = (release.notes ?? '')
    .split(/\r?\n/)
    .map((line) => line.replace(/^#{1,6}\s+/, '').trim())
    .filter((line) => line !== '');
  parts.push(...lines.slice(0, NOTE_LINES));
  if (lines.length > NOTE_LINES) parts.push('…');
  const text = parts.join('\n');
  if (text === '') return null;
  return text.length > DESCRIPTION_MAX ? `${text.slice(0, DESCRIPTION_MAX - 1).trimEnd()}…` : text;
}

/** The release date a version shows: the day it was published (UTC), else the day it was seen. */
export function releaseDay(release: ReleaseInfo, now: string): string {
  const published = release.publishedAt && !Number.isNaN(Date.parse(release.publishedAt));
  return (published ? parseTime(release.publishedAt as string).toISOString() : now).slice(0, 10);
}
