import { Avatar, Button, Group, Paper, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { MESSAGE_CLEAR_MS } from '../../../../../shared/constants.ts';
import { formatDateTime } from '../../../../../shared/format.ts';
import { commentBodySchema, type Repository } from '../../../../../shared/schemas/repositories.ts';
import { describeError } from '../../../../lib/api-errors.ts';
import { useAddComment } from '../../api/add-comment.ts';
import { useFlashMessage } from '../../lib/use-flash-message.ts';
import { StatusMessage } from '../status-message.tsx';
import classes from './detail.module.css';

export const NO_COMMENTS = 'No comments yet. Be the first to comment!';
export const COMMENT_ADDED = '✅ Comment added!';

/** SPEC §2 Comments: the list, an author (default Anonymous), the text and Add Comment. */
export function CommentsSection({ repository }: { repository: Repository }) {
  const [author, setAuthor] = useState('');
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const add = useAddComment(repository.id);
  const { message, show, clear } = useFlashMessage();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    clear();
    const parsed = commentBodySchema.safeParse({ comment, author });
    if (!parsed.success) {
      setError(
        parsed.error.issues.find((issue) => issue.path[0] === 'comment')?.message ??
          'Please enter a comment.',
      );
      return;
    }
    setError(null);
    add.mutate(
      { comment: parsed.data.comment, author: parsed.data.author },
      {
        onSuccess: () => {
          setComment('');
          show('success', COMMENT_ADDED, MESSAGE_CLEAR_MS.commentAdded);
        },
        onError: (failure) =>
          show('error', `❌ Failed to add comment: ${describeError(failure, 'Request failed')}`),
      },
    );
  };

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
            value={author}
            onChange={(event) => setAuthor(event.currentTarget.value)}
            maxLength={100}
          />
          <Textarea
            label="Comment"
            rows={3}
            resize="vertical"
            value={comment}
            error={error}
            onChange={(event) => {
              setComment(event.currentTarget.value);
              if (error) setError(null);
            }}
          />
          <Group>
            <Button type="submit" disabled={add.isPending}>
              {add.isPending ? 'Adding...' : 'Add Comment'}
            </Button>
          </Group>
          <StatusMessage message={message} onClose={message?.kind === 'error' ? clear : undefined} />
        </Stack>
      </form>
    </Stack>
  );
}
