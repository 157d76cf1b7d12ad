import {
  Group,
  MultiSelect,
  NumberInput,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  TagsInput,
  Text,
  TextInput,
} from '@mantine/core';
import { useEffect, useRef } from 'react';
import { ADVISORY_SEVERITIES, type AdvisorySeverity } from '#shared/schemas/advisories.ts';
import { type CatalogueStats, STATUS_FILTER_VALUES } from '#shared/schemas/catalogue.ts';
import { HEALTH_GRADES } from '#shared/schemas/health.ts';
import { GRADE_LABELS, SEVERITY_LABELS } from '#web/components/health-badge.tsx';
import { type ListFilters, statusFilterLabel } from '../lib/list-view.ts';

type Tristate = 'any' | 'only' | 'hide';

const toTristate = (value: boolean | undefined): Tristate =>
  value === undefined ? 'any' : value ? 'only' : 'hide';
const fromTristate = (value: string): boolean | undefined =>
  value === 'only' ? true : value === 'hide' ? false : undefined;
const split = (value: string | undefined) => (value ? value.split(',').filter(Boolean) : []);
const join = (values: string[]) => (values.length > 0 ? values.join(',') : undefined);
const toNumber = (value: string | number) =>
  value === '' || !Number.isFinite(Number(value)) ? undefined : Math.max(0, Math.trunc(Number(value)));

/** Stars gained may be negative (a repository that lost stars). */
const toInteger = (value: string | number) =>
  value === '' || !Number.isFinite(Number(value)) ? undefined : Math.trunc(Number(value));

/**
 * The filter menu's fields (filter-menu.tsx): loaded when the menu is first opened or pointed
 * at, with the inputs only they use (NumberInput and react-number-format, about 14 kB of
 * brotli), so the list's first load goes without them (docs/architecture.md#web-app).
 */
export default function FilterFields({
  filters,
  onChange,
  choices,
}: {
  filters: ListFilters;
  onChange: (filters: ListFilters) => void;
  choices: CatalogueStats['options'] | undefined;
}) {
  const set = (patch: Partial<ListFilters>) => onChange({ ...filters, ...patch });
  // Focus lands on the menu itself: on the first field it would open the tag list over the rest.
  // The focus trap gives it to `data-autofocus` when the menu opens; the first time, that was the
  // placeholder shown while this module loaded, so the group takes it when it appears.
  const group = useRef<HTMLDivElement>(null);
  useEffect(() => {
    group.current?.focus();
  }, []);
  return (
    <Stack
      ref={group}
      gap="sm"
      role="group"
      aria-label="Filters"
      tabIndex={-1}
      data-autofocus
      style={{ outline: 'none' }}
    >
      <TagsInput
        label="Tags"
        description="Every tag must be present"
        data={choices?.tags ?? []}
        value={split(filters.tags)}
        onChange={(values) => set({ tags: join(values) })}
        splitChars={[',']}
        acceptValueOnBlur
        comboboxProps={{ withinPortal: false }}
      />
      <TagsInput
        label="Topics"
        description="Every topic must be present"
        data={choices?.topics ?? []}
        value={split(filters.topics)}
        onChange={(values) => set({ topics: join(values) })}
        splitChars={[',']}
        acceptValueOnBlur
        comboboxProps={{ withinPortal: false }}
      />
      <SimpleGrid cols={2} spacing="sm">
        <Select
          label="License"
          placeholder="Any license"
          data={choices?.licenses ?? []}
          value={filters.license ?? null}
          onChange={(license) => set({ license: license ?? undefined })}
          searchable
          clearable
          comboboxProps={{ withinPortal: false }}
        />
        <TextInput
          label="Language"
          placeholder="e.g. Rust"
          defaultValue={filters.language ?? ''}
          onBlur={(event) => set({ language: event.currentTarget.value.trim() || undefined })}
          onKeyDown={(event) => {
            if (event.key === 'Enter') set({ language: event.currentTarget.value.trim() || undefined });
          }}
        />
        <NumberInput
          label="Minimum stars"
          min={0}
          allowDecimal={false}
          allowNegative={false}
          thousandSeparator=","
          value={filters.min_stars ?? ''}
          onChange={(value) => set({ min_stars: toNumber(value) })}
        />
        <NumberInput
          label="Maximum stars"
          min={0}
          allowDecimal={false}
          allowNegative={false}
          thousandSeparator=","
          value={filters.max_stars ?? ''}
          onChange={(value) => set({ max_stars: toNumber(value) })}
          error={
            filters.min_stars !== undefined &&
            filters.max_stars !== undefined &&
            filters.min_stars > filters.max_stars
              ? 'Minimum stars cannot be greater than maximum.'
              : undefined
          }
        />
        <NumberInput
          label="Minimum growth (30 days)"
          description="Stars gained"
          allowDecimal={false}
          thousandSeparator=","
          value={filters.min_growth_30d ?? ''}
          onChange={(value) => set({ min_growth_30d: toInteger(value) })}
        />
      </SimpleGrid>
      <MultiSelect
        label="Health"
        placeholder={split(filters.health).length === 0 ? 'Any grade' : undefined}
        data={HEALTH_GRADES.map((grade) => ({ value: grade, label: GRADE_LABELS[grade] }))}
        value={split(filters.health)}
        onChange={(grades) => set({ health: join(grades) })}
        comboboxProps={{ withinPortal: false }}
      />
      <MultiSelect
        label="Status"
        placeholder={split(filters.status).length === 0 ? 'Any status' : undefined}
        data={STATUS_FILTER_VALUES.map((value) => ({ value, label: statusFilterLabel(value) }))}
        value={split(filters.status)}
        onChange={(statuses) => set({ status: join(statuses) })}
        comboboxProps={{ withinPortal: false }}
      />
      <Select
        label="Open advisories at least"
        placeholder="Any or none"
        data={ADVISORY_SEVERITIES.map((severity) => ({
          value: severity,
          label: severity === 'unknown' ? 'Any, unrated included' : SEVERITY_LABELS[severity],
        }))}
        value={filters.advisories ?? null}
        onChange={(severity) => set({ advisories: (severity as AdvisorySeverity | null) ?? undefined })}
        clearable
        comboboxProps={{ withinPortal: false }}
      />
      {(['archived', 'gone'] as const).map((key) => (
        <Group key={key} justify="space-between" gap="xs">
          <Text size="sm" fw={500} id={`filter-${key}`}>
            {key === 'archived' ? 'Archived' : 'Gone from GitHub'}
          </Text>
          <SegmentedControl
            size="xs"
            aria-labelledby={`filter-${key}`}
            value={toTristate(filters[key])}
            onChange={(value) => set({ [key]: fromTristate(value) })}
            data={[
              { value: 'any', label: 'Any' },
              { value: 'only', label: 'Only' },
              { value: 'hide', label: 'Hide' },
            ]}
          />
        </Group>
      ))}
    </Stack>
  );
}
