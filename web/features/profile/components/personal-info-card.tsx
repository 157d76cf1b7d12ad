import { Button, Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconDeviceFloppy, IconPencil, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { MESSAGE_CLEAR_MS } from '#shared/constants.ts';
import { type UpdateProfileBody, updateProfileBodySchema } from '#shared/schemas/auth.ts';
import { InlineMessage } from '#web/components/inline-message.tsx';
import { describeError } from '#web/lib/api-errors.ts';
import type { User } from '#web/lib/auth/user.ts';
import { zodResolver } from '#web/lib/forms/zod-resolver.ts';
import { useMessage } from '#web/lib/hooks/use-message.ts';
import { useUpdateProfile } from '../api/update-profile.ts';

export const PROFILE_MESSAGES = {
  updated: 'Profile updated successfully',
  failed: 'Failed to update profile',
} as const;

function shown(value: string): string {
  return value.trim() === '' ? 'Not set' : value;
}

function Field({ label, value }: { label: string; value: string }) {
  const empty = value.trim() === '';
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600} lts={0.4}>
        {label}
      </Text>
      <Text
        fw={500}
        c={empty ? 'dimmed' : undefined}
        fs={empty ? 'italic' : undefined}
        style={{ overflowWrap: 'anywhere' }}
      >
        {shown(value)}
      </Text>
    </div>
  );
}

/**
 * View mode, and an edit mode for first and last name (username and e-mail stay
 * read-only). Save returns to view mode on success; Cancel restores the previous values.
 */
export function PersonalInfoCard({ user }: { user: User }) {
  const [editing, setEditing] = useState(false);
  const update = useUpdateProfile();
  const { message, showSuccess, showError, clear } = useMessage(MESSAGE_CLEAR_MS.profileUpdated);
  const form = useForm<UpdateProfileBody>({
    initialValues: { first_name: user.first_name, last_name: user.last_name },
    validate: zodResolver(updateProfileBodySchema),
  });

  const startEditing = () => {
    clear();
    form.setValues({ first_name: user.first_name, last_name: user.last_name });
    form.clearErrors();
    setEditing(true);
  };

  const cancel = () => {
    form.setValues({ first_name: user.first_name, last_name: user.last_name });
    form.clearErrors();
    setEditing(false);
  };

  const save = form.onSubmit((values) => {
    clear();
    update.mutate(
      { first_name: values.first_name.trim(), last_name: values.last_name.trim() },
      {
        onSuccess: () => {
          setEditing(false);
          showSuccess(PROFILE_MESSAGES.updated);
        },
        onError: (error) => showError(describeError(error, PROFILE_MESSAGES.failed)),
      },
    );
  });

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
      <Stack gap="md">
        <Group justify="space-between" wrap="nowrap">
          <Title order={2} size="h4">
            Personal Information
          </Title>
          {!editing && (
            <Button
              variant="light"
              size="sm"
              leftSection={<IconPencil size={16} aria-hidden />}
              onClick={startEditing}
            >
              Edit
            </Button>
          )}
        </Group>

        {message && <InlineMessage kind={message.kind}>{message.text}</InlineMessage>}

        {editing ? (
          <form onSubmit={save} noValidate>
            <Stack gap="md">
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
                <TextInput
                  label="First Name"
                  autoComplete="given-name"
                  required
                  data-autofocus
                  {...form.getInputProps('first_name')}
                />
                <TextInput
                  label="Last Name"
                  autoComplete="family-name"
                  required
                  {...form.getInputProps('last_name')}
                />
                <TextInput
                  label="Username"
                  value={user.username}
                  readOnly
                  disabled
                  description="Cannot be changed"
                />
                <TextInput
                  label="Email"
                  value={user.email}
                  readOnly
                  disabled
                  description="Cannot be changed"
                />
              </SimpleGrid>
              <Group justify="flex-end" gap="sm">
                <Button
                  variant="default"
                  leftSection={<IconX size={16} aria-hidden />}
                  onClick={cancel}
                  disabled={update.isPending}
                >
                  Cancel
                </Button>
                <Button
                  type="submit"
                  leftSection={<IconDeviceFloppy size={16} aria-hidden />}
                  loading={update.isPending}
                >
                  Save
                </Button>
              </Group>
            </Stack>
          </form>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="md">
            <Field label="First Name" value={user.first_name} />
            <Field label="Last Name" value={user.last_name} />
            <Field label="Username" value={user.username} />
            <Field label="Email" value={user.email} />
          </SimpleGrid>
        )}
      </Stack>
    </Paper>
  );
}
