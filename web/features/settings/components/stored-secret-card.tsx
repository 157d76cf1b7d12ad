import { Badge, Button, Group, Loader, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconDeviceFloppy, IconTrash } from '@tabler/icons-react';
import type { UseMutationResult, UseQueryResult } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import type { z } from 'zod';
import { ConfirmDialog } from '#web/components/confirm-dialog.tsx';
import { InlineMessage } from '#web/components/inline-message.tsx';
import { SectionError } from '#web/components/load-states.tsx';
import { PasswordField } from '#web/components/password-field.tsx';
import { describeError } from '#web/lib/api-errors.ts';
import { zodResolver } from '#web/lib/forms/zod-resolver.ts';
import { useMessage } from '#web/lib/hooks/use-message.ts';

/** The texts for one stored secret: its messages and the card's own words. */
export interface StoredSecretCopy {
  title: string;
  description: string;
  /** The status loader's accessible name. */
  loadingLabel: string;
  inputLabel: string;
  replaceLabel: string;
  placeholder: string;
  saveLabel: string;
  removeLabel: string;
  confirmDetail: string;
  messages: {
    loadFailed: string;
    saveFailed: string;
    removeFailed: string;
    saved: string;
    removed: string;
    confirmRemove: string;
  };
}

export interface StoredSecretCardProps<Status> {
  icon: ReactNode;
  copy: StoredSecretCopy;
  /** The request body's field (`token`, `url`) and the shared schema that checks it. */
  field: string;
  schema: z.ZodType;
  /** A password field with a show toggle, or a URL field. */
  input: 'password' | 'url';
  clearAfterMs: number;
  status: UseQueryResult<Status>;
  configured: boolean;
  /** What is stored, shown once the status has loaded. */
  summary: (status: Status) => ReactNode;
  save: UseMutationResult<Status, Error, string>;
  remove: UseMutationResult<Status, Error, void>;
}

function ConfiguredBadge({ configured }: { configured: boolean }) {
  return (
    <Badge variant="light" color={configured ? 'teal' : 'gray'} size="lg" tt="none" style={{ flexShrink: 0 }}>
      {configured ? 'Configured' : 'Not configured'}
    </Badge>
  );
}

/**
 * A secret the server keeps encrypted and never shows again (the GitHub token, the Slack
 * webhook): its status, a form to set or replace it, and removal after a confirmation.
 */
export function StoredSecretCard<Status>({
  icon,
  copy,
  field,
  schema,
  input,
  clearAfterMs,
  status,
  configured,
  summary,
  save,
  remove,
}: StoredSecretCardProps<Status>) {
  const { messages } = copy;
  const [confirming, setConfirming] = useState(false);
  const { message, showSuccess, showError, clear } = useMessage(clearAfterMs);
  const form = useForm<Record<string, string>>({
    initialValues: { [field]: '' },
    validate: zodResolver(schema),
  });

  const submit = form.onSubmit((values) => {
    clear();
    save.mutate((values[field] ?? '').trim(), {
      onSuccess: () => {
        form.reset();
        showSuccess(messages.saved);
      },
      onError: (error) => showError(describeError(error, messages.saveFailed)),
    });
  });

  const confirmRemove = () => {
    clear();
    remove.mutate(undefined, {
      onSuccess: () => showSuccess(messages.removed),
      onError: (error) => showError(describeError(error, messages.removeFailed)),
      onSettled: () => setConfirming(false),
    });
  };

  const inputProps = {
    label: configured ? copy.replaceLabel : copy.inputLabel,
    placeholder: copy.placeholder,
    autoComplete: 'off',
    spellCheck: false,
    ...form.getInputProps(field),
  };

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
      <Stack gap="md">
        <Group justify="space-between" gap="xs" align="center">
          <Group gap="sm" wrap="nowrap">
            {icon}
            <Title order={2} size="h4">
              {copy.title}
            </Title>
          </Group>
          {status.isSuccess && <ConfiguredBadge configured={configured} />}
        </Group>
        <Text size="sm" c="dimmed">
          {copy.description}
        </Text>

        {message && <InlineMessage kind={message.kind}>{message.text}</InlineMessage>}

        {status.isPending && <Loader size="sm" aria-label={copy.loadingLabel} />}
        {status.isError && (
          <SectionError
            title={messages.loadFailed}
            message={describeError(status.error, messages.loadFailed)}
            onRetry={() => void status.refetch()}
          />
        )}
        {status.isSuccess && summary(status.data)}

        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            {input === 'password' ? (
              <PasswordField {...inputProps} />
            ) : (
              <TextInput type="url" {...inputProps} />
            )}
            <Group gap="sm">
              <Button
                type="submit"
                loading={save.isPending}
                leftSection={<IconDeviceFloppy size={16} aria-hidden />}
              >
                {copy.saveLabel}
              </Button>
              {configured && (
                <Button
                  variant="light"
                  color="red"
                  leftSection={<IconTrash size={16} aria-hidden />}
                  onClick={() => setConfirming(true)}
                >
                  {copy.removeLabel}
                </Button>
              )}
            </Group>
          </Stack>
        </form>
      </Stack>

      <ConfirmDialog
        opened={confirming}
        title={messages.confirmRemove}
        confirmLabel={copy.removeLabel}
        busy={remove.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={confirmRemove}
      >
        {copy.confirmDetail}
      </ConfirmDialog>
    </Paper>
  );
}
