import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { NewEvent } from '#shared/schemas/activity.ts';
import type {
  Decision,
  DecisionBody,
  DecisionsBy,
  DeclineBody,
  Proposal,
  ProposalComment,
  ProposalCommentBody,
  ProposalsQuery,
  Quadrants,
  QuadrantsBody,
  ReviewsDue,
  VoteBody,
} from '#shared/schemas/decisions.ts';
import { PROPOSALS_PAGE_DEFAULT } from '#shared/schemas/decisions.ts';
import { inTransaction } from '../../db/database.ts';
import type { Database, RepositoryRow } from '../../db/schema.ts';
import { jobKind } from '../../jobs/job-definition.ts';
import { badRequest, conflict, forbidden, notFound } from '../../lib/app-error.ts';
import { type Clock, isoNow } from '../../lib/clock.ts';
import { CURSOR_ID_MAX, decodeCursor, encodeCursor } from '../../lib/cursor.ts';
import { canSee, resolveVisible, type Viewer } from '../../repository/access-policy.ts';
import { findUsername } from '../../repository/repository.queries.ts';
import * as queries from './decisions.queries.ts';
import { presentDecision, presentProposal, presentProposalComment } from './decisions-presenter.ts';

export const reviewDueJob = jobKind('decisions:review-due', z.object({}));

/** Who records decisions (DECISIONS_BY, docs/operations.md); the type is the contract's. */
export type { DecisionsBy };

export const PROPOSE_INSTEAD =
  'Decisions are made by admins on this server (DECISIONS_BY=admins): propose the move instead (POST /repositories/{id}/proposals).';
export const PROPOSAL_NOT_FOUND = 'Proposal not found';
/** Due reviews one run announces before it hands over (the next tick goes on). */
const REVIEW_BATCH = 200;

const cursorSchema = z.object({ id: z.number().int().min(1).max(CURSOR_ID_MAX) });

export interface DecisionsDeps {
  db: Kysely<Database>;
  clock: Clock;
  decisionsBy: DecisionsBy;
  /** Records activity events in the caller's transaction (the activity module's recorder). */
  recordEvents: (trx: Kysely<Database>, events: NewEvent[], now: string) => Promise<void>;
}

/**
 * Team decisions (docs/product.md#team-decisions): a repository's status and quadrant, changed
 * only by writing a decision record (never edited or deleted), directly or by accepting a
 * proposal; the quadrants; the reviews a decision's date makes due and their one `review_due`
 * event each (the `decisions:review-due` job).
 */
export class DecisionsService {
  readonly #deps: DecisionsDeps;

  constructor(deps: DecisionsDeps) {
    this.#deps = deps;
  }

