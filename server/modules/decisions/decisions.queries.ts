import type { Insertable, Kysely, Selectable } from 'kysely';
import type { ProposalState } from '#shared/schemas/decisions.ts';
import { isPostgres } from '../../db/migration-helpers.ts';
import type { Database } from '../../db/schema.ts';
import type {
  DecisionProposalCommentsTable,
  DecisionProposalsTable,
  RepositoryDecisionsTable,
} from '../../db/schema-decisions.ts';
import { type Viewer, visibleTo } from '../../repository/access-policy.ts';

/** SQL of the decisions module (docs/product.md#team-decisions): Kysely only, no rules. */

type Db = Kysely<Database>;
export type DecisionRow = Selectable<RepositoryDecisionsTable>;
export type ProposalRow = Selectable<DecisionProposalsTable> & { full_name: string };

// ---- quadrants ---------------------------------------------------------------------------------

export async function listQuadrants(db: Db): Promise<Array<{ key: string; name: string }>> {
  return db.selectFrom('decision_quadrants').select(['key', 'name']).orderBy('position').execute();
}

export async function replaceQuadrants(trx: Db, quadrants: ReadonlyArray<{ key: string; name: string }>) {
  await trx.deleteFrom('decision_quadrants').execute();
  await trx
    .insertInto('decision_quadrants')
    .values(quadrants.map((quadrant, position) => ({ ...quadrant, position })))
    .execute();
}

/** Quadrant keys the current decisions or open proposals use. */
export async function quadrantsInUse(db: Db): Promise<string[]> {
  const [current, open] = await Promise.all([
    db.selectFrom('repository_decision_current').select('quadrant').distinct().execute(),
    db.selectFrom('decision_proposals').select('quadrant').distinct().where('state', '=', 'open').execute(),
  ]);
  return [...new Set([...current, ...open].map((row) => row.quadrant).filter((key) => key !== null))];
}

// ---- decisions ---------------------------------------------------------------------------------

/**
 * Holds the repository's row until the transaction ends, so parallel decisions on it are written
 * one after another on PostgreSQL and each names the one before as its `from` (SQLite serialises
 * writers by itself).
 */
export async function lockRepository(trx: Db, repositoryId: number): Promise<void> {
  if (!isPostgres(trx)) return;
  await trx.selectFrom('repositories').select('id').where('id', '=', repositoryId).forUpdate().execute();
}

export async function findCurrent(db: Db, repositoryId: number) {
  return db
    .selectFrom('repository_decision_current')
    .select(['status', 'quadrant', 'decision_id'])
    .where('repository_id', '=', repositoryId)
    .executeTakeFirst();
}

/**
 * Writes a decision record and makes it the repository's current one, in
 * `repository_decision_current` and on the repository's row (`decision_status`, `decision_quadrant`).
 */
export async function insertDecision(
  trx: Db,
  values: Omit<Insertable<RepositoryDecisionsTable>, 'id' | 'review_notified_at'>,
): Promise<DecisionRow> {
  const row = await trx
    .insertInto('repository_decisions')
    .values({ ...values, review_notified_at: null })
    .returningAll()
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('repository_decision_current')
    .values({
      repository_id: row.repository_id,
      status: row.to_status,
      quadrant: row.to_quadrant,
      decision_id: row.id,
    })
    .onConflict((oc) =>
      oc.column('repository_id').doUpdateSet({
        status: row.to_status,
        quadrant: row.to_quadrant,
        decision_id: row.id,
      }),
    )
    .execute();
  // The list's copy (status filter, counts, export), as health keeps its grade on the row.
  await trx
    .updateTable('repositories')
    .set({ decision_status: row.to_status, decision_quadrant: row.to_quadrant })
    .where('id', '=', row.repository_id)
    .execute();
  return row;
}

/** A repository's decision records, oldest first. */
export async function listDecisions(db: Db, repositoryId: number): Promise<DecisionRow[]> {
  return db
    .selectFrom('repository_decisions')
    .selectAll()
    .where('repository_id', '=', repositoryId)
    .orderBy('id')
    .execute();
}

// ---- proposals ---------------------------------------------------------------------------------

