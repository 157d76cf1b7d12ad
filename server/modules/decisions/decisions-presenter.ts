import type { Decision, Proposal, ProposalComment } from '#shared/schemas/decisions.ts';
import type { DecisionRow, ProposalCommentRow, ProposalRow } from './decisions.queries.ts';

/** Decision records and proposals as the API shows them (docs/product.md#team-decisions). */

function links(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}

export function presentDecision(row: DecisionRow, fullName: string): Decision {
  return {
    id: row.id,
    repository_id: fullName,
    from_status: row.from_status,
    to_status: row.to_status,
    from_quadrant: row.from_quadrant,
    to_quadrant: row.to_quadrant,
    rationale: row.rationale,
    links: links(row.links),
    decided_by: { id: row.decided_by, username: row.decided_by_name },
    decided_at: row.decided_at,
    review_by: row.review_by,
    proposal_id: row.proposal_id,
  };
}

export function presentProposal(
  row: ProposalRow,
  votes: ReadonlyArray<{ user_id: number; value: number }>,
  viewerId: number,
): Proposal {
  const mine = votes.find((vote) => vote.user_id === viewerId)?.value;
  return {
    id: row.id,
    repository_id: row.full_name,
    full_name: row.full_name,
    state: row.state,
    status: row.status,
    quadrant: row.quadrant,
    rationale: row.rationale,
    links: links(row.links),
    review_by: row.review_by,
    proposed_by: { id: row.proposed_by, username: row.proposed_by_name },
    proposed_at: row.proposed_at,
    votes: {
      up: votes.filter((vote) => vote.value === 1).length,
      down: votes.filter((vote) => vote.value === -1).length,
    },
    my_vote: mine === 1 || mine === -1 ? mine : null,
    resolved_by:
      row.resolved_by_name === null ? null : { id: row.resolved_by, username: row.resolved_by_name },
    resolved_at: row.resolved_at,
    decline_reason: row.decline_reason,
    decision_id: row.decision_id,
  };
}

export function presentProposalComment(row: ProposalCommentRow): ProposalComment {
  return {
    id: row.id,
    author: { id: row.user_id, username: row.username },
    body: row.body,
    created_at: row.created_at,
  };
}