  async quadrants(): Promise<Quadrants> {
    return { quadrants: await queries.listQuadrants(this.#deps.db), decisions_by: this.#deps.decisionsBy };
  }

  /** Admins only (the route's access): four quadrants; a key still in use can't go. */
  async setQuadrants(body: QuadrantsBody): Promise<Quadrants> {
    const { db } = this.#deps;
    const keys = new Set(body.quadrants.map((quadrant) => quadrant.key));
    const missing = (await queries.quadrantsInUse(db)).filter((key) => !keys.has(key));
    if (missing.length > 0) {
      const message = `Quadrant ${missing.map((key) => `"${key}"`).join(', ')} is still used by decisions or open proposals: keep its key (rename it instead).`;
      throw badRequest(message, { quadrants: message });
    }
    await inTransaction(db, (trx) => queries.replaceQuadrants(trx, body.quadrants));
    return this.quadrants();
  }

  /** `PUT /repositories/{id}/decision`: a new decision record (admins only when DECISIONS_BY=admins). */
  async decide(viewer: Viewer, fullName: string, body: DecisionBody): Promise<Decision> {
    const { db, decisionsBy } = this.#deps;
    const row = await resolveVisible(db, viewer, fullName);
    if (decisionsBy === 'admins' && !viewer.is_admin) throw forbidden(PROPOSE_INSTEAD);
    await this.#checkMove(body);
    const username = await findUsername(db, viewer.id);
    const decision = await inTransaction(db, (trx) => this.#record(trx, row, viewer, username, body, null));
    return presentDecision(decision, row.full_name);
  }

  /**
   * What a decision for many repositories (the list's bulk action) checks once, before any: the
   * caller may record (403 as `decide` says it when DECISIONS_BY=admins) and the move is valid.
   */
  async checkDecider(viewer: Viewer, body: DecisionBody): Promise<void> {
    if (this.#deps.decisionsBy === 'admins' && !viewer.is_admin) throw forbidden(PROPOSE_INSTEAD);
    await this.#checkMove(body);
  }

  /** `GET /repositories/{id}/decisions`, oldest first. */
  async decisions(viewer: Viewer, fullName: string): Promise<Decision[]> {
    const { db } = this.#deps;
    const row = await resolveVisible(db, viewer, fullName);
    return (await queries.listDecisions(db, row.id)).map((decision) =>
      presentDecision(decision, row.full_name),
    );
  }

  /** `POST /repositories/{id}/proposals`: any member who may see the repository. */
  async propose(viewer: Viewer, fullName: string, body: DecisionBody): Promise<Proposal> {
    const { db, clock } = this.#deps;
    const row = await resolveVisible(db, viewer, fullName);
    await this.#checkMove(body);
    const now = isoNow(clock);
    const username = await findUsername(db, viewer.id);
    const id = await inTransaction(db, async (trx) => {
      const proposalId = await queries.insertProposal(trx, {
        repository_id: row.id,
        state: 'open',
        status: body.status,
        quadrant: body.quadrant,
        rationale: body.rationale,
        links: JSON.stringify(body.links),
        review_by: body.review_by ?? null,
        proposed_by: viewer.id,
        proposed_by_name: username,
        proposed_at: now,
        resolved_by: null,
        resolved_by_name: null,
        resolved_at: null,
        decline_reason: null,
        decision_id: null,
      });
      await this.#deps.recordEvents(
        trx,
        [
          {
            type: 'proposal_opened',
            repository_id: row.id,
            user_id: viewer.id,
            data: { proposal_id: proposalId, status: body.status, quadrant: body.quadrant },
          },
        ],
        now,
      );
      return proposalId;
    });
    return this.#presentOne(viewer, id);
  }

  /**
   * `GET /proposals?state=&repository=`: newest first, keyset-paged, only repositories the viewer
   * may see (one of them, 404 when it can't be seen, for a repository's Decision tab).
   */
  async proposals(
    viewer: Viewer,
    query: ProposalsQuery,
  ): Promise<{ proposals: Proposal[]; next_cursor: string | null }> {
    const { db } = this.#deps;
    const limit = query.limit ?? PROPOSALS_PAGE_DEFAULT;
    const before = query.cursor ? decodeCursor(query.cursor, cursorSchema).id : null;
    const repositoryId = query.repository ? (await resolveVisible(db, viewer, query.repository)).id : null;
    const rows = await queries.listProposals(db, viewer, query.state, limit + 1, before, repositoryId);
    const page = rows.slice(0, limit);
    const votes = await queries.listVotes(
      db,
      page.map((row) => row.id),
    );
    const last = page.at(-1);
    return {
      proposals: page.map((row) =>
        presentProposal(
          row,
          votes.filter((vote) => vote.proposal_id === row.id),
          viewer.id,
        ),
      ),
      next_cursor: rows.length > limit && last ? encodeCursor({ id: last.id }) : null,
    };
  }

  /** `PUT /proposals/{id}/vote`: one vote per member; a new one replaces theirs. */
  async vote(viewer: Viewer, proposalId: number, body: VoteBody): Promise<Proposal> {
    const { db, clock } = this.#deps;
    const proposal = await this.#visibleProposal(viewer, proposalId);
    if (proposal.state !== 'open') throw conflict(`This proposal was ${proposal.state}: votes are closed.`);
    await queries.upsertVote(db, {
      proposal_id: proposal.id,
      user_id: viewer.id,
      repository_id: proposal.repository_id,
      value: body.value,
      voted_at: isoNow(clock),
    });
    return this.#presentOne(viewer, proposal.id);
  }

  /** `GET /proposals/{id}/comments`, oldest first (not activity events). */
  async comments(viewer: Viewer, proposalId: number): Promise<ProposalComment[]> {
    const proposal = await this.#visibleProposal(viewer, proposalId);
    return (await queries.listProposalComments(this.#deps.db, proposal.id)).map(presentProposalComment);
  }

  /** `POST /proposals/{id}/comments`: whoever may see the repository, while the proposal is open. */
  async comment(viewer: Viewer, proposalId: number, body: ProposalCommentBody): Promise<ProposalComment> {
    const { db, clock } = this.#deps;
    const proposal = await this.#visibleProposal(viewer, proposalId);
    if (proposal.state !== 'open')
      throw conflict(`This proposal was ${proposal.state}: comments are closed.`);
    const row = await queries.insertProposalComment(db, {
      proposal_id: proposal.id,
      repository_id: proposal.repository_id,
      user_id: viewer.id,
      username: await findUsername(db, viewer.id),
      body: body.body,
      created_at: isoNow(clock),
    });
    return presentProposalComment(row);
  }

  /** `POST /proposals/{id}/accept` (admins): writes the decision record naming the proposal. */
  async accept(viewer: Viewer, proposalId: number): Promise<Proposal> {
    const { db, clock } = this.#deps;
    const proposal = await this.#visibleProposal(viewer, proposalId);
    const row = await resolveVisible(db, viewer, proposal.full_name);
    const quadrants = await queries.listQuadrants(db);
    if (proposal.quadrant !== null && !quadrants.some((quadrant) => quadrant.key === proposal.quadrant))
      throw conflict(
        `Quadrant "${proposal.quadrant}" no longer exists: decline the proposal and propose again.`,
      );
    const now = isoNow(clock);
    const username = await findUsername(db, viewer.id);
    await inTransaction(db, async (trx) => {
      const closed = await queries.resolveProposal(trx, proposal.id, {
        state: 'accepted',
        resolved_by: viewer.id,
        resolved_by_name: username,
        resolved_at: now,
        decline_reason: null,
        decision_id: null,
      });
      if (closed === 0) throw conflict('This proposal is no longer open.');
      const body: DecisionBody = {
        status: proposal.status,
        quadrant: proposal.quadrant,
        rationale: proposal.rationale,
        links: JSON.parse(proposal.links) as string[],
        review_by: proposal.review_by,
      };
      const decision = await this.#record(trx, row, viewer, username, body, proposal.id);
      await queries.setProposalDecision(trx, proposal.id, decision.id);
      await this.#deps.recordEvents(
        trx,
        [
          {
            type: 'proposal_accepted',
            repository_id: row.id,
            user_id: viewer.id,
            data: {
              proposal_id: proposal.id,
              decision_id: decision.id,
              status: proposal.status,
              quadrant: proposal.quadrant,
            },
          },
        ],
        now,
      );
    });
    return this.#presentOne(viewer, proposal.id);
  }

  /** `POST /proposals/{id}/decline` (admins), with the reason. */
  async decline(viewer: Viewer, proposalId: number, body: DeclineBody): Promise<Proposal> {
    const { db, clock } = this.#deps;
    const proposal = await this.#visibleProposal(viewer, proposalId);
    const now = isoNow(clock);
    const username = await findUsername(db, viewer.id);
    await inTransaction(db, async (trx) => {
      const closed = await queries.resolveProposal(trx, proposal.id, {
        state: 'declined',
        resolved_by: viewer.id,
        resolved_by_name: username,
        resolved_at: now,
        decline_reason: body.reason,
        decision_id: null,
      });
      if (closed === 0) throw conflict('This proposal is no longer open.');
      await this.#deps.recordEvents(
        trx,
        [
          {
            type: 'proposal_declined',
            repository_id: proposal.repository_id,
            user_id: viewer.id,
            data: { proposal_id: proposal.id, reason: body.reason },
          },
        ],
        now,
      );
    });
    return this.#presentOne(viewer, proposal.id);
  }

  /** `GET /decisions/reviews-due`: current decisions whose review date is today or past. */
  async reviewsDue(viewer: Viewer): Promise<ReviewsDue> {
    const rows = await queries.listReviewsDue(this.#deps.db, viewer, this.#today());
    return {
      reviews_due: rows.flatMap((row) =>
        row.review_by === null
          ? []
          : [
              {
                repository_id: row.full_name,
                full_name: row.full_name,
                review_by: row.review_by,
                decision_id: row.decision_id,
              },
            ],
      ),
    };
  }

  async hasUnannouncedReviews(): Promise<boolean> {
    return (await queries.listUnnotifiedDue(this.#deps.db, this.#today(), 1)).length > 0;
  }

  /**
   * One `review_due` event per current decision whose day came: the decision is marked in the
   * event's transaction, only if no run marked it first, so re-runs and other instances record
   * none again. Answers how many it recorded and whether more remain.
   */
  async announceDueReviews(): Promise<{ announced: number; more: boolean }> {
    const { db, clock } = this.#deps;
    const due = await queries.listUnnotifiedDue(db, this.#today(), REVIEW_BATCH);
    let announced = 0;
    for (const decision of due) {
      if (decision.review_by === null) continue;
      const now = isoNow(clock);
      const review_by = decision.review_by;
      const recorded = await inTransaction(db, async (trx) => {
        if ((await queries.markReviewNotified(trx, decision.id, now)) === 0) return false;
        await this.#deps.recordEvents(
          trx,
          [
            {
              type: 'review_due',
              repository_id: decision.repository_id,
              data: { decision_id: decision.id, review_by, status: decision.to_status },
            },
          ],
          now,
        );
        return true;
      });
      if (recorded) announced += 1;
    }
    return { announced, more: due.length === REVIEW_BATCH };
  }

  // ---- inside ---------------------------------------------------------------------------------

  /** Today's date (UTC) on the server's clock: review dates are whole days. */
  #today(): string {
    return isoNow(this.#deps.clock).slice(0, 10);
  }

  /** What the schema can't check alone: the quadrant exists, the review date is not past. */
  async #checkMove(body: DecisionBody): Promise<void> {
    if (body.quadrant !== null) {
      const quadrants = await queries.listQuadrants(this.#deps.db);
      if (!quadrants.some((quadrant) => quadrant.key === body.quadrant)) {
        const message = `quadrant must be one of: ${quadrants.map((quadrant) => quadrant.key).join(', ')}`;
        throw badRequest(message, { quadrant: message });
      }
    }
    const today = this.#today();
    if (body.review_by && body.review_by < today) {
      const message = `review_by must be today (${today}) or later.`;
      throw badRequest(message, { review_by: message });
    }
  }

  async #record(
    trx: Kysely<Database>,
    row: RepositoryRow,
    viewer: Viewer,
    /** The decider's username, kept on the record (it outlives the account). */
    username: string,
    body: DecisionBody,
    proposalId: number | null,
  ): Promise<queries.DecisionRow> {
    const now = isoNow(this.#deps.clock);
    await queries.lockRepository(trx, row.id);
    const current = await queries.findCurrent(trx, row.id);
    const decision = await queries.insertDecision(trx, {
      repository_id: row.id,
      from_status: current?.status ?? null,
      to_status: body.status,
      from_quadrant: current?.quadrant ?? null,
      to_quadrant: body.quadrant,
      rationale: body.rationale,
      links: JSON.stringify(body.links),
      decided_by: viewer.id,
      decided_by_name: username,
      decided_at: now,
      review_by: body.review_by ?? null,
      proposal_id: proposalId,
    });
    await this.#deps.recordEvents(
      trx,
      [
        {
          type: 'decision_changed',
          repository_id: row.id,
          user_id: viewer.id,
          data: {
            decision_id: decision.id,
            from_status: decision.from_status,
            to_status: decision.to_status,
            from_quadrant: decision.from_quadrant,
            to_quadrant: decision.to_quadrant,
            proposal_id: proposalId,
          },
        },
      ],
      now,
    );
    return decision;
  }

  /** The proposal when the viewer may see its repository; 404 otherwise, as if it didn't exist. */
  async #visibleProposal(viewer: Viewer, id: number): Promise<queries.ProposalRow> {
    const { db } = this.#deps;
    const proposal = await queries.findProposal(db, id);
    if (!proposal) throw notFound(PROPOSAL_NOT_FOUND);
    const row = await db
      .selectFrom('repositories')
      .select(['id', 'private'])
      .where('id', '=', proposal.repository_id)
      .executeTakeFirst();
    if (!row || !(await canSee(db, viewer, row))) throw notFound(PROPOSAL_NOT_FOUND);
    return proposal;
  }

  async #presentOne(viewer: Viewer, id: number): Promise<Proposal> {
    const { db } = this.#deps;
    const proposal = await queries.findProposal(db, id);
    if (!proposal) throw notFound(PROPOSAL_NOT_FOUND);
    return presentProposal(proposal, await queries.listVotes(db, [id]), viewer.id);
  }
}
