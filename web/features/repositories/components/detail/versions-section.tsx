import {
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconExternalLink } from '@tabler/icons-react';
import { MESSAGE_CLEAR_MS } from '#shared/constants.ts';
import { defaultVersionNumber, formatDate, formatDateTime, isoDay } from '#shared/format.ts';
import { type Repository, type Version, versionBodySchema } from '#shared/schemas/repositories.ts';
import { InlineMessage } from '#web/components/inline-message.tsx';
import { describeApiError, describeError } from '#web/lib/api-errors.ts';
import { zodResolver } from '#web/lib/forms/zod-resolver.ts';
import { useMessage } from '#web/lib/hooks/use-message.ts';
import { useAddVersion } from '../../api/add-version.ts';
import { ReleaseSettings } from './release-settings.tsx';

export const NO_VERSIONS = 'No versions tracked yet. Add the first version above!';
export const VERSION_ADDED = '✅ Version added!';

function defaults() {
  const today = new Date();
  return { version_number: defaultVersionNumber(today), release_date: isoDay(today), description: '' };
}

/** Where a version came from, as its badge says it. */
export const SOURCE_LABELS: Record<Version['source'], string> = { release: 'Release', manual: 'Manual' };

/**
 * Version Tracker: number (default vYYYY.M.D), release date (default today), description; the
 * release tracking settings above it. Each version says where it came from and links to its
 * GitHub release when there is one.
 */
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
      onError: (failure) => {
        // A taken number is the field's problem, said there ('Version v1.0 already exists.').
        const { kind, message } = describeApiError(failure);
        if (kind === 'conflict') form.setFieldError('version_number', message);
        else show('error', `❌ Failed to add version: ${describeError(failure, 'Request failed')}`);
      },
    });
  }, clear);

  return (
    <Stack gap="md">
      <ReleaseSettings key={repository.id} repository={repository} />
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
                    <Badge
                      variant="filled"
                      // Dark shades: white text stays readable in both colour schemes.
                      color={version.source === 'release' ? 'teal.9' : 'gray.7'}
                      size="sm"
                      tt="none"
                      title={
                        version.source === 'release' ? 'Made from a GitHub release' : 'Recorded by a member'
                      }
                    >
                      {SOURCE_LABELS[version.source]}
                    </Badge>
                    <Text size="sm">Released {formatDate(version.release_date, { timeZone: 'UTC' })}</Text>
                  </Group>
                  {version.description && (
                    <Text size="sm" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
                      {version.description}
                    </Text>
                  )}
                  {version.release_url && (
                    <Anchor
                      href={version.release_url}
                      target="_blank"
                      rel="noopener noreferrer"
                      size="sm"
                      aria-label={`View release ${version.version_number} on GitHub`}
                    >
                      <Group gap={4} component="span" wrap="nowrap">
                        View release on GitHub <IconExternalLink size={14} aria-hidden />
                      </Group>
                    </Anchor>
                  )}
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
