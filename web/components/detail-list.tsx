import { Box, Group, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export interface DetailItem {
  label: string;
  value: ReactNode;
}

/** Read-only label/value pairs as a description list (profile, settings' security tab). */
export function DetailList({ items }: { items: DetailItem[] }) {
  return (
    <Box component="dl" m={0}>
      {items.map(({ label, value }, index) => (
        <Group
          key={label}
          justify="space-between"
          wrap="nowrap"
          gap="md"
          py={10}
          style={{ borderTop: index === 0 ? undefined : '1px solid var(--mantine-color-default-border)' }}
        >
          <Text component="dt" size="sm" c="dimmed">
            {label}
          </Text>
          <Text component="dd" size="sm" fw={500} m={0} ta="right" style={{ overflowWrap: 'anywhere' }}>
            {value}
          </Text>
        </Group>
      ))}
    </Box>
  );
}

/** 'Yes'/'No' as a coloured badge-like text, for flags. */
export function YesNo({ value, yes = 'Yes', no = 'No' }: { value: boolean; yes?: string; no?: string }) {
  return (
    <Text span size="sm" fw={600} c={value ? 'teal' : 'dimmed'}>
      {value ? yes : no}
    </Text>
  );
}
