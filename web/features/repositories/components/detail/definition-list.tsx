import { Text } from '@mantine/core';
import type { ReactNode } from 'react';
import classes from './detail.module.css';

export interface Definition {
  term: string;
  value: ReactNode;
}

/** Label and value pairs as a real <dl>, so screen readers pair them. */
export function DefinitionList({ items }: { items: Definition[] }) {
  return (
    <dl className={classes.definitions}>
      {items.map(({ term, value }) => (
        <div key={term} className={classes.definition}>
          <Text component="dt" size="sm" c="dimmed" fw={500}>
            {term}
          </Text>
          <Text component="dd" size="sm">
            {value}
          </Text>
        </div>
      ))}
    </dl>
  );
}
