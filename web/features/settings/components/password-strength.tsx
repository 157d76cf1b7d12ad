import { Group, List, Progress, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconCheck, IconPoint } from '@tabler/icons-react';
import {
  hasCharacterClass,
  PASSWORD_CHARACTER_CLASSES,
  PASSWORD_STRENGTH_MAX,
  PASSWORD_STRONG_LENGTH,
  type PasswordStrength,
  STRENGTH_HINT_CLASSES,
  scorePasswordStrength,
} from '#shared/password-rules.ts';

const strengthColor: Record<PasswordStrength['label'], string> = {
  Weak: 'red',
  Medium: 'yellow',
  Strong: 'teal',
};

/** Text shades with AA contrast on both schemes (yellow 6 on white is 1.9:1). */
const strengthTextColor: Record<PasswordStrength['label'], string> = {
  Weak: 'red.7',
  Medium: 'orange.8',
  Strong: 'teal.8',
};

/** The change-password meter: the score out of 6 as a bar, its label, and the hints. */
export function PasswordStrengthMeter({ value }: { value: string }) {
  const { score, label } = scorePasswordStrength(value);
  return (
    <Stack gap={6}>
      {value !== '' && (
        <>
          <Progress
            value={(score / PASSWORD_STRENGTH_MAX) * 100}
            color={strengthColor[label]}
            size="sm"
            radius="xl"
            aria-label="Password strength"
            aria-valuetext={`${label} (${score} of ${PASSWORD_STRENGTH_MAX})`}
          />
          <Group justify="space-between" gap="xs">
            <Text size="sm">
              Password strength:{' '}
              <Text span inherit fw={700} c={strengthTextColor[label]} data-strength={label}>
                {label}
              </Text>
            </Text>
            <Text size="xs" c="dimmed">
              {score}/{PASSWORD_STRENGTH_MAX}
            </Text>
          </Group>
        </>
      )}
      <Text size="sm" c="dimmed">
        For a stronger password, use {PASSWORD_STRONG_LENGTH} or more characters and include:
      </Text>
      <List size="sm" spacing={2} center aria-label="Password hints">
        {/* Suggestions only; the server enforces length and difference, not these. */}
        {STRENGTH_HINT_CLASSES.map((kind) => {
          const met = hasCharacterClass(value, kind);
          return (
            <List.Item
              key={kind}
              icon={
                <ThemeIcon
                  size={16}
                  radius="xl"
                  // 'default' for unmet parts: gray 'light' drew a near-black icon on dark grey.
                  variant={met ? 'filled' : 'default'}
                  color={met ? 'teal' : undefined}
                >
                  {met ? <IconCheck size={10} aria-hidden /> : <IconPoint size={10} aria-hidden />}
                </ThemeIcon>
              }
            >
              {PASSWORD_CHARACTER_CLASSES[kind].hint}
            </List.Item>
          );
        })}
      </List>
    </Stack>
  );
}
