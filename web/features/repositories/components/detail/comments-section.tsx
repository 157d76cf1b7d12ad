import { Avatar, Button, Group, Paper, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { MESSAGE_CLEAR_MS } from '#shared/constants.ts';
import { formatDateTime } from '#shared/format.ts';
import { commentBodySchema, type Repository } from '#shared/schemas/repositories.ts';
import { InlineMessage } from '#web/components/inline-message.tsx';
import { describeError } from '#web/lib/api-errors.ts';
import { zodResolver } from '#web/lib/forms/zod-resolver.ts';
import { useMessage } from '#web/lib/hooks/use-message.ts';
import { useAddComment } from '../../api/add-comment.ts';
import classes from './detail.module.css';

export const NO_COMMENTS = 'No comments yet. Be the first to comment!';
export const COMMENT_ADDED = '✅ Comment added!';

/** Comments: the list, an author (default Anonymous), the text and Add Comment. */
export function CommentsSection({ repository }: { repository: Repository }) {
  const add = useAddComment(repository.id);
  const { message, show, clear } = useMessage();
  const form = useForm({
    initialValues: { author: '', comment: '' },
    validate: zodResolver(commentBodySchema),
    // The schema's own output: the comment trimmed, an empty author as 'Anonymous'.
    transformValues: (values) => commentBodySchema.parse(values),
  });

  const onSubmit = form.onSubmit((body) => {
    clear();
    add.mutate(body, {
      onSuccess: () => {
        form.setFieldValue('comment', '');
        show('success', COMMENT_ADDED, MESSAGE_CLEAR_MS.commentAdded);
      },
      onError: (failure) =>
        show('error', `❌ Failed to add comment: ${describeError(failure, 'Request failed')}`),
    });
  }, clear);

  return (
    <Stack gap="md">
      {repository.comments.length === 0 ? (
        <Text size="sm" c="dimmed">
          {NO_COMMENTS}
        </Text>
      ) : (
        <Stack
          gap="sm"
          component="ul"
          style={{ listStyle: 'none', padding: 0, margin: 0 }}
          aria-label="Comments"
        >
          {repository.comments.map((entry) => (
            <Paper key={entry.id} component="li" withBorder radius="md" p="sm">
              <Group gap="sm" align="flex-start" wrap="nowrap">
                <Avatar radius="xl" size="sm" color="indigo" aria-hidden>
                  {(entry.author.trim()[0] ?? '?').toUpperCase()}
                </Avatar>
                <Stack gap={2} miw={0}>
                  <Group gap="xs">
                    <Text size="sm" fw={600}>
                      {entry.author}
                    </Text>
                    <Text size="xs" c="dimmed" component="time" dateTime={entry.created_at}>
                      {formatDateTime(entry.created_at)}
                    </Text>
                  </Group>
                  <Text size="sm" className={classes.notes}>
                    {entry.comment}
                  </Text>
                </Stack>
              </Group>
            </Paper>
          ))}
        </Stack>
      )}
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <TextInput
            label="Your name"
            placeholder="Anonymous"
            maxLength={100}
            {...form.getInputProps('author')}
          />
          <Textarea label="Comment" rows={3} resize="vertical" {...form.getInputProps('comment')} />
          <Group>
            <Button type="submit" disabled={add.isPending}>
              {add.isPending ? 'Adding...' : 'Add Comment'}
            </Button>
          </Group>
          {message && (
            <InlineMessage kind={message.kind} onClose={message.kind === 'error' ? clear : undefined}>
              {message.text}
            </InlineMessage>
          )}
        </Stack>
      </form>
    </Stack>
  );
}
