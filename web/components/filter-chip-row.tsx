import { Badge, Button, CloseButton, Group } from '@mantine/core';

/**
 * Active filters as removable chips with 'Clear filters', for every screen that filters.
 * Mantine's Pill hides its remove button from assistive technology; these are real buttons.
 */
export function FilterChipRow<Chip extends { label: string }>({
  chips,
  chipKey,
  onRemove,
  onClear,
}: {
  chips: Chip[];
  chipKey: (chip: Chip) => string;
  onRemove: (chip: Chip) => void;
  onClear: () => void;
}) {
  if (chips.length === 0) return null;
  return (
    <Group gap="xs" role="group" aria-label="Active filters">
      {chips.map((chip) => (
        <Badge
          key={chipKey(chip)}
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