export async function insertProposal(
  trx: Db,
  values: Omit<Insertable<DecisionProposalsTable>, 'id'>,
): Promise<number> {
  const row = await trx
    .insertInto('decision_proposals')
    .values(values)
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

function proposalQuery(db: Db) {
  return db
    .selectFrom('decision_proposals')
    .innerJoin('repositories', 'repositories.id', 'decision_proposals.repository_id')
    .selectAll('decision_proposals')
    .select('repositories.full_name');
}

export async function findProposal(db: Db, id: number): Promise<ProposalRow | undefined> {
  return proposalQuery(db).where('decision_proposals.id', '=', id).executeTakeFirst();
}

/** A page of proposals in one state the viewer may see, newest first, after `beforeId`. */
export async function listProposals(
  db: Db,
  viewer: Viewer,
  state: ProposalState,
  limit: number,
  beforeId: number | null,
  repositoryId: number | null = null,
): Promise<ProposalRow[]> {
  let query = proposalQuery(db)
    .where('decision_proposals.state', '=', state)
    .where(
      'decision_proposals.repository_id',
      'in',
      visibleTo(db.selectFrom('repositories').select('repositories.id'), viewer),
    );
  if (beforeId !== null) query = query.where('decision_proposals.id', '<', beforeId);
  if (repositoryId !== null) query = query.where('decision_proposals.repository_id', '=', repositoryId);
  return query.orderBy('decision_proposals.id', 'desc').limit(limit).execute();
}

/**
 * Closes an open proposal; 0 when it was no longer open (another admin or instance was first),
 * so a proposal is accepted or declined once.
 */
export async function resolveProposal(
  trx: Db,
  id: number,
  values: Pick<
    Insertable<DecisionProposalsTable>,
    'state' | 'resolved_by' | 'resolved_by_name' | 'resolved_at' | 'decline_reason' | 'decision_id'
  >,
): Promise<number> {
  const result = await trx
    .updateTable('decision_proposals')
    .set(values)
    .where('id', '=', id)
    .where('state', '=', 'open')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function setProposalDecision(trx: Db, id: number, decisionId: number): Promise<void> {
  await trx.updateTable('decision_proposals').set({ decision_id: decisionId }).where('id', '=', id).execute();
}

/** One vote per member: a new one replaces theirs. */
export async function upsertVote(
  db: Db,
  vote: { proposal_id: number; user_id: number; repository_id: number; value: 1 | -1; voted_at: string },
): Promise<void> {
  await db
    .insertInto('decision_votes')
    .values(vote)
    .onConflict((oc) =>
      oc.columns(['proposal_id', 'user_id']).doUpdateSet({ value: vote.value, voted_at: vote.voted_at }),
    )
    .execute();
}

export async function listVotes(db: Db, proposalIds: readonly number[]) {
  if (proposalIds.length === 0) return [];
  return db
    .selectFrom('decision_votes')
    .select(['proposal_id', 'user_id', 'value'])
    .where('proposal_id', 'in', proposalIds)
    .execute();
}

// ---- proposal comments -------------------------------------------------------------------------

export type ProposalCommentRow = Selectable<DecisionProposalCommentsTable>;

export async function insertProposalComment(
  db: Db,
  values: Omit<Insertable<DecisionProposalCommentsTable>, 'id'>,
): Promise<ProposalCommentRow> {
  return db.insertInto('decision_proposal_comments').values(values).returningAll().executeTakeFirstOrThrow();
}

/** A proposal's comments, oldest first. */
export async function listProposalComments(db: Db, proposalId: number): Promise<ProposalCommentRow[]> {
  return db
    .selectFrom('decision_proposal_comments')
    .selectAll()
    .where('proposal_id', '=', proposalId)
    .orderBy('id')
    .execute();
}

// ---- reviews -----------------------------------------------------------------------------------

/**
 * Current decisions whose review date is `today` or earlier, on repositories the viewer may see.
 * The `id in (…)` names the repositories through the review-date index first: without it SQLite
 * scanned every repository (43 ms at 100,000, most of `GET /radar`'s budget, docs/benchmarks.md).
 */
export async function listReviewsDue(db: Db, viewer: Viewer, today: string) {
  return visibleTo(
    db
      .selectFrom('repositories')
      .innerJoin(
        'repository_decision_current',
        'repository_decision_current.repository_id',
        'repositories.id',
      )
      .innerJoin('repository_decisions', 'repository_decisions.id', 'repository_decision_current.decision_id')
      .select([
        'repositories.full_name',
        'repository_decisions.id as decision_id',
        'repository_decisions.review_by',
      ])
      .where('repository_decisions.review_by', '<=', today)
      .where(
        'repositories.id',
        'in',
        db
          .selectFrom('repository_decisions')
          .select('repository_decisions.repository_id')
          .where('repository_decisions.review_by', '<=', today),
      ),
    viewer,
  )
    .orderBy('review_by')
    .orderBy('decision_id')
    .execute();
}

/** Current decisions due for review by `today` whose review_due event was not recorded yet. */
export async function listUnnotifiedDue(db: Db, today: string, limit: number) {
  return db
    .selectFrom('repository_decision_current')
    .innerJoin('repository_decisions', 'repository_decisions.id', 'repository_decision_current.decision_id')
    .select([
      'repository_decisions.id',
      'repository_decisions.repository_id',
      'repository_decisions.review_by',
      'repository_decisions.to_status',
    ])
    .where('repository_decisions.review_by', '<=', today)
    .where('repository_decisions.review_notified_at', 'is', null)
    .orderBy('repository_decisions.id')
    .limit(limit)
    .execute();
}

/** Marks a decision's review as announced; 0 when another run already did. */
export async function markReviewNotified(trx: Db, decisionId: number, now: string): Promise<number> {
  const result = await trx
    .updateTable('repository_decisions')
    .set({ review_notified_at: now })
    .where('id', '=', decisionId)
    .where('review_notified_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
