import { Paper, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import classes from './stats.module.css';

/** One figure of SPEC §9's stat cards. */
export function StatCard({ label, value, hint }: { label: string; value: ReactNode; hint?: string }) {
  return (
    <Paper withBorder radius="md" className={classes.card} component="section" aria-label={label}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text className={classes.value}>{value}</Text>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Paper>
  );
}
