import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconKey } from '@tabler/icons-react';
import { MESSAGE_CLEAR_MS } from '#shared/constants.ts';
import { changePasswordBodySchema } from '#shared/schemas/auth.ts';
import { InlineMessage } from '#web/components/inline-message.tsx';
import { PasswordField } from '#web/components/password-field.tsx';
import { describeError, fieldErrors } from '#web/lib/api-errors.ts';
import { confirmationCheck, zodResolver } from '#web/lib/forms/zod-resolver.ts';
import { useMessage } from '#web/lib/hooks/use-message.ts';
import { useChangePassword } from '../api/change-password.ts';
import { PasswordStrengthMeter } from './password-strength.tsx';

export const CHANGE_PASSWORD_FAILED = 'Failed to change password';

interface PasswordValues {
  current_password: string;
  new_password: string;
  confirm_password: string;
}

const emptyValues: PasswordValues = { current_password: '', new_password: '', confirm_password: '' };

export function PasswordTab() {
  const change = useChangePassword();
  const { message, showSuccess, showError, clear } = useMessage(MESSAGE_CLEAR_MS.password);
  const form = useForm<PasswordValues>({
    initialValues: emptyValues,
    validate: zodResolver(
      changePasswordBodySchema,
      confirmationCheck<PasswordValues>('new_password', 'confirm_password', 'New passwords do not match'),
    ),
  });

  const submit = form.onSubmit(({ current_password, new_password }) => {
    clear();
    change.mutate(
      { current_password, new_password },
      {
        onSuccess: ({ message: text }) => {
          form.reset();
          showSuccess(text);
        },
        onError: (error) => {
          const fields = fieldErrors(error);
          form.setErrors(fields);
          // Said once: a refusal the form can place (a wrong current password) stays on its field.
          if (Object.keys(fields).length === 0) showError(describeError(error, CHANGE_PASSWORD_FAILED));
        },
      },
    );
  });

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md" maw={520}>
          <div>
            <Title order={2} size="h4">
              Change Password
            </Title>
            <Text size="sm" c="dimmed">
              Your other sessions are signed out when the password changes; this one stays signed in.
            </Text>
          </div>
          {message && <InlineMessage kind={message.kind}>{message.text}</InlineMessage>}
          <PasswordField
            label="Current Password"
            autoComplete="current-password"
            required
            {...form.getInputProps('current_password')}
          />
          <PasswordField
            label="New Password"
            autoComplete="new-password"
            required
            {...form.getInputProps('new_password')}
          />
          <PasswordStrengthMeter value={form.values.new_password} />
          <PasswordField
            label="Confirm New Password"
            autoComplete="new-password"
            required
            {...form.getInputProps('confirm_password')}
          />
          <Group>
            <Button type="submit" loading={change.isPending} leftSection={<IconKey size={18} aria-hidden />}>
              Change Password
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
