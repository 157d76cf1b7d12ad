import { Group, Paper, Text, ThemeIcon } from '@mantine/core';
import type { TablerIcon } from '@tabler/icons-react';
import classes from './stat-card.module.css';

export interface StatCardProps {
  label: string;
  /** Already formatted (shared/format.ts), so the card reads the same as the screen's other numbers. */
  value: string;
  hint?: string;
  icon?: TablerIcon;
  /** The icon's colour. */
  color?: string;
}

/** One figure of a statistics grid: label, value, an optional hint and icon, readable at a glance. */
export function StatCard({ label, value, hint, icon: Icon, color = 'indigo' }: StatCardProps) {
  return (
    <Paper withBorder radius="md" className={classes.card} role="group" aria-label={`${label}: ${value}`}>
      {/* The icon sits beside the label, so the value has the card's whole width (a long total
          ran under the icon at four cards a row). */}
      <Group justify="space-between" align="center" wrap="nowrap" gap="xs">
        <Text size="xs" c="dimmed" tt="uppercase" fw={700} lh={1.3}>
          {label}
        </Text>
        {Icon && (
          <ThemeIcon variant="light" color={color} size={28} radius="md" aria-hidden>
            <Icon size={18} stroke={1.6} />
          </ThemeIcon>
        )}
      </Group>
      <Text className={classes.value}>{value}</Text>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Paper>
  );
}
