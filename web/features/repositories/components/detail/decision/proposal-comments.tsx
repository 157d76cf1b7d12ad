import { Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { formatDateTime } from '#shared/format.ts';
import { PROPOSAL_COMMENT_MAX_LENGTH, proposalCommentBodySchema } from '#shared/schemas/decisions.ts';
import { describeError } from '#web/lib/api-errors.ts';
import { useAddProposalComment, useProposalComments } from '../../../api/decisions.ts';

/**
 * A proposal's discussion (docs/product.md#team-decisions): members comment while it is open;
 * comments are shown as written (Markdown without raw HTML, never as HTML).
 */
export function ProposalComments({ fullName, proposalId }: { fullName: string; proposalId: number }) {
  const comments = useProposalComments(fullName, proposalId);
  const add = useAddProposalComment(fullName, proposalId);
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | null>(null);
  const list = comments.data ?? [];

  const submit = () => {
    const parsed = proposalCommentBodySchema.safeParse({ body });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Write a comment.');
      return;
    }
    setError(null);
    add.mutate(parsed.data, {
      onSuccess: () => setBody(''),
      onError: (failure) => setError(`Failed to comment: ${describeError(failure, 'Request failed')}`),
    });
  };

  return (
    <Stack gap="xs" pl="sm" style={{ borderInlineStart: '2px solid var(--mantine-color-default-border)' }}>
      <Text size="xs" fw={700} c="dimmed">
        {comments.isPending ? 'Loading comments...' : `Comments (${list.length})`}
      </Text>
      {list.map((comment) => (
        <Stack key={comment.id} gap={0}>
          <Text size="xs" c="dimmed">
            {comment.author.username}, {formatDateTime(comment.created_at)}
          </Text>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {comment.body}
          </Text>
        </Stack>
      ))}
      <Group align="flex-end" gap="xs" wrap="wrap">
        <Textarea
          label={`Comment on proposal ${proposalId}`}
          autosize
          minRows={1}
          maxRows={6}
          maxLength={PROPOSAL_COMMENT_MAX_LENGTH}
          style={{ flex: '1 1 14rem' }}
          value={body}
          error={error}
          onChange={(event) => setBody(event.currentTarget.value)}
        />
        <Button size="sm" variant="default" onClick={submit} loading={add.isPending}>
          Comment
        </Button>
      </Group>
    </Stack>
  );
}
