import { Table } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A table's sideways scroll that a keyboard can reach on a phone: focusable and named after the
 * table, for tables with nothing inside that takes the focus (axe's
 * scrollable-region-focusable). Tables with buttons or links use Table.ScrollContainer as is.
 */
export function TableScrollRegion({
  label,
  minWidth,
  children,
}: {
  label: string;
  minWidth: number;
  children: ReactNode;
}) {
  return (
    <Table.ScrollContainer minWidth={minWidth} type="native" tabIndex={0} role="region" aria-label={label}>
      {children}
    </Table.ScrollContainer>
  );
}
