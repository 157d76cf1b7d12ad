import { Checkbox, Table, Text, UnstyledButton } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconArrowsSort, IconSortAscending, IconSortDescending } from '@tabler/icons-react';
import { memo, useEffect, useRef } from 'react';
import {
  describeRelativeAge,
  formatCount,
  formatDateTime,
  formatRelativeAge,
  formatStars,
} from '#shared/format.ts';
import type { RepositorySummary } from '#shared/schemas/repositories.ts';
import { formatGrowth, growthLabel, growthTitle } from '#web/catalogue/growth.ts';
import { DecisionBadge } from '#web/components/decision-badge.tsx';
import { HealthBadge } from '#web/components/health-badge.tsx';
import type { SortKey, SortState } from '../lib/list-view.ts';
import { LicenseBadge } from './license-badge.tsx';
import { RepositoryFlags } from './repository-flags.tsx';
import classes from './repository-list.module.css';
import { RepositoryName } from './repository-name.tsx';
import { useListVirtualizer } from './use-list-virtualizer.ts';

/** The columns; Status (the team's decision) is filtered, not sorted. */
const COLUMNS: { key: SortKey | 'status'; label: string; className?: string; sortable?: false }[] = [
  { key: 'name', label: 'Name' },
  { key: 'description', label: 'Description' },
  { key: 'license', label: 'License' },
  { key: 'stars', label: 'Stars', className: classes.numeric },
  // Sorts by the 30-day figure; the Sort by menu also offers the 7-day one.
  { key: 'growth_30d', label: 'Growth', className: classes.numeric },
  { key: 'health', label: 'Health' },
  { key: 'status', label: 'Status', sortable: false },
  { key: 'last_commit', label: 'Last Commit' },
  { key: 'last_synced', label: 'Last Updated' },
];

const ROW_HEIGHT = 72;
const NONE_SELECTED: ReadonlySet<string> = new Set();

export interface RepositoryTableProps {
  rows: readonly RepositorySummary[];
  sort: SortState;
  onSort: (key: SortKey) => void;
  now: Date;
  /** The row the keyboard (j / k) has selected: highlighted and scrolled into view. */
  activeIndex?: number | null;
  /** A click anywhere on a row opens its repository. */
  onOpen?: (repository: RepositorySummary) => void;
  /** The selection for bulk actions (docs/product.md#bulk-actions): full names. */
  selected?: ReadonlySet<string>;
  onSelect?: (ids: string[], selected: boolean) => void;
}

/** Wide enough for every column: no horizontal scrolling, so the header can stick to the top. */
const WIDE_QUERY = '(min-width: 75em)';
/** The app's top bar, under which the table's header sticks. */
const TOP_BAR_HEIGHT = 56;

/** The list view: eight sortable columns and Status; rows virtualised over the window's scrolling. */
export const RepositoryTable = memo(function RepositoryTable({
  rows,
  sort,
  onSort,
  now,
  activeIndex = null,
  onOpen,
  selected = NONE_SELECTED,
  onSelect,
}: RepositoryTableProps) {
  const shownSelected = rows.filter((row) => selected.has(row.id)).length;
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  const virtualizer = useListVirtualizer({ count: rows.length, estimateSize: ROW_HEIGHT, listRef: bodyRef });
  const wide = useMediaQuery(WIDE_QUERY, true, { getInitialValueInEffect: false });
  useEffect(() => {
    if (activeIndex !== null) virtualizer.scrollToIndex(activeIndex, { align: 'auto' });
  }, [activeIndex, virtualizer]);
  const items = virtualizer.getVirtualItems();
  const margin = virtualizer.options.scrollMargin;
  const paddingTop = items.length > 0 ? (items[0]?.start ?? margin) - margin : 0;
  const paddingBottom =
    items.length > 0 ? virtualizer.getTotalSize() - ((items[items.length - 1]?.end ?? margin) - margin) : 0;

  const table = (
    <Table
      highlightOnHover
      verticalSpacing="sm"
      className={classes.table}
      aria-label="Repositories"
      aria-rowcount={rows.length + 1}
      stickyHeader={wide}
      stickyHeaderOffset={TOP_BAR_HEIGHT}
    >
      <Table.Thead>
        <Table.Tr aria-rowindex={1}>
          {onSelect && (
            <Table.Th className={classes.selectCell}>
              <Checkbox
                aria-label="Select every repository shown"
                checked={rows.length > 0 && shownSelected === rows.length}
                indeterminate={shownSelected > 0 && shownSelected < rows.length}
                onChange={(event) =>
                  onSelect(
                    rows.map((row) => row.id),
                    event.currentTarget.checked,
                  )
                }
              />
            </Table.Th>
          )}
          {COLUMNS.map((column) => {
            const key = column.key;
            if (column.sortable === false || key === 'status')
              return (
                <Table.Th key={key} className={column.className}>
                  {column.label}
                </Table.Th>
              );
            const active = sort.key === key;
            const SortIcon = !active
              ? IconArrowsSort
              : sort.direction === 'asc'
                ? IconSortAscending
                : IconSortDescending;
            return (
              <Table.Th
                key={key}
                className={column.className}
                aria-sort={active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}
              >
                {/* The whole header cell is the button (the label alone was a small target). */}
                <UnstyledButton className={classes.sortButton} onClick={() => onSort(key)}>
                  {column.label}
                  <SortIcon size={15} aria-hidden className={active ? undefined : classes.inactiveIcon} />
                </UnstyledButton>
              </Table.Th>
            );
          })}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody ref={bodyRef}>
        {paddingTop > 0 && (
          <tr aria-hidden className={classes.spacer}>
            <td colSpan={COLUMNS.length + (onSelect ? 1 : 0)} style={{ height: paddingTop }} />
          </tr>
        )}
        {items.map((item) => {
          const row = rows[item.index];
          if (!row) return null;
          return (
            <RepositoryRow
              key={row.id}
              index={item.index}
              repository={row}
              now={now}
              measureRef={virtualizer.measureElement}
              active={item.index === activeIndex}
              onOpen={onOpen}
              checked={selected.has(row.id)}
              onSelect={onSelect}
            />
          );
        })}
        {paddingBottom > 0 && (
          <tr aria-hidden className={classes.spacer}>
            <td colSpan={COLUMNS.length + (onSelect ? 1 : 0)} style={{ height: paddingBottom }} />
          </tr>
        )}
      </Table.Tbody>
    </Table>
  );
  // A scrolling container would hold the sticky header inside it, so only narrower screens,
  // where the columns need horizontal scrolling, get one.
  return wide ? (
    table
  ) : (
    <Table.ScrollContainer minWidth={940} type="native">
      {table}
    </Table.ScrollContainer>
  );
});

