import { Group, List, Progress, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconCheck, IconPoint } from '@tabler/icons-react';
import { PASSWORD_STRENGTH_MAX } from '../../../../shared/constants.ts';
import { type PasswordStrength, scorePasswordStrength } from '../../../../shared/password-rules.ts';

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

/** SPEC §5: suggestions only; the server enforces length and difference, not these. */
const hints = [
  { label: 'An uppercase letter', test: (value: string) => /[A-Z]/.test(value) },
  { label: 'A lowercase letter', test: (value: string) => /[a-z]/.test(value) },
  { label: 'A number', test: (value: string) => /\d/.test(value) },
  { label: 'A special character', test: (value: string) => /[^A-Za-z\d]/.test(value) },
];

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
        For a stronger password, use 12 or more characters and include:
      </Text>
      <List size="sm" spacing={2} center aria-label="Password hints">
        {hints.map((hint) => {
          const met = hint.test(value);
          return (
            <List.Item
              key={hint.label}
              icon={
                <ThemeIcon
                  size={16}
                  radius="xl"
                  variant={met ? 'filled' : 'light'}
                  color={met ? 'teal' : 'gray'}
                >
                  {met ? <IconCheck size={10} aria-hidden /> : <IconPoint size={10} aria-hidden />}
                </ThemeIcon>
              }
            >
              {hint.label}
            </List.Item>
          );
        })}
      </List>
    </Stack>
  );
}
