import { Button, Group, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlus } from '@tabler/icons-react';
import { API_TOKEN_EXPIRY_DAYS, API_TOKEN_NAME_MAX } from '#shared/constants.ts';
import {
  type ApiTokenCreated,
  type ApiTokenScope,
  type CreateApiTokenBody,
  createApiTokenBodySchema,
} from '#shared/schemas/api-tokens.ts';
import { InlineMessage } from '#web/components/inline-message.tsx';
import { describeError, fieldErrors } from '#web/lib/api-errors.ts';
import { zodResolver } from '#web/lib/forms/zod-resolver.ts';
import { useCreateApiToken } from '../api/create-api-token.ts';

interface TokenValues {
  name: string;
  scope: ApiTokenScope;
  /** The select's value: days, or `never`. */
  expiry: string;
}

export const SCOPE_LABELS: Record<ApiTokenScope, string> = {
  read: 'Read: GET and HEAD only',
  write: 'Write: what you can do on screen',
  admin: 'Admin: admin calls too',
};

const EXPIRY_OPTIONS = [
  ...API_TOKEN_EXPIRY_DAYS.map((days) => ({ value: String(days), label: `${days} days` })),
  { value: 'never', label: 'Never' },
];

function toBody(values: TokenValues): CreateApiTokenBody {
  return {
    name: values.name,
    scope: values.scope,
    expires_in_days:
      values.expiry === 'never' ? null : (Number(values.expiry) as CreateApiTokenBody['expires_in_days']),
  };
}

const validate = zodResolver<CreateApiTokenBody>(createApiTokenBodySchema);

/**
 * Settings → API tokens: the create form (docs/product.md#api-tokens). The shared schema's
 * messages show on the fields; the admin scope is offered to admins only.
 */
export function ApiTokenForm({
  isAdmin,
  onCreated,
}: {
  isAdmin: boolean;
  onCreated: (created: ApiTokenCreated) => void;
}) {
  const create = useCreateApiToken();
  const form = useForm<TokenValues>({
    initialValues: { name: '', scope: 'read', expiry: '90' },
    validate: (values) => {
      const errors = validate(toBody(values));
      // The body's field is `expires_in_days`; the form's is `expiry`.
      const { expires_in_days: expiry, ...rest } = errors;
      return expiry ? { ...rest, expiry } : rest;
    },
  });
  const submit = form.onSubmit((values) =>
    create.mutate(toBody(values), {
      onSuccess: (created) => {
        form.reset();
        onCreated(created);
      },
      onError: (error) => form.setErrors(fieldErrors(error)),
    }),
  );
  const serverMessage =
    create.error && Object.keys(fieldErrors(create.error)).length === 0
      ? describeError(create.error, 'The API token could not be created.')
      : null;
  const scopes = (Object.keys(SCOPE_LABELS) as ApiTokenScope[])
    .filter((scope) => scope !== 'admin' || isAdmin)
    .map((scope) => ({ value: scope, label: SCOPE_LABELS[scope] }));

  return (
    <form onSubmit={submit} noValidate aria-label="Create an API token">
      <Stack gap="sm">
        {serverMessage && <InlineMessage kind="error">{serverMessage}</InlineMessage>}
        <TextInput
          label="Name"
          placeholder="CI export script"
          maxLength={API_TOKEN_NAME_MAX}
          {...form.getInputProps('name')}
        />
        <Group grow align="flex-start">
          <Select label="Scope" data={scopes} allowDeselect={false} {...form.getInputProps('scope')} />
          <Select
            label="Expires"
            data={EXPIRY_OPTIONS}
            allowDeselect={false}
            {...form.getInputProps('expiry')}
          />
        </Group>
        <Group>
          <Button type="submit" leftSection={<IconPlus size={16} aria-hidden />} loading={create.isPending}>
            Create token
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
