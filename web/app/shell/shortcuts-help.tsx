import { Group, Kbd, Modal, Table, Text } from '@mantine/core';

/** Every shortcut, as the help lists them (docs/product.md#keyboard-shortcuts). */
const SHORTCUTS: { keys: string[]; action: string }[] = [
  { keys: ['/'], action: 'Search the repository list' },
  { keys: ['j'], action: 'Next repository in the list' },
  { keys: ['k'], action: 'Previous repository in the list' },
  { keys: ['Enter'], action: 'Open the selected repository' },
  { keys: ['g', 'h'], action: 'Go to the repositories' },
  { keys: ['g', 't'], action: 'Go to tags' },
  { keys: ['g', 's'], action: 'Go to statistics' },
  { keys: ['?'], action: 'Show these shortcuts' },
];

/**
 * The list of shortcuts that '?' shows (keyboard-shortcuts.tsx): loaded when first asked for,
 * with Mantine's Modal, which the list's first screen does not show.
 */
export default function ShortcutsHelp({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Keyboard shortcuts" centered>
      <Table verticalSpacing={6} aria-label="Keyboard shortcuts">
        <Table.Tbody>
          {SHORTCUTS.map(({ keys, action }) => (
            <Table.Tr key={action}>
              <Table.Td w={110}>
                <Group gap={4} wrap="nowrap">
                  {keys.map((key, index) => (
                    <Group key={key} gap={4} wrap="nowrap">
                      {index > 0 && (
                        <Text size="xs" c="dimmed">
                          then
                        </Text>
                      )}
                      <Kbd>{key}</Kbd>
                    </Group>
                  ))}
                </Group>
              </Table.Td>
              <Table.Td>{action}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="xs" c="dimmed" mt="sm">
        Shortcuts don't fire while you type in a field.
      </Text>
    </Modal>
  );
}
