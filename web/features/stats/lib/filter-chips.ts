import { starRangeLabel } from '#shared/format.ts';
import type { StatsFilters } from '#shared/stats.ts';

/** A filter chip: type, label and value (min and max for stars). */
export interface FilterChip {
  type: 'tag' | 'topic' | 'license' | 'stars';
  label: string;
  value: string;
  min?: number | null;
  max?: number | null;
}

export function filterChips(filters: StatsFilters): FilterChip[] {
  const chips: FilterChip[] = [
    ...filters.tags.map((tag) => ({ type: 'tag' as const, label: `Tag: ${tag}`, value: tag })),
    ...filters.topics.map((topic) => ({ type: 'topic' as const, label: `Topic: ${topic}`, value: topic })),
  ];
  if (filters.license)
    chips.push({ type: 'license', label: `License: ${filters.license}`, value: filters.license });
  const { minStars: min, maxStars: max } = filters;
  if (min !== null || max !== null) {
    chips.push({
      type: 'stars',
      label: starRangeLabel(min, max),
      value: `${min ?? ''}-${max ?? ''}`,
      min,
      max,
    });
  }
  return chips;
}

export function removeChip(filters: StatsFilters, chip: FilterChip): StatsFilters {
  switch (chip.type) {
    case 'tag':
      return { ...filters, tags: filters.tags.filter((tag) => tag !== chip.value) };
    case 'topic':
      return { ...filters, topics: filters.topics.filter((topic) => topic !== chip.value) };
    case 'license':
      return { ...filters, license: '' };
    case 'stars':
      return { ...filters, minStars: null, maxStars: null };
  }
}
