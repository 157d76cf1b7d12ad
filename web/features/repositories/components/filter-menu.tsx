import {
  Badge,
  Button,
  Group,
  NumberInput,
  Popover,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  TagsInput,
  Text,
  TextInput,
} from '@mantine/core';
import { IconFilter } from '@tabler/icons-react';
import { useState } from 'react';
import { useStats } from '#web/catalogue/get-catalogue-stats.ts';
import type { ListFilters } from '../lib/list-view.ts';

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
 * The list's filters (docs/product.md#repository-list): tags and topics (all must be present),
 * licence, language, star range, minimum 30-day growth, archived and gone. Each change applies at once and shows as a
 * removable chip; the choices come from the statistics call, asked for when the menu first opens.
 */
export function FilterMenu({
  filters,
  onChange,
}: {
  filters: ListFilters;
  onChange: (filters: ListFilters) => void;
}) {
  const [opened, setOpened] = useState(false);
  const [asked, setAsked] = useState(false);
  const choices = useStats({}, { enabled: asked }).data?.options;
  const set = (patch: Partial<ListFilters>) => onChange({ ...filters, ...patch });
  const active = (
    [
      'tags',
      'topics',
      'license',
      'language',
      'min_stars',
      'max_stars',
      'min_growth_30d',
      'archived',
      'gone',
    ] as const
  ).filter((key) => filters[key] !== undefined).length;

  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      position="bottom-start"
      width={360}
      shadow="md"
      trapFocus
      withinPortal
    >
      <Popover.Target>
        <Button
          variant="default"
          mb={1}
          leftSection={<IconFilter size={16} aria-hidden />}
          rightSection={
            active > 0 ? (
              <Badge size="sm" circle aria-label={`${active} active`}>
                {active}
              </Badge>
            ) : undefined
          }
          onClick={() => {
            setAsked(true);
            setOpened((open) => !open);
          }}
          aria-expanded={opened}
        >
          Filters
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        {/* Focus lands on the menu itself: on the first field it would open the tag list over the rest. */}
        <Stack
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
      </Popover.Dropdown>
    </Popover>
  );
}
