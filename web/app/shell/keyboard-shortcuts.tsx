import { Group, Kbd, Modal, Table, Text } from '@mantine/core';
import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useKeyboardShortcuts } from '#web/lib/keyboard.ts';

/** Every shortcut, as the help lists them (docs/product.md#keyboard-shortcuts). */
export const SHORTCUTS: { keys: string[]; action: string }[] = [
  { keys: ['/'], action: 'Search the repository list' },
  { keys: ['j'], action: 'Next repository in the list' },
  { keys: ['k'], action: 'Previous repository in the list' },
  { keys: ['Enter'], action: 'Open the selected repository' },
  { keys: ['g', 'h'], action: 'Go to the repositories' },
  { keys: ['g', 't'], action: 'Go to tags' },
  { keys: ['g', 's'], action: 'Go to statistics' },
  { keys: ['?'], action: 'Show these shortcuts' },
];

const GO_TO: Record<string, string> = { h: '/home', t: '/tags', s: '/stats' };
/** How long 'g' waits for its second key. */
const SEQUENCE_MS = 1_500;

/**
 * The members' global shortcuts: '/' focuses the screen's search (an element marked
 * `data-shortcut="search"`), 'g' then h/t/s navigates, '?' shows the list of shortcuts.
 * The list's own keys (j, k, Enter) live with the list.
 */
export function KeyboardShortcuts() {
  const navigate = useNavigate();
  const [helpOpen, setHelpOpen] = useState(false);
  const pendingGo = useRef(0);

  useKeyboardShortcuts((key) => {
    if (Date.now() - pendingGo.current < SEQUENCE_MS) {
      pendingGo.current = 0;
      const target = GO_TO[key.toLowerCase()];
      if (target) {
        navigate(target);
        return true;
      }
    }
    if (key === 'g') {
      pendingGo.current = Date.now();
      return true;
    }
    if (key === '?') {
      setHelpOpen(true);
      return true;
    }
    if (key === '/') {
      const search = document.querySelector<HTMLElement>('[data-shortcut="search"]');
      if (!search) return false;
      search.focus();
      return true;
    }
    return false;
  });

  return (
    <Modal opened={helpOpen} onClose={() => setHelpOpen(false)} title="Keyboard shortcuts" centered>
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
