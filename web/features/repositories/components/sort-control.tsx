import { ActionIcon, Group, Select, Tooltip } from '@mantine/core';
import { IconSortAscending, IconSortDescending } from '@tabler/icons-react';
import type { SortKey, SortState } from '../lib/list-view.ts';

/** Every column the server sorts by, as the sort menu names them. */
export const SORT_LABELS: Record<SortKey, string> = {
  name: 'Name',
  description: 'Description',
  license: 'License',
  stars: 'Stars',
  forks: 'Forks',
  issues: 'Issues',
  commits: 'Commits',
  last_commit: 'Last commit',
  last_synced: 'Last updated',
  created_at: 'Date added',
  updated_at: 'Last changed',
  growth_7d: 'Growth (7 days)',
  growth_30d: 'Growth (30 days)',
  health: 'Health',
};

/**
 * Sort for the card view and phones, which have no column headers (docs/product.md#repository-list):
 * the field, and the direction beside it. Same state as the table's headers.
 */
export function SortControl({ sort, onChange }: { sort: SortState; onChange: (sort: SortState) => void }) {
  const ascending = sort.direction === 'asc';
  const flip = ascending ? 'Sort descending' : 'Sort ascending';
  return (
    <Group gap={4} wrap="nowrap" align="flex-end">
      <Select
        label="Sort by"
        data={Object.entries(SORT_LABELS).map(([value, label]) => ({ value, label }))}
        value={sort.key}
        onChange={(value) => value && onChange({ key: value as SortKey, direction: sort.direction })}
        allowDeselect={false}
        w={160}
        comboboxProps={{ withinPortal: true }}
      />
      <Tooltip label={flip}>
        <ActionIcon
          variant="default"
          size={36}
          aria-label={`${flip} (now ${ascending ? 'ascending' : 'descending'})`}
          onClick={() => onChange({ key: sort.key, direction: ascending ? 'desc' : 'asc' })}
        >
          {ascending ? (
            <IconSortAscending size={18} aria-hidden />
          ) : (
            <IconSortDescending size={18} aria-hidden />
          )}
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
