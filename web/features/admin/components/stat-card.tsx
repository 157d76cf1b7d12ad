import { Group, Paper, Text, ThemeIcon } from '@mantine/core';
import type { TablerIcon } from '@tabler/icons-react';

export interface StatCardProps {
  label: string;
  value: number | string;
  icon: TablerIcon;
  color?: string;
  hint?: string;
}

const numberFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

/** One number of the overview: label, value and an icon, readable at a glance. */
export function StatCard({ label, value, icon: Icon, color = 'indigo', hint }: StatCardProps) {
  const shown = typeof value === 'number' ? numberFormat.format(value) : value;
  return (
    <Paper withBorder radius="md" p="md" role="group" aria-label={`${label}: ${shown}`}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <div style={{ minWidth: 0 }}>
          <Text size="xs" c="dimmed" tt="uppercase" fw={700} lh={1.3}>
            {label}
          </Text>
          <Text fz={28} fw={700} lh={1.2} mt={6}>
            {shown}
          </Text>
          {hint && (
            <Text size="xs" c="dimmed" mt={4}>
              {hint}
            </Text>
          )}
        </div>
        <ThemeIcon variant="light" color={color} size={38} radius="md" aria-hidden visibleFrom="xs">
          <Icon size={22} stroke={1.6} />
        </ThemeIcon>
      </Group>
    </Paper>
  );
}
