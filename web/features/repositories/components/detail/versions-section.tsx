import { Badge, Button, Group, Paper, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { MESSAGE_CLEAR_MS } from '../../../../../shared/constants.ts';
import { defaultVersionNumber, formatDate, formatDateTime, isoDay } from '../../../../../shared/format.ts';
import {
  type Repository,
  type Version,
  versionBodySchema,
} from '../../../../../shared/schemas/repositories.ts';
import { InlineMessage } from '../../../../components/inline-message.tsx';
import { describeError } from '../../../../lib/api-errors.ts';
import { zodResolver } from '../../../../lib/forms/zod-resolver.ts';
import { useMessage } from '../../../../lib/hooks/use-message.ts';
import { useAddVersion } from '../../api/add-version.ts';

export const NO_VERSIONS = 'No versions tracked yet. Add the first version above!';
export const VERSION_ADDED = '✅ Version added!';

function defaults() {
  const today = new Date();
  return { version_number: defaultVersionNumber(today), release_date: isoDay(today), description: '' };
}

/** Version Tracker: number (default vYYYY.M.D), release date (default today), description. */
export function VersionsSection({ repository, versions }: { repository: Repository; versions: Version[] }) {
  const add = useAddVersion(repository.id);
  const { message, show, clear } = useMessage();
  const form = useForm({
    initialValues: defaults(),
    validate: zodResolver(versionBodySchema),
    // The schema's own output: trimmed, with an empty date or description as null.
    transformValues: (values) => versionBodySchema.parse(values),
  });
  const newestFirst = [...versions].reverse();

  const onSubmit = form.onSubmit((body) => {
    clear();
    add.mutate(body, {
      onSuccess: () => {
        form.setValues(defaults());
        show('success', VERSION_ADDED, MESSAGE_CLEAR_MS.versionAdded);
      },
      onError: (failure) =>
        show('error', `❌ Failed to add version: ${describeError(failure, 'Request failed')}`),
    });
  }, clear);

  return (
    <Stack gap="md">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput label="Version number" required {...form.getInputProps('version_number')} />
            <TextInput label="Release date" type="date" {...form.getInputProps('release_date')} />
          </SimpleGrid>
          <Textarea
            label="Description (optional)"
            rows={2}
            resize="vertical"
            {...form.getInputProps('description')}
          />
          <Group>
            <Button type="submit" disabled={add.isPending}>
              {add.isPending ? 'Adding...' : 'Add Version'}
            </Button>
          </Group>
          {message && (
            <InlineMessage kind={message.kind} onClose={message.kind === 'error' ? clear : undefined}>
              {message.text}
            </InlineMessage>
          )}
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
