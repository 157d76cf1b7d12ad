import { Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { formatDate, formatDateTime } from '#shared/format.ts';
import type { Decision, Quadrants } from '#shared/schemas/decisions.ts';
import type { Repository } from '#shared/schemas/repositories.ts';
import { DecisionBadge } from '#web/components/decision-badge.tsx';
import { SectionError, SectionLoader } from '#web/components/load-states.tsx';
import { describeError } from '#web/lib/api-errors.ts';
import { useAuth } from '#web/lib/auth/auth-context.tsx';
import { useDecisions, useQuadrants } from '../../../api/decisions.ts';
import { DecisionForm } from './decision-form.tsx';
import { ProposalsCard } from './proposals-card.tsx';
import { quadrantName, RationaleText } from './rationale.tsx';

export const NO_DECISIONS = 'No decision yet: record where the team stands on this repository.';

/**
 * The Decision tab (docs/product.md#team-decisions), loaded when it first opens: the current
 * status and quadrant with the decision behind it, "Change decision" (or "Propose a change"
 * where admins decide), the open proposals with their votes, and every record, newest first.
 */
export default function DecisionTab({ repository }: { repository: Repository }) {
  const quadrants = useQuadrants();
  const decisions = useDecisions(repository.id);
  const { user } = useAuth();
  const isAdmin = user?.is_admin === true;

  if (quadrants.isError || decisions.isError)
    return (
      <SectionError
        message={`Failed to load the decisions: ${describeError(quadrants.error ?? decisions.error, 'Request failed')}`}
        onRetry={() => {
          void quadrants.refetch();
          void decisions.refetch();
        }}
      />
    );
  if (!quadrants.data || !decisions.data) return <SectionLoader label="Loading decisions..." />;

  const list = quadrants.data.quadrants;
  const latest = decisions.data.at(-1) ?? null;
  const propose = quadrants.data.decisions_by === 'admins' && !isAdmin;
  const current = { status: latest?.to_status ?? null, quadrant: latest?.to_quadrant ?? null };

  return (
    <Stack gap="xl">
      <Paper
        withBorder
        radius="md"
        p={{ base: 'md', sm: 'lg' }}
        component="section"
        aria-labelledby="decision-now"
      >
        <Stack gap="md">
          <Group justify="space-between" align="flex-start" gap="sm">
            <Title order={2} size="h3" id="decision-now">
              Decision
            </Title>
            <Group gap="xs">
              <DecisionBadge status={current.status} size="lg" />
              {current.quadrant && <Text fw={600}>{quadrantName(list, current.quadrant)}</Text>}
            </Group>
          </Group>
          {latest ? (
            <CurrentDecision decision={latest} />
          ) : (
            <Text size="sm" c="dimmed">
              {NO_DECISIONS}
            </Text>
          )}
          <Title order={3} size="h4">
            {propose ? 'Propose a change' : 'Change decision'}
          </Title>
          <DecisionForm fullName={repository.id} current={current} quadrants={list} propose={propose} />
        </Stack>
      </Paper>
      <ProposalsCard fullName={repository.id} quadrants={list} isAdmin={isAdmin} />
      <DecisionHistory decisions={decisions.data} quadrants={list} />
    </Stack>
  );
}

function CurrentDecision({ decision }: { decision: Decision }) {
  const today = new Date().toISOString().slice(0, 10);
  const due = decision.review_by !== null && decision.review_by <= today;
  return (
    <Stack gap="xs">
      <Text size="sm">
        Decided by {decision.decided_by.username} on {formatDateTime(decision.decided_at)}
        {decision.proposal_id !== null && ` (accepted proposal #${decision.proposal_id})`}.
      </Text>
      {decision.review_by && (
        <Group gap="xs">
          <Text size="sm">Review by {formatDate(decision.review_by)}</Text>
          {due && (
            <Badge color="orange" variant="light">
              Review due
            </Badge>
          )}
        </Group>
      )}
      <RationaleText rationale={decision.rationale} links={decision.links} />
    </Stack>
  );
}

/** Every record, newest first; records are never edited (a correction is a new record). */
function DecisionHistory({
  decisions,
  quadrants,
}: {
  decisions: Decision[];
  quadrants: Quadrants['quadrants'];
}) {
  if (decisions.length === 0) return null;
  const newestFirst = [...decisions].reverse();
  const place = (status: Decision['to_status'], quadrant: string | null) =>
    status
      ? `${status[0]?.toUpperCase()}${status.slice(1)}${quadrant ? ` · ${quadrantName(quadrants, quadrant)}` : ''}`
      : 'No status';
  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'md', sm: 'lg' }}
      component="section"
      aria-labelledby="decision-history"
    >
      <Stack gap="md">
        <Title order={2} size="h4" id="decision-history">
          History ({decisions.length})
        </Title>
        <Stack gap="md" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {newestFirst.map((decision) => (
            <Stack
              key={decision.id}
              component="li"
              gap={4}
              pl="sm"
              style={{ borderInlineStart: '3px solid var(--mantine-primary-color-filled)' }}
            >
              <Text size="sm" fw={600}>
                {place(decision.from_status, decision.from_quadrant)} →{' '}
                {place(decision.to_status, decision.to_quadrant)}
              </Text>
              <Text size="xs" c="dimmed">
                {decision.decided_by.username}, {formatDateTime(decision.decided_at)}
                {decision.proposal_id !== null && ` · proposal #${decision.proposal_id}`}
                {decision.review_by && ` · review by ${formatDate(decision.review_by)}`}
              </Text>
              <RationaleText rationale={decision.rationale} links={decision.links} />
            </Stack>
          ))}
        </Stack>
      </Stack>
    </Paper>
  );
}
