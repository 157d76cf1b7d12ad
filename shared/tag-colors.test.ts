import { describe, expect, it } from 'vitest';
import { TAG_COLOR_PAIRS } from './constants.ts';
import {
  countDistinctTags,
  countTags,
  hashTag,
  hasTag,
  normalizeTagList,
  TAG_COLORS,
  tagColorIndex,
  tagColors,
  tagSuggestions,
} from './tag-colors.ts';

/** WCAG relative luminance contrast of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, bl] = [1, 3, 5].map((i) => {
      const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
}

describe('tag colours', () => {
  it('has 12 distinct pairs, each readable (AA) in light and dark mode', () => {
    expect(TAG_COLORS).toHaveLength(TAG_COLOR_PAIRS);
    expect(TAG_COLOR_PAIRS).toBe(12);
    expect(new Set(TAG_COLORS.map((pair) => pair.light.background)).size).toBe(12);
    for (const pair of TAG_COLORS) {
      expect(contrast(pair.light.background, pair.light.color)).toBeGreaterThanOrEqual(4.5);
      expect(contrast(pair.dark.background, pair.dark.color)).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('picks the pair by a hash of the lower-cased name', () => {
    expect(tagColors('React')).toBe(tagColors('react'));
    expect(tagColors(' REACT ')).toBe(tagColors('react'));
    expect(hashTag('a')).toBe(97);
    expect(hashTag('ab')).toBe(97 * 31 + 98);
    expect(tagColorIndex('a')).toBe(97 % 12);
  });

  it('spreads tags over every pair', () => {
    const used = new Set(Array.from({ length: 200 }, (_, i) => tagColorIndex(`tag-${i}`)));
    expect(used.size).toBe(12);
    for (const index of used) expect(index).toBeGreaterThanOrEqual(0);
  });
});

describe('countTags (Tags page)', () => {
  it('counts each tag once per repository, case-insensitively, sorted by name', () => {
    const counts = countTags([
      { tags: 'frontend,React' },
      { tags: 'react, backend ,react' },
      { tags: '' },
      { tags: 'zeta,alpha,Frontend' },
    ]);
    expect(counts).toEqual([
      { name: 'alpha', count: 1 },
      { name: 'backend', count: 1 },
      { name: 'frontend', count: 2 },
      { name: 'React', count: 2 },
      { name: 'zeta', count: 1 },
    ]);
    expect(countDistinctTags([{ tags: 'a,B' }, { tags: 'b, c' }, { tags: '' }])).toBe(3);
  });

  it('matches a tag case-insensitively', () => {
    expect(hasTag('ui, React ,web', 'react')).toBe(true);
    expect(hasTag('ui,reactive', 'react')).toBe(false);
  });
});

describe('tagSuggestions', () => {
  const rows = [
    { user_id: 1, tags: 'b,a,c' },
    { user_id: 1, tags: 'a,c' },
    { user_id: 1, tags: 'c,d,e,f,g,h,i,j' },
    { user_id: 2, tags: 'mine-not,x,x2' },
    { user_id: null, tags: 'orphan' },
  ];

  it('uses only the member’s own repositories, count descending then name, at most 8', () => {
    expect(tagSuggestions(rows, 1)).toEqual([
      { name: 'c', count: 3 },
      { name: 'a', count: 2 },
      { name: 'b', count: 1 },
      { name: 'd', count: 1 },
      { name: 'e', count: 1 },
      { name: 'f', count: 1 },
      { name: 'g', count: 1 },
      { name: 'h', count: 1 },
    ]);
    expect(tagSuggestions(rows, 2).map((tag) => tag.name)).toEqual(['mine-not', 'x', 'x2']);
    expect(tagSuggestions(rows, 3)).toEqual([]);
  });
});

describe('normalizeTagList (tag entry rules)', () => {
  it('trims, drops empties and case-insensitive duplicates; a suggestion’s spelling wins', () => {
    expect(normalizeTagList([' web ', '', 'React', 'react', 'WEB', 'GraphQL'], ['react', 'graphql'])).toEqual(
      ['web', 'react', 'graphql'],
    );
  });
});
