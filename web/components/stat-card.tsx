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
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <div style={{ minWidth: 0 }}>
          <Text size="xs" c="dimmed" tt="uppercase" fw={700} lh={1.3}>
            {label}
          </Text>
          <Text className={classes.value}>{value}</Text>
          {hint && (
            <Text size="xs" c="dimmed">
              {hint}
            </Text>
          )}
        </div>
        {Icon && (
          <ThemeIcon variant="light" color={color} size={38} radius="md" aria-hidden visibleFrom="xs">
            <Icon size={22} stroke={1.6} />
          </ThemeIcon>
        )}
      </Group>
    </Paper>
  );
}
