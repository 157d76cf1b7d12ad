import { Button, Group, Paper, Stack, Textarea, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { z } from 'zod';
import { MESSAGE_CLEAR_MS } from '#shared/constants.ts';
import { splitList } from '#shared/format.ts';
import { metadataBodySchema, type Repository } from '#shared/schemas/repositories.ts';
import { InlineMessage } from '#web/components/inline-message.tsx';
import { zodResolver } from '#web/lib/forms/zod-resolver.ts';
import { useMessage } from '#web/lib/hooks/use-message.ts';
import { useUpdateMetadata } from '../../api/update-metadata.ts';
import { useTagSuggestions } from '../../lib/use-tag-suggestions.ts';
import { TagsEditor } from '../tags-editor.tsx';

export const SAVED_MESSAGE = '✅ Saved!';
export const SAVE_FAILED_MESSAGE = '❌ Failed to save.';

/** The editor holds the tags as a list; the call (and its schema) takes them comma-separated. */
const metadataFormSchema = z.object({
  tags: z
    .array(z.string())
    .transform((tags) => tags.join(','))
    .pipe(metadataBodySchema.shape.tags.unwrap()),
  notes: metadataBodySchema.shape.notes,
});

/** The tags and notes editors with Save Tags ('Saving...', '✅ Saved!' 3 s, '❌ Failed to save.'). */
export function MetadataEditor({ repository }: { repository: Repository }) {
  const suggestions = useTagSuggestions();
  const save = useUpdateMetadata(repository.id);
  const { message, show, clear } = useMessage();
  const form = useForm({
    initialValues: { tags: splitList(repository.tags), notes: repository.notes },
    validate: zodResolver(metadataFormSchema),
    transformValues: (values) => metadataFormSchema.parse(values),
  });
  const suggestionNames = (suggestions.data ?? []).map((tag) => tag.name);

  // Not a <form>: Enter in an empty tags field would submit it, and Save is the only way to save.
  const onSave = form.onSubmit((body) => {
    clear();
    save.mutate(body, {
      onSuccess: () => show('success', SAVED_MESSAGE, MESSAGE_CLEAR_MS.saved),
      onError: () => show('error', SAVE_FAILED_MESSAGE),
    });
  }, clear);

  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
      <Stack gap="md">
        <Title order={2} size="h3">
          Tags and notes
        </Title>
        <TagsEditor
          label="Tags"
          placeholder={form.values.tags.length === 0 ? 'Add a tag' : undefined}
          suggestions={suggestionNames}
          {...form.getInputProps('tags')}
          value={form.values.tags}
        />
        <Textarea
          label="Notes"
          placeholder="Why this repository matters, how you use it…"
          rows={4}
          resize="vertical"
          {...form.getInputProps('notes')}
        />
        <Group gap="sm">
          <Button
            onClick={() => onSave()}
            disabled={save.isPending}
            leftSection={<IconDeviceFloppy size={18} aria-hidden />}
          >
            {save.isPending ? 'Saving...' : 'Save Tags'}
          </Button>
        </Group>
        {message && (
          <InlineMessage kind={message.kind} onClose={message.kind === 'error' ? clear : undefined}>
            {message.text}
          </InlineMessage>
        )}
      </Stack>
    </Paper>
  );
}
