import { Button, Group, Paper, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { MESSAGE_CLEAR_MS } from '#shared/constants.ts';
import { formatDateTime } from '#shared/format.ts';
import { type ReleaseTracking, releaseSettingsBodySchema } from '#shared/schemas/releases.ts';
import type { Repository } from '#shared/schemas/repositories.ts';
import { InlineMessage } from '#web/components/inline-message.tsx';
import { describeError } from '#web/lib/api-errors.ts';
import { zodResolver } from '#web/lib/forms/zod-resolver.ts';
import { useMessage } from '#web/lib/hooks/use-message.ts';
import { useUpdateReleaseSettings } from '../../api/update-release-settings.ts';

export const RELEASE_SETTINGS_SAVED = '✅ Saved!';

/** What the engine follows for this repository, in a sentence. */
export function followsText(tracking: ReleaseTracking): string {
  if (tracking.follows === 'releases') return 'New GitHub releases become versions.';
  if (tracking.follows === 'tags') return 'This project publishes no releases: new tags become versions.';
  return 'Releases are read at the next update from GitHub.';
}

/**
 * Release tracking (docs/product.md#releases): whether pre-releases count and which tags, as
 * globs checked by the shared schema. Applies to releases seen from now on.
 */
export function ReleaseSettings({ repository }: { repository: Repository }) {
  const tracking = repository.release_tracking;
  const save = useUpdateReleaseSettings(repository.id);
  const { message, show, clear } = useMessage();
  const form = useForm({
    initialValues: { include_prereleases: tracking.include_prereleases, tag_pattern: tracking.tag_pattern },
    validate: zodResolver(releaseSettingsBodySchema),
    transformValues: (values) => releaseSettingsBodySchema.parse(values),
  });

  const onSubmit = form.onSubmit((body) => {
    clear();
    save.mutate(body, {
      onSuccess: (saved) => {
        form.setValues({ include_prereleases: saved.include_prereleases, tag_pattern: saved.tag_pattern });
        form.resetDirty();
        show('success', RELEASE_SETTINGS_SAVED, MESSAGE_CLEAR_MS.saved);
      },
      onError: (failure) => show('error', `❌ Failed to save: ${describeError(failure, 'Request failed')}`),
    });
  }, clear);

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="release-tracking-title">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <Stack gap={2}>
            <Title order={3} size="h5" id="release-tracking-title">
              Release tracking
            </Title>
            <Text size="sm" c="dimmed">
              {followsText(tracking)}
              {tracking.checked_at ? ` Last read ${formatDateTime(tracking.checked_at)}.` : ''}
            </Text>
          </Stack>
          <Switch
            label="Include pre-releases"
            description="Drafts never become versions."
            {...form.getInputProps('include_prereleases', { type: 'checkbox' })}
          />
          <TextInput
            label="Tag pattern"
            description="Globs separated by commas or spaces; a leading ! leaves tags out (v*, !*-rc*). Empty: every tag."
            placeholder="v*, !*-rc*"
            maxLength={200}
            {...form.getInputProps('tag_pattern')}
          />
          <Group gap="sm">
            <Button
              type="submit"
              variant="light"
              disabled={save.isPending}
              leftSection={<IconDeviceFloppy size={18} aria-hidden />}
            >
              {save.isPending ? 'Saving...' : 'Save'}
            </Button>
          </Group>
          {message && (
            <InlineMessage kind={message.kind} onClose={message.kind === 'error' ? clear : undefined}>
              {message.text}
            </InlineMessage>
          )}
        </Stack>
      </form>
    </Paper>
  );
}
