import { Button, Group, Paper, Stack, Textarea, Title } from '@mantine/core';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { useState } from 'react';
import { MESSAGE_CLEAR_MS } from '../../../../../shared/constants.ts';
import { splitList } from '../../../../../shared/format.ts';
import type { Repository } from '../../../../../shared/schemas/repositories.ts';
import { useUpdateMetadata } from '../../api/update-metadata.ts';
import { useFlashMessage } from '../../lib/use-flash-message.ts';
import { useTagSuggestions } from '../../lib/use-tag-suggestions.ts';
import { StatusMessage } from '../status-message.tsx';
import { TagsEditor } from '../tags-editor.tsx';

export const SAVED_MESSAGE = '✅ Saved!';
export const SAVE_FAILED_MESSAGE = '❌ Failed to save.';

/** SPEC §2/§4: the tags and notes editors with Save Tags ('Saving...', '✅ Saved!' 3 s, '❌ Failed to save.'). */
export function MetadataEditor({ repository }: { repository: Repository }) {
  const [tags, setTags] = useState(() => splitList(repository.tags));
  const [notes, setNotes] = useState(repository.notes);
  const suggestions = useTagSuggestions();
  const save = useUpdateMetadata(repository.id);
  const { message, show, clear } = useFlashMessage();
  const suggestionNames = (suggestions.data ?? []).map((tag) => tag.name);

  const onSave = () => {
    clear();
    save.mutate(
      { tags: tags.join(','), notes },
      {
        onSuccess: () => show('success', SAVED_MESSAGE, MESSAGE_CLEAR_MS.saved),
        onError: () => show('error', SAVE_FAILED_MESSAGE),
      },
    );
  };

  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
      <Stack gap="md">
        <Title order={2} size="h3">
          Tags and notes
        </Title>
        <TagsEditor
          label="Tags"
          placeholder={tags.length === 0 ? 'Add a tag' : undefined}
          value={tags}
          onChange={setTags}
          suggestions={suggestionNames}
        />
        <Textarea
          label="Notes"
          placeholder="Why this repository matters, how you use it…"
          rows={4}
          resize="vertical"
          value={notes}
          onChange={(event) => setNotes(event.currentTarget.value)}
        />
        <Group gap="sm">
          <Button
            onClick={onSave}
            disabled={save.isPending}
            leftSection={<IconDeviceFloppy size={18} aria-hidden />}
          >
            {save.isPending ? 'Saving...' : 'Save Tags'}
          </Button>
        </Group>
        <StatusMessage message={message} onClose={message?.kind === 'error' ? clear : undefined} />
      </Stack>
    </Paper>
  );
}
