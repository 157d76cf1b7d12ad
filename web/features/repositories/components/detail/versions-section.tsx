import { Badge, Button, Group, Paper, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { MESSAGE_CLEAR_MS } from '../../../../../shared/constants.ts';
import { defaultVersionNumber, formatDate, formatDateTime, isoDay } from '../../../../../shared/format.ts';
import {
  type Repository,
  type Version,
  versionBodySchema,
} from '../../../../../shared/schemas/repositories.ts';
import { describeError } from '../../../../lib/api-errors.ts';
import { useAddVersion } from '../../api/add-version.ts';
import { useFlashMessage } from '../../lib/use-flash-message.ts';
import { StatusMessage } from '../status-message.tsx';

export const NO_VERSIONS = 'No versions tracked yet. Add the first version above!';
export const VERSION_ADDED = '✅ Version added!';

function defaults() {
  const today = new Date();
  return { version_number: defaultVersionNumber(today), release_date: isoDay(today), description: '' };
}

/** SPEC §2 Version Tracker: number (default vYYYY.M.D), release date (default today), description. */
export function VersionsSection({ repository, versions }: { repository: Repository; versions: Version[] }) {
  const [values, setValues] = useState(defaults);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const add = useAddVersion(repository.id);
  const { message, show, clear } = useFlashMessage();
  const newestFirst = [...versions].reverse();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    clear();
    const parsed = versionBodySchema.safeParse(values);
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? '');
        if (field && !found[field]) found[field] = issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    add.mutate(parsed.data, {
      onSuccess: () => {
        setValues(defaults());
        show('success', VERSION_ADDED, MESSAGE_CLEAR_MS.versionAdded);
      },
      onError: (failure) =>
        show('error', `❌ Failed to add version: ${describeError(failure, 'Request failed')}`),
    });
  };

  const set = (field: keyof ReturnType<typeof defaults>) => (value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: '' }));
  };

  return (
    <Stack gap="md">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput
              label="Version number"
              required
              value={values.version_number}
              error={errors.version_number || undefined}
              onChange={(event) => set('version_number')(event.currentTarget.value)}
            />
            <TextInput
              label="Release date"
              type="date"
              value={values.release_date}
              error={errors.release_date || undefined}
              onChange={(event) => set('release_date')(event.currentTarget.value)}
            />
          </SimpleGrid>
          <Textarea
            label="Description (optional)"
            rows={2}
            resize="vertical"
            value={values.description}
            error={errors.description || undefined}
            onChange={(event) => set('description')(event.currentTarget.value)}
          />
          <Group>
            <Button type="submit" disabled={add.isPending}>
              {add.isPending ? 'Adding...' : 'Add Version'}
            </Button>
          </Group>
          <StatusMessage message={message} onClose={message?.kind === 'error' ? clear : undefined} />
        </Stack>
      </form>
      {newestFirst.length === 0 ? (
        <Text size="sm" c="dimmed">
          {NO_VERSIONS}
        </Text>
      ) : (
        <Stack
          gap="xs"
          component="ul"
          style={{ listStyle: 'none', padding: 0, margin: 0 }}
          aria-label="Versions"
        >
          {newestFirst.map((version) => (
            <Paper key={version.id} component="li" withBorder radius="md" p="sm">
              <Group gap="sm" justify="space-between" align="flex-start">
                <Stack gap={2} miw={0}>
                  <Group gap="xs">
                    <Badge variant="light" tt="none" size="lg">
                      {version.version_number}
                    </Badge>
                    <Text size="sm">Released {formatDate(version.release_date, { timeZone: 'UTC' })}</Text>
                  </Group>
                  {version.description && <Text size="sm">{version.description}</Text>}
                </Stack>
                <Text size="xs" c="dimmed">
                  Recorded {formatDateTime(version.created_at)}
                </Text>
              </Group>
            </Paper>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
