/**
 * Tags as the screens show them (docs/product.md#formatting): a chip colour from 12 fixed pairs chosen by a
 * hash of the lower-cased name, the counts of the Tags page, and the suggestions of the tag
 * editors (up to 8 most-used tags of the member's own repositories).
 */
import { TAG_COLOR_PAIRS, TAG_SUGGESTIONS_MAX } from './constants.ts';

export interface TagColorPair {
  /** Chip background. */
  background: string;
  /** Chip text; at least 4.5:1 on the background (WCAG AA). */
  color: string;
}

export interface TagColors {
  light: TagColorPair;
  dark: TagColorPair;
}

/** The 12 pairs: a pale fill with dark text in light mode, a deep fill with pale text in dark mode. */
export const TAG_COLORS: readonly TagColors[] = [
  { light: { background: '#dbeafe', color: '#1e40af' }, dark: { background: '#1e3a8a', color: '#dbeafe' } },
  { light: { background: '#dcfce7', color: '#166534' }, dark: { background: '#14532d', color: '#dcfce7' } },
  { light: { background: '#fef3c7', color: '#92400e' }, dark: { background: '#78350f', color: '#fef3c7' } },
  { light: { background: '#fee2e2', color: '#991b1b' }, dark: { background: '#7f1d1d', color: '#fee2e2' } },
  { light: { background: '#f3e8ff', color: '#6b21a8' }, dark: { background: '#581c87', color: '#f3e8ff' } },
  { light: { background: '#fce7f3', color: '#9d174d' }, dark: { background: '#831843', color: '#fce7f3' } },
  { light: { background: '#e0e7ff', color: '#3730a3' }, dark: { background: '#312e81', color: '#e0e7ff' } },
  { light: { background: '#ccfbf1', color: '#115e59' }, dark: { background: '#134e4a', color: '#ccfbf1' } },
  { light: { background: '#ffedd5', color: '#9a3412' }, dark: { background: '#7c2d12', color: '#ffedd5' } },
  { light: { background: '#cffafe', color: '#155e75' }, dark: { background: '#164e63', color: '#cffafe' } },
  { light: { background: '#ecfccb', color: '#3f6212' }, dark: { background: '#365314', color: '#ecfccb' } },
  { light: { background: '#e2e8f0', color: '#334155' }, dark: { background: '#334155', color: '#e2e8f0' } },
];

/** The classic 32-bit string hash (`hash * 31 + code`), over the lower-cased name. */
export function hashTag(tag: string): number {
  let hash = 0;
  for (const char of tag.trim().toLowerCase()) {
    hash = (hash * 31 + (char.codePointAt(0) ?? 0)) | 0;
  }
  return hash;
}

export function tagColorIndex(tag: string): number {
  return Math.abs(hashTag(tag)) % TAG_COLOR_PAIRS;
}

/** The chip colours of a tag; 'React' and 'react' look the same. */
export function tagColors(tag: string): TagColors {
  return TAG_COLORS[tagColorIndex(tag)] as TagColors;
}

export interface TagCount {
  /** The first spelling met; tags are the same tag whatever their case. */
  name: string;
  count: number;
}

interface Tagged {
  tags: string;
}

function countInto(counts: Map<string, TagCount>, tags: string): void {
  // A repository counts once per tag even if it repeats it in another case.
  const seen = new Set<string>();
  for (const raw of tags.split(',')) {
    const name = raw.trim();
    if (!name) continue;
    const key = name.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    const entry = counts.get(key);
    if (entry) entry.count += 1;
    else counts.set(key, { name, count: 1 });
  }
}

const byName = /* @__PURE__ */ new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** Every tag with its repository count, sorted by name (docs/product.md#tags-page). */
export function countTags(repositories: readonly Tagged[]): TagCount[] {
  const counts = new Map<string, TagCount>();
  for (const repository of repositories) countInto(counts, repository.tags);
  return [...counts.values()].sort((a, b) => byName.compare(a.name, b.name));
}

/** The number of distinct tags (case-insensitive) over the given repositories. */
export function countDistinctTags(repositories: readonly Tagged[]): number {
  const keys = new Set<string>();
  for (const repository of repositories) {
    for (const raw of repository.tags.split(',')) {
      const name = raw.trim();
      if (name) keys.add(name.toLowerCase());
    }
  }
  return keys.size;
}

/** Whether a repository's comma-separated tags include `tag` (case-insensitive). */
export function hasTag(tags: string, tag: string): boolean {
  const wanted = tag.trim().toLowerCase();
  return tags.split(',').some((raw) => raw.trim().toLowerCase() === wanted);
}

/**
 * Up to 8 most-used tags of the member's own repositories (user_id equals theirs),
 * by count descending, then by name.
 */
export function tagSuggestions(
  repositories: readonly (Tagged & { user_id: number | null })[],
  userId: number,
  max: number = TAG_SUGGESTIONS_MAX,
): TagCount[] {
  const counts = new Map<string, TagCount>();
  for (const repository of repositories) {
    if (repository.user_id === userId) countInto(counts, repository.tags);
  }
  return [...counts.values()]
    .sort((a, b) => b.count - a.count || byName.compare(a.name, b.name))
    .slice(0, max);
}

/**
 * The tag entry rules (docs/product.md#validation-rules) applied to a whole list: trimmed, empties dropped, a
 * tag that matches a suggestion in another case takes the suggestion's spelling, and case-insensitive
 * duplicates are dropped (the first one stays).
 */
export function normalizeTagList(tags: readonly string[], suggestions: readonly string[] = []): string[] {
  const spelling = new Map(suggestions.map((suggestion) => [suggestion.toLowerCase(), suggestion]));
  const seen = new Set<string>();
  const result: string[] = [];
  for (const raw of tags) {
    const trimmed = raw.trim();
    if (!trimmed) continue;
    const key = trimmed.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    result.push(spelling.get(key) ?? trimmed);
  }
  return result;
}
