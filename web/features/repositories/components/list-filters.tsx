import { Badge, Button, CloseButton, Group } from '@mantine/core';
import type { FilterChip } from '../lib/list-view.ts';

/**
 * The list's active filters (from the address bar) as removable chips with 'Clear filters'.
 * Mantine's Pill hides its remove button from assistive technology; these are real buttons.
 */
export function ListFilterChips({
  chips,
  onRemove,
  onClear,
}: {
  chips: FilterChip[];
  onRemove: (chip: FilterChip) => void;
  onClear: () => void;
}) {
  if (chips.length === 0) return null;
  return (
    <Group gap="xs" role="group" aria-label="Active filters">
      {chips.map((chip) => (
        <Badge
          key={chip.key}
          size="lg"
          variant="light"
          tt="none"
          fw={500}
          pr={2}
          maw="100%"
          rightSection={
            <CloseButton
              size="sm"
              radius="xl"
              aria-label={`Remove filter ${chip.label}`}
              onClick={() => onRemove(chip)}
            />
          }
        >
          {chip.label}
        </Badge>
      ))}
      <Button size="compact-sm" variant="subtle" onClick={onClear}>
        Clear filters
      </Button>
    </Group>
  );
}
