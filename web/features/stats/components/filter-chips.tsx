import { Badge, Button, CloseButton, Group } from '@mantine/core';
import type { StatsFilters } from '../../../../shared/stats.ts';

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
    const label =
      min !== null && max !== null
        ? `Stars: ${min}–${max}`
        : min !== null
          ? `Stars: ≥ ${min}`
          : `Stars: ≤ ${max}`;
    chips.push({ type: 'stars', label, value: `${min ?? ''}-${max ?? ''}`, min, max });
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

/** Removable chips (Tag, Topic, License, stars) and 'Clear filters'. */
export function FilterChips({
  chips,
  onRemove,
  onClear,
}: {
  chips: FilterChip[];
  onRemove: (chip: FilterChip) => void;
  onClear: () => void;
}) {
  if (chips.length === 0) return null;
  return (
    <Group gap="xs" role="group" aria-label="Active filters">
      {chips.map((chip) => (
        <Badge
          key={`${chip.type}:${chip.value}`}
          size="lg"
          variant="light"
          tt="none"
          fw={500}
          pr={2}
          rightSection={
            // Mantine's Pill hides its remove button from assistive technology; this one is a real button.
            <CloseButton
              size="sm"
              radius="xl"
              aria-label={`Remove filter ${chip.label}`}
              onClick={() => onRemove(chip)}
            />
          }
        >
          {chip.label}
        </Badge>
      ))}
      <Button size="compact-sm" variant="subtle" onClick={onClear}>
        Clear filters
      </Button>
    </Group>
  );
}
