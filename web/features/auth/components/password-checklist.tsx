import { List, Text, ThemeIcon } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import { RESET_PASSWORD_PARTS } from '#shared/password-rules.ts';

/** The live checklist on the reset screen: the four parts, each met or not yet. */
export function PasswordChecklist({ value }: { value: string }) {
  return (
    <div>
      <Text size="sm" fw={600} mb={4}>
        Password must contain:
      </Text>
      <List size="sm" spacing={4} center aria-label="Password requirements">
        {RESET_PASSWORD_PARTS.map((part) => {
          const met = part.test(value);
          return (
            <List.Item
              key={part.key}
              data-met={met}
              icon={
                <ThemeIcon
                  size={18}
                  radius="xl"
                  // 'default' for unmet parts: gray 'light' drew a near-black icon on dark grey.
                  color={met ? 'teal' : undefined}
                  variant={met ? 'filled' : 'default'}
                >
                  {met ? <IconCheck size={12} aria-hidden /> : <IconX size={12} aria-hidden />}
                </ThemeIcon>
              }
            >
              <Text span size="sm" c={met ? undefined : 'dimmed'}>
                {part.label}
              </Text>
              <Text span style={visuallyHidden}>
                {met ? ' (met)' : ' (not met)'}
              </Text>
            </List.Item>
          );
        })}
      </List>
    </div>
  );
}

const visuallyHidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: 'hidden',
  clip: 'rect(0, 0, 0, 0)',
  whiteSpace: 'nowrap',
  border: 0,
} as const;
