import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decisionListSchema, proposalPageSchema, proposalResponseSchema } from '#shared/schemas/decisions.ts';
import { PRIVATE_REPOSITORY } from '../../../test/github-double/index.ts';
import {
  createDecisionsTestApp,
  type DecisionsTestApp,
  type Member,
} from '../../../test/helpers/decisions-app.ts';
import { repoPath } from '../../../test/helpers/repos-app.ts';
import { PROPOSE_INSTEAD } from './decisions.service.ts';

/**
 * Team decisions with DECISIONS_BY=admins (docs/product.md#team-decisions), on both databases:
 * members propose and vote (once each, a new vote replacing theirs), admins record directly,
 * accept (the record names the proposal) or decline with a reason; a private repository's
 * proposals stay hidden from a member who may not see it.
 */

let t: DecisionsTestApp['t'];
let ada: Member;
let bob: Member;
let admin: Member;
let call: DecisionsTestApp['call'];

beforeAll(async () => {
  ({ t, ada, bob, admin, call } = await createDecisionsTestApp('ghp_proposalsOwnerReadsPri1'));
});
afterAll(async () => {
  await t?.close();
});

const proposalOf = (answer: { json(): unknown }) => proposalResponseSchema.parse(answer.json()).proposal;
const eventTypes = async () =>
  (await t.app.db.selectFrom('repository_events').select('type').orderBy('id').execute())
    .map((row) => row.type)
    .filter((type) => type.startsWith('proposal_') || type === 'decision_changed');

let reactProposal: number;

