import { Badge, Button, Group, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { IconCheck, IconThumbDown, IconThumbUp, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { MESSAGE_CLEAR_MS } from '#shared/constants.ts';
import { formatDate, formatDateTime } from '#shared/format.ts';
import { declineBodySchema, type Proposal, type Quadrants } from '#shared/schemas/decisions.ts';
import { DecisionBadge } from '#web/components/decision-badge.tsx';
import { InlineMessage } from '#web/components/inline-message.tsx';
import { SectionError, SectionLoader } from '#web/components/load-states.tsx';
import { describeError } from '#web/lib/api-errors.ts';
import { useMessage } from '#web/lib/hooks/use-message.ts';
import { useOpenProposals, useProposalActions } from '../../../api/decisions.ts';
import { ProposalComments } from './proposal-comments.tsx';
import { quadrantName, RationaleText } from './rationale.tsx';

/**
 * The repository's open proposals (DECISIONS_BY=admins): the proposed move and why, +1/−1 votes
 * (once per member; a new vote replaces the old one), the members' comments, and for admins
 * Accept or Decline with a reason.
 */
export function ProposalsCard({
  fullName,
  quadrants,
  isAdmin,
}: {
  fullName: string;
  quadrants: Quadrants['quadrants'];
  isAdmin: boolean;
}) {
  const proposals = useOpenProposals(fullName);
  if (proposals.isError)
    return (
      <SectionError
        message={`Failed to load the proposals: ${describeError(proposals.error, 'Request failed')}`}
        onRetry={() => void proposals.refetch()}
      />
    );
  if (!proposals.data) return <SectionLoader label="Loading proposals..." />;
  if (proposals.data.length === 0) return null;
  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'md', sm: 'lg' }}
      component="section"
      aria-labelledby="open-proposals"
    >
      <Stack gap="md">
        <Title order={2} size="h4" id="open-proposals">
          Open proposals ({proposals.data.length})
        </Title>
        <Stack gap="md" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {proposals.data.map((proposal) => (
            <ProposalItem
              key={proposal.id}
              fullName={fullName}
              proposal={proposal}
              quadrants={quadrants}
              isAdmin={isAdmin}
            />
          ))}
        </Stack>
      </Stack>
    </Paper>
  );
}

function ProposalItem({
  fullName,
  proposal,
  quadrants,
  isAdmin,
}: {
  fullName: string;
  proposal: Proposal;
  quadrants: Quadrants['quadrants'];
  isAdmin: boolean;
}) {
  const { vote, accept, decline } = useProposalActions(fullName);
  const [declining, setDeclining] = useState(false);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const { message, show, clear } = useMessage();
  const failed = (what: string) => (failure: unknown) =>
    show('error', `❌ Failed to ${what}: ${describeError(failure, 'Request failed')}`);

  const onVote = (value: 1 | -1) => {
    clear();
    vote.mutate({ id: proposal.id, value }, { onError: failed('vote') });
  };
  const onAccept = () => {
    clear();
    accept.mutate(proposal.id, {
      onSuccess: () => show('success', '✅ Accepted: the decision is recorded.', MESSAGE_CLEAR_MS.saved),
      onError: failed('accept'),
    });
  };
  const onDecline = () => {
    const parsed = declineBodySchema.safeParse({ reason });
    if (!parsed.success) {
      setReasonError(parsed.error.issues[0]?.message ?? 'Say why.');
      return;
    }
    setReasonError(null);
    clear();
    decline.mutate({ id: proposal.id, reason: parsed.data.reason }, { onError: failed('decline') });
  };
  const label = `proposal ${proposal.id}`;

  return (
    <li>
      <Stack gap="xs" aria-label={`Proposal by ${proposal.proposed_by.username}`}>
        <Group gap="xs" wrap="wrap">
          <Text size="sm" fw={600}>
            Move to
          </Text>
          <DecisionBadge status={proposal.status} />
          {proposal.quadrant && <Text size="sm">in {quadrantName(quadrants, proposal.quadrant)}</Text>}
          {proposal.review_by && (
            <Badge variant="outline" color="gray">
              review by {formatDate(proposal.review_by)}
            </Badge>
          )}
        </Group>
        <Text size="xs" c="dimmed">
          Proposed by {proposal.proposed_by.username} on {formatDateTime(proposal.proposed_at)}
        </Text>
        <RationaleText rationale={proposal.rationale} links={proposal.links} />
        <Group gap="xs" wrap="wrap">
          <Button
            size="xs"
            variant={proposal.my_vote === 1 ? 'filled' : 'default'}
            aria-pressed={proposal.my_vote === 1}
            aria-label={`Vote +1 on ${label} (${proposal.votes.up} so far)`}
            leftSection={<IconThumbUp size={14} aria-hidden />}
            onClick={() => onVote(1)}
            disabled={vote.isPending}
          >
            {proposal.votes.up}
          </Button>
          <Button
            size="xs"
            variant={proposal.my_vote === -1 ? 'filled' : 'default'}
            aria-pressed={proposal.my_vote === -1}
            aria-label={`Vote −1 on ${label} (${proposal.votes.down} so far)`}
            leftSection={<IconThumbDown size={14} aria-hidden />}
            onClick={() => onVote(-1)}
            disabled={vote.isPending}
          >
            {proposal.votes.down}
          </Button>
          {isAdmin && (
            <>
              <Button
                size="xs"
                color="green"
                leftSection={<IconCheck size={14} aria-hidden />}
                onClick={onAccept}
                loading={accept.isPending}
              >
                Accept
              </Button>
              <Button
                size="xs"
                variant="default"
                leftSection={<IconX size={14} aria-hidden />}
                onClick={() => setDeclining((open) => !open)}
                aria-expanded={declining}
              >
                Decline…
              </Button>
            </>
          )}
        </Group>
        {isAdmin && declining && (
          <Group align="flex-end" gap="xs" wrap="wrap">
            <Textarea
              label="Why it is declined"
              autosize
              minRows={1}
              style={{ flex: 1, minWidth: 220 }}
              value={reason}
              error={reasonError}
              onChange={(event) => setReason(event.currentTarget.value)}
            />
            <Button size="sm" variant="default" onClick={onDecline} loading={decline.isPending}>
              Decline proposal
            </Button>
          </Group>
        )}
        {message && (
          <InlineMessage kind={message.kind} onClose={message.kind === 'error' ? clear : undefined}>
            {message.text}
          </InlineMessage>
        )}
        <ProposalComments fullName={fullName} proposalId={proposal.id} />
      </Stack>
    </li>
  );
}
