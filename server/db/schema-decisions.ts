import type { ColumnType, Generated } from 'kysely';
import type { DecisionStatus, ProposalState } from '#shared/schemas/decisions.ts';

/**
 * The tables of the decisions module (docs/product.md#team-decisions): quadrants, decision
 * records, the current decision per repository, proposals and votes. `Database` in schema.ts
 * extends `DecisionTables`.
 */

export interface DecisionTables {
  decision_quadrants: DecisionQuadrantsTable;
  repository_decisions: RepositoryDecisionsTable;
  repository_decision_current: RepositoryDecisionCurrentTable;
  decision_proposals: DecisionProposalsTable;
  decision_votes: DecisionVotesTable;
  decision_proposal_comments: DecisionProposalCommentsTable;
}

/** The four radar quadrants an admin names, in order. */
export interface DecisionQuadrantsTable {
  key: string;
  name: string;
  position: number;
}

/** One decision record: never updated except the one-time `review_notified_at` mark. */
export interface RepositoryDecisionsTable {
  id: Generated<number>;
  repository_id: number;
  from_status: DecisionStatus | null;
  to_status: DecisionStatus | null;
  from_quadrant: string | null;
  to_quadrant: string | null;
  rationale: string;
  /** JSON array of http(s) URLs. */
  links: string;
  decided_by: number | null;
  decided_by_name: string;
  decided_at: string;
  /** YYYY-MM-DD: due for review from that day. */
  review_by: string | null;
  proposal_id: number | null;
  /** When its `review_due` event was recorded; null: not yet. */
  review_notified_at: string | null;
}

/** A repository's current status and quadrant: its latest decision, kept for filters. */
export interface RepositoryDecisionCurrentTable {
  repository_id: number;
  status: DecisionStatus | null;
  quadrant: string | null;
  decision_id: number;
}

export interface DecisionProposalsTable {
  id: Generated<number>;
  repository_id: number;
  state: ProposalState;
  status: DecisionStatus | null;
  quadrant: string | null;
  rationale: string;
  links: string;
  review_by: string | null;
  proposed_by: number | null;
  proposed_by_name: string;
  proposed_at: string;
  resolved_by: number | null;
  resolved_by_name: string | null;
  resolved_at: string | null;
  decline_reason: string | null;
  decision_id: number | null;
}

/** One vote per member and proposal; a new vote replaces it. */
export interface DecisionVotesTable {
  proposal_id: number;
  user_id: number;
  repository_id: number;
  value: 1 | -1;
  voted_at: string;
}

/** A member's comment on a proposal (Markdown without raw HTML); not an activity event. */
export interface DecisionProposalCommentsTable {
  id: Generated<number>;
  proposal_id: number;
  repository_id: number;
  /** null once the account is deleted (the username is kept). */
  user_id: number | null;
  username: string;
  body: string;
  created_at: string;
}

/**
 * The current status and quadrant on the repository's row (`repositories` extends this), kept
 * with `repository_decision_current` by the decisions module for the list's filter, counts and
 * export without a join (migration 2026-11-29-0300). Null: no status.
 */
export interface RepositoryDecisionColumns {
  decision_status: ColumnType<
    DecisionStatus | null,
    DecisionStatus | null | undefined,
    DecisionStatus | null
  >;
  decision_quadrant: ColumnType<string | null, string | null | undefined, string | null>;
}