describe('who decides', () => {
  it('a member’s direct decision is refused with a hint to propose; an admin records directly', async () => {
    const refused = await call(bob, 'PUT', repoPath('vuejs/core', '/decision'), {
      status: 'trial',
      quadrant: 'libraries',
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(PROPOSE_INSTEAD);
    // The forms learn the mode from the quadrants' answer, so they offer "Propose" up front.
    expect((await call(bob, 'GET', '/radar/quadrants')).json().decisions_by).toBe('admins');
    const direct = await call(admin, 'PUT', repoPath('vuejs/core', '/decision'), {
      status: 'trial',
      quadrant: 'libraries',
    });
    expect(direct.statusCode, direct.body).toBe(200);
  });

  it('a proposal follows the rationale rules and opens with no votes', async () => {
    const path = repoPath('facebook/react', '/proposals');
    const noReason = await call(bob, 'POST', path, { status: 'adopt', quadrant: 'languages' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().fields.rationale).toBeDefined();
    const html = await call(bob, 'POST', path, {
      status: 'adopt',
      quadrant: 'languages',
      rationale: '<script>x</script>',
    });
    expect(html.json().fields.rationale).toMatch(/without raw HTML/);
    const opened = await call(bob, 'POST', path, {
      status: 'adopt',
      quadrant: 'languages',
      rationale: 'Every team uses it',
      links: ['https://react.dev'],
    });
    expect(opened.statusCode, opened.body).toBe(201);
    const proposal = proposalOf(opened);
    expect(proposal).toMatchObject({
      state: 'open',
      repository_id: 'facebook/react',
      votes: { up: 0, down: 0 },
      my_vote: null,
      proposed_by: { username: bob.username },
      decision_id: null,
    });
    reactProposal = proposal.id;
  });
});

describe('votes', () => {
  it('count once per member; a new vote replaces the member’s own', async () => {
    const vote = (who: Member, value: number) =>
      call(who, 'PUT', `/proposals/${reactProposal}/vote`, { value });
    expect((await vote(ada, 2)).statusCode).toBe(400);
    expect(proposalOf(await vote(ada, 1)).votes).toEqual({ up: 1, down: 0 });
    expect(proposalOf(await vote(bob, 1)).votes).toEqual({ up: 2, down: 0 });
    const changed = proposalOf(await vote(bob, -1));
    expect(changed.votes).toEqual({ up: 1, down: 1 });
    expect(changed.my_vote).toBe(-1);
    expect(proposalOf(await vote(bob, -1)).votes).toEqual({ up: 1, down: 1 });
    const page = proposalPageSchema.parse((await call(ada, 'GET', '/proposals?state=open')).json());
    expect(page.proposals.find((proposal) => proposal.id === reactProposal)).toMatchObject({
      votes: { up: 1, down: 1 },
      my_vote: 1,
    });
  });
});

describe('accept and decline', () => {
  it('only an admin accepts; the record names the proposal; then it is closed', async () => {
    expect((await call(bob, 'POST', `/proposals/${reactProposal}/accept`)).statusCode).toBe(403);
    const accepted = await call(admin, 'POST', `/proposals/${reactProposal}/accept`);
    expect(accepted.statusCode, accepted.body).toBe(200);
    const proposal = proposalOf(accepted);
    expect(proposal).toMatchObject({ state: 'accepted', resolved_by: { username: admin.username } });
    const { decisions } = decisionListSchema.parse(
      (await call(bob, 'GET', repoPath('facebook/react', '/decisions'))).json(),
    );
    expect(decisions).toHaveLength(1);
    expect(decisions[0]).toMatchObject({
      id: proposal.decision_id,
      proposal_id: reactProposal,
      to_status: 'adopt',
      to_quadrant: 'languages',
      rationale: 'Every team uses it',
      links: ['https://react.dev'],
      decided_by: { username: admin.username },
    });
    expect((await call(admin, 'POST', `/proposals/${reactProposal}/accept`)).statusCode).toBe(409);
    expect((await call(ada, 'PUT', `/proposals/${reactProposal}/vote`, { value: 1 })).statusCode).toBe(409);
  });

  it('declining needs a reason and leaves the status as it was', async () => {
    const opened = proposalOf(
      await call(ada, 'POST', repoPath('vuejs/core', '/proposals'), {
        status: 'hold',
        quadrant: 'libraries',
        rationale: 'Too slow',
      }),
    );
    const path = `/proposals/${opened.id}/decline`;
    expect((await call(bob, 'POST', path, { reason: 'No' })).statusCode).toBe(403);
    const empty = await call(admin, 'POST', path, { reason: ' ' });
    expect(empty.json().fields.reason).toBeDefined();
    const declined = proposalOf(await call(admin, 'POST', path, { reason: 'It is fast enough' }));
    expect(declined).toMatchObject({
      state: 'declined',
      decline_reason: 'It is fast enough',
      decision_id: null,
    });
    const { decisions } = decisionListSchema.parse(
      (await call(bob, 'GET', repoPath('vuejs/core', '/decisions'))).json(),
    );
    expect(decisions.map((decision) => decision.to_status)).toEqual(['trial']);
    const page = proposalPageSchema.parse((await call(bob, 'GET', '/proposals?state=declined')).json());
    expect(page.proposals.map((proposal) => proposal.id)).toEqual([opened.id]);
    expect(await eventTypes()).toEqual([
      'decision_changed',
      'proposal_opened',
      'decision_changed',
      'proposal_accepted',
      'proposal_opened',
      'proposal_declined',
    ]);
  });
});

describe('listing and visibility', () => {
  it('pages newest first; a private repository’s proposals are hidden and 404', async () => {
    const hidden = proposalOf(
      await call(ada, 'POST', repoPath(PRIVATE_REPOSITORY, '/proposals'), {
        status: 'assess',
        quadrant: 'tools',
      }),
    );
    const other = proposalOf(
      await call(bob, 'POST', repoPath('vuejs/core', '/proposals'), { status: 'assess', quadrant: 'tools' }),
    );
    const first = proposalPageSchema.parse((await call(ada, 'GET', '/proposals?limit=1')).json());
    expect(first.proposals.map((proposal) => proposal.id)).toEqual([other.id]);
    const second = proposalPageSchema.parse(
      (await call(ada, 'GET', `/proposals?limit=1&cursor=${first.next_cursor}`)).json(),
    );
    expect(second.proposals.map((proposal) => proposal.id)).toEqual([hidden.id]);
    expect(second.next_cursor).toBeNull();

    const bobs = proposalPageSchema.parse((await call(bob, 'GET', '/proposals')).json());
    expect(bobs.proposals.map((proposal) => proposal.id)).toEqual([other.id]);
    const vote = await call(bob, 'PUT', `/proposals/${hidden.id}/vote`, { value: 1 });
    expect(vote.statusCode).toBe(404);
    expect(vote.json().message).toBe(
      (await call(bob, 'PUT', '/proposals/999999/vote', { value: 1 })).json().message,
    );
    const forRepository = (who: Member, name: string) =>
      call(who, 'GET', `/proposals?repository=${encodeURIComponent(name)}`);
    const vue = proposalPageSchema.parse((await forRepository(ada, 'vuejs/core')).json());
    expect(vue.proposals.map((proposal) => proposal.id)).toEqual([other.id]);
    expect((await forRepository(bob, PRIVATE_REPOSITORY)).statusCode).toBe(404);
    expect((await call(bob, 'GET', '/proposals?state=closed')).json().fields.state).toBeDefined();
    expect((await call(bob, 'GET', '/proposals?cursor=nonsense')).statusCode).toBe(400);
  });
});