interface RepositoryRowProps {
  index: number;
  repository: RepositorySummary;
  now: Date;
  measureRef: (element: HTMLTableRowElement | null) => void;
  active: boolean;
  onOpen?: (repository: RepositorySummary) => void;
  checked: boolean;
  onSelect?: (ids: string[], selected: boolean) => void;
}

const RepositoryRow = memo(function RepositoryRow({
  index,
  repository,
  now,
  measureRef,
  active,
  onOpen,
  checked,
  onSelect,
}: RepositoryRowProps) {
  return (
    <Table.Tr
      ref={measureRef}
      data-index={index}
      aria-rowindex={index + 2}
      aria-selected={active || undefined}
      data-active={active || undefined}
      className={onOpen ? classes.clickableRow : undefined}
      // The name stays the link for keyboards and screen readers; the row is a larger mouse target.
      onClick={(event) => {
        if (!onOpen || (event.target instanceof Element && event.target.closest('a, button, input, label')))
          return;
        if (window.getSelection()?.toString()) return;
        onOpen(repository);
      }}
    >
      {onSelect && (
        <Table.Td className={classes.selectCell}>
          <Checkbox
            aria-label={`Select ${repository.id}`}
            checked={checked}
            onChange={(event) => onSelect([repository.id], event.currentTarget.checked)}
          />
        </Table.Td>
      )}
      <Table.Td className={classes.nameCell}>
        <RepositoryName repository={repository} weight={600} />
        <RepositoryFlags repository={repository} size="xs" />
      </Table.Td>
      <Table.Td className={classes.descriptionCell}>
        <Text size="sm" lineClamp={2} c={repository.description ? undefined : 'dimmed'}>
          {repository.description || 'No description available.'}
        </Text>
      </Table.Td>
      <Table.Td>
        <LicenseBadge license={repository.license} size="sm" />
      </Table.Td>
      <Table.Td className={classes.numeric}>
        <Text size="sm" span title={`${formatCount(repository.stars)} stars`}>
          {formatStars(repository.stars)}
        </Text>
      </Table.Td>
      <Table.Td className={classes.numeric}>
        <GrowthCell growth={repository.growth} />
      </Table.Td>
      <Table.Td>
        <HealthCell health={repository.health} />
      </Table.Td>
      <Table.Td>
        {repository.decision ? (
          <DecisionBadge status={repository.decision.status} size="sm" />
        ) : (
          <Text size="sm" c="dimmed" span aria-label="No status">
            —
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <RelativeAge value={repository.last_commit} now={now} />
      </Table.Td>
      <Table.Td>
        <RelativeAge value={repository.last_synced} now={now} />
      </Table.Td>
    </Table.Tr>
  );
});

/** Stars gained: the 30-day figure, the 7-day one under it (both in the title). */
export function GrowthCell({ growth }: { growth: RepositorySummary['growth'] }) {
  return (
    <Text size="sm" span title={growthTitle(growth)} style={{ whiteSpace: 'nowrap' }}>
      {growthLabel(growth)}
      <Text size="xs" c="dimmed" display="block">
        {formatGrowth(growth.stars_7d)} / 7 d
      </Text>
    </Text>
  );
}

/** The grade's badge, the score under it (docs/health.md). */
export function HealthCell({ health }: { health: RepositorySummary['health'] }) {
  return (
    <>
      <HealthBadge grade={health.grade} size="sm" />
      <Text size="xs" c="dimmed" display="block" mt={2}>
        {health.score === null ? 'No score' : `${health.score} / 100`}
      </Text>
    </>
  );
}

export function RelativeAge({ value, now }: { value: string | null; now: Date }) {
  const short = formatRelativeAge(value, now);
  const words = describeRelativeAge(value, now);
  return (
    <Text size="sm" span title={value ? formatDateTime(value) : undefined}>
      {short === words ? short : <abbr title={`${words} (${formatDateTime(value)})`}>{short}</abbr>}
    </Text>
  );
}
