import { ActionIcon, Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconDeviceFloppy, IconPlus, IconTrash } from '@tabler/icons-react';
import {
  ECOSYSTEM_LABELS,
  PACKAGE_ECOSYSTEMS,
  PACKAGE_NAME_MAX,
  PACKAGES_MAX,
  type PackageEcosystem,
  packagesBodySchema,
  type RepositoryPackage,
} from '#shared/schemas/advisories.ts';
import { InlineMessage } from '#web/components/inline-message.tsx';
import { describeError, fieldErrors } from '#web/lib/api-errors.ts';
import { zodResolver } from '#web/lib/forms/zod-resolver.ts';
import { useMessage } from '#web/lib/hooks/use-message.ts';
import { useUpdatePackages } from '../../../api/update-packages.ts';
import tones from '../../tones.module.css';

const ECOSYSTEM_CHOICES = PACKAGE_ECOSYSTEMS.map((value) => ({ value, label: ECOSYSTEM_LABELS[value] }));

interface Row {
  /** Keeps a row's inputs when one above it is removed. */
  key: number;
  ecosystem: PackageEcosystem;
  name: string;
}

let nextKey = 0;
const row = (ecosystem: PackageEcosystem = 'npm', name = ''): Row => ({ key: nextKey++, ecosystem, name });

/**
 * The packages editor (PUT /repositories/{id}/packages): a row per package, ecosystem and name,
 * added and removed, checked by the shared schema (`packagesBodySchema`: names without spaces or
 * commas, no package twice, at most 20) and saved as a whole list.
 */
export default function PackagesEditor({
  fullName,
  packages,
  onDone,
}: {
  fullName: string;
  packages: readonly RepositoryPackage[];
  onDone: () => void;
}) {
  const save = useUpdatePackages(fullName);
  const { message, show, clear } = useMessage();
  const form = useForm({
    initialValues: { packages: packages.map((entry) => row(entry.ecosystem, entry.name)) },
    validate: zodResolver(packagesBodySchema),
    transformValues: (values) =>
      packagesBodySchema.parse({
        packages: values.packages.map(({ ecosystem, name }) => ({ ecosystem, name })),
      }),
  });
  const rows = form.values.packages;

  const onSubmit = form.onSubmit((body) => {
    clear();
    save.mutate(body, {
      onSuccess: () => onDone(),
      onError: (failure) => {
        form.setErrors(fieldErrors(failure));
        show('error', `❌ Failed to save the packages: ${describeError(failure, 'Request failed')}`);
      },
    });
  }, clear);

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Packages">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          The packages this repository publishes. Detected ones left out stay out; new ones are read at the
          next advisory read.
        </Text>
        {rows.length === 0 && (
          <Text size="sm" c="dimmed">
            No package.
          </Text>
        )}
        {rows.map((entry, index) => (
          <Group key={entry.key} gap="xs" align="flex-start" wrap="nowrap">
            <Select
              aria-label={`Ecosystem of package ${index + 1}`}
              data={ECOSYSTEM_CHOICES}
              allowDeselect={false}
              w={150}
              style={{ flexShrink: 0 }}
              comboboxProps={{ withinPortal: true }}
              {...form.getInputProps(`packages.${index}.ecosystem`)}
            />
            <TextInput
              aria-label={`Name of package ${index + 1}`}
              placeholder="e.g. lodash"
              maxLength={PACKAGE_NAME_MAX}
              style={{ flex: 1, minWidth: 0 }}
              {...form.getInputProps(`packages.${index}.name`)}
            />
            <ActionIcon
              variant="default"
              size={36}
              aria-label={`Remove package ${index + 1}${entry.name ? ` (${entry.name})` : ''}`}
              onClick={() => form.removeListItem('packages', index)}
            >
              <IconTrash size={16} aria-hidden />
            </ActionIcon>
          </Group>
        ))}
        {form.errors.packages && (
          <Text size="sm" className={tones.errorText} role="alert">
            {form.errors.packages}
          </Text>
        )}
        <Group gap="sm">
          <Button
            variant="default"
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => form.insertListItem('packages', row())}
            disabled={rows.length >= PACKAGES_MAX}
          >
            Add package
          </Button>
          <Button
            type="submit"
            disabled={save.isPending}
            leftSection={<IconDeviceFloppy size={16} aria-hidden />}
          >
            {save.isPending ? 'Saving...' : 'Save packages'}
          </Button>
          <Button variant="subtle" onClick={onDone}>
            Cancel
          </Button>
        </Group>
        {message && (
          <InlineMessage kind={message.kind} onClose={clear}>
            {message.text}
          </InlineMessage>
        )}
      </Stack>
    </form>
  );
}
