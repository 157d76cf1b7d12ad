import { SimpleGrid } from '@mantine/core';
import { memo, useEffect, useMemo, useRef } from 'react';
import type { RepositorySummary } from '#shared/schemas/repositories.ts';
import { RepositoryCard } from './repository-card.tsx';
import { useListVirtualizer } from './use-list-virtualizer.ts';

const ROW_HEIGHT = 236;

export interface RepositoryCardsProps {
  rows: readonly RepositorySummary[];
  /** Cards per row (2, 3 or 4; 1 on a phone). */
  columns: number;
  now: Date;
  /** The card the keyboard (j / k) has selected: highlighted and scrolled into view. */
  activeIndex?: number | null;
  /** The selection for bulk actions: full names. */
  selected?: ReadonlySet<string>;
  onSelect?: (ids: string[], selected: boolean) => void;
}

/** The card view: rows of cards, virtualised over the window's scrolling. */
export const RepositoryCards = memo(function RepositoryCards({
  rows,
  columns,
  now,
  activeIndex = null,
  selected,
  onSelect,
}: RepositoryCardsProps) {
  const listRef = useRef<HTMLDivElement>(null);
  const lines = useMemo(() => {
    const result: RepositorySummary[][] = [];
    for (let i = 0; i < rows.length; i += columns) result.push(rows.slice(i, i + columns));
    return result;
  }, [rows, columns]);
  const virtualizer = useListVirtualizer({
    count: lines.length,
    estimateSize: ROW_HEIGHT,
    listRef,
    overscan: 3,
  });
  useEffect(() => {
    if (activeIndex !== null) virtualizer.scrollToIndex(Math.floor(activeIndex / columns), { align: 'auto' });
  }, [activeIndex, columns, virtualizer]);
  const items = virtualizer.getVirtualItems();
  const margin = virtualizer.options.scrollMargin;

  return (
    <div ref={listRef} style={{ position: 'relative', height: virtualizer.getTotalSize() }}>
      {items.map((item) => {
        const line = lines[item.index];
        if (!line) return null;
        return (
          <div
            key={item.key}
            ref={virtualizer.measureElement}
            data-index={item.index}
            style={{
              position: 'absolute',
              top: 0,
              left: 0,
              width: '100%',
              transform: `translateY(${item.start - margin}px)`,
              paddingBottom: 'var(--mantine-spacing-md)',
            }}
          >
            <SimpleGrid cols={columns} spacing="md">
              {line.map((repository, column) => (
                <RepositoryCard
                  key={repository.id}
                  repository={repository}
                  now={now}
                  active={item.index * columns + column === activeIndex}
                  checked={selected?.has(repository.id) ?? false}
                  onSelect={onSelect}
                />
              ))}
            </SimpleGrid>
          </div>
        );
      })}
    </div>
  );
});
