import { Badge, Button, Center, Loader, Popover } from '@mantine/core';
import { IconFilter } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { useStats } from '#web/catalogue/get-catalogue-stats.ts';
import type { ListFilters } from '../lib/list-view.ts';

const loadFilterFields = () => import('./filter-fields.tsx');
const FilterFields = lazy(loadFilterFields);

/**
 * The list's filters (docs/product.md#repository-list): tags and topics (all must be present),
 * licence, language, star range, minimum 30-day growth, health grades, open advisories of at least a
 * severity, archived and gone. Each change applies at once and shows as a
 * removable chip; the choices come from the statistics call, asked for when the menu first opens.
 * The fields themselves are filter-fields.tsx, loaded on first use.
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
  const active = (
    [
      'tags',
      'topics',
      'license',
      'language',
      'min_stars',
      'max_stars',
      'min_growth_30d',
      'health',
      'status',
      'advisories',
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
          // Pointing at the button starts loading the fields, so they are usually there by the click.
          onPointerEnter={() => void loadFilterFields()}
          onFocus={() => void loadFilterFields()}
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
        <Suspense
          fallback={
            // Where focus lands until the fields arrive (the focus trap wants a target).
            <Center h={120} tabIndex={-1} data-autofocus style={{ outline: 'none' }}>
              <Loader size="sm" aria-label="Loading filters" />
            </Center>
          }
        >
          <FilterFields filters={filters} onChange={onChange} choices={choices} />
        </Suspense>
      </Popover.Dropdown>
    </Popover>
  );
}
