import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkResponseSchema } from '#shared/schemas/bulk.ts';
import {
  PROPOSAL_COMMENT_HTML_MESSAGE,
  proposalCommentListSchema,
  proposalCommentResponseSchema,
  proposalResponseSchema,
} from '#shared/schemas/decisions.ts';
import { PRIVATE_REPOSITORY } from '../../../test/github-double/index.ts';
import {
  createDecisionsTestApp,
  type DecisionsTestApp,
  type Member,
} from '../../../test/helpers/decisions-app.ts';
import { repoPath } from '../../../test/helpers/repos-app.ts';
import { PROPOSE_INSTEAD } from './decisions.service.ts';

/**
 * With DECISIONS_BY=admins (docs/product.md#team-decisions), on both databases: comments on
 * proposals (Markdown without raw HTML, oldest first, closed with the proposal, hidden with a
 * private repository, not activity events, trashed and restored with the repository), and the
 * bulk set_status action refused to members as the single call is, done for admins.
 */

let t: DecisionsTestApp['t'];
let ada: Member;
let bob: Member;
let admin: Member;
let call: DecisionsTestApp['call'];

beforeAll(async () => {
  ({ t, ada, bob, admin, call } = await createDecisionsTestApp('ghp_proposalCommentsOwner01'));
});
afterAll(async () => {
  await t?.close();
});

const propose = async (who: Member, name: string) => {
  const answer = await call(who, 'POST', repoPath(name, '/proposals'), {
    status: 'trial',
    quadrant: 'tools',
  });
  expect(answer.statusCode, answer.body).toBe(201);
  return proposalResponseSchema.parse(answer.json()).proposal.id;
};
const comments = async (who: Member, id: number) => {
  const answer = await call(who, 'GET', `/proposals/${id}/comments`);
  expect(answer.statusCode, answer.body).toBe(200);
  return proposalCommentListSchema.parse(answer.json()).comments;
};

describe('proposal comments', () => {
  it('members comment in Markdown, listed oldest first; raw HTML and blanks are refused', async () => {
    const id = await propose(bob, 'facebook/react');
    const first = await call(ada, 'POST', `/proposals/${id}/comments`, {
      body: '  We use it **everywhere**  ',
    });
    expect(first.statusCode, first.body).toBe(201);
    expect(proposalCommentResponseSchema.parse(first.json()).comment).toMatchObject({
      author: { id: ada.id, username: ada.username },
      body: 'We use it **everywhere**',
    });
    expect(
      (await call(bob, 'POST', `/proposals/${id}/comments`, { body: 'Shows `<b>` in code' })).statusCode,
    ).toBe(201);
    const html = await call(bob, 'POST', `/proposals/${id}/comments`, { body: 'Hi <script>x</script>' });
    expect(html.statusCode).toBe(400);
    expect(html.json().fields.body).toBe(PROPOSAL_COMMENT_HTML_MESSAGE);
    const blank = await call(bob, 'POST', `/proposals/${id}/comments`, { body: '   ' });
    expect(blank.json().fields.body).toBe('Please enter a comment.');
    const long = await call(bob, 'POST', `/proposals/${id}/comments`, { body: 'x'.repeat(5001) });
    expect(long.json().fields.body).toMatch(/at most 5,000/);
    const listed = await comments(admin, id);
    expect(listed.map((comment) => [comment.author.username, comment.body])).toEqual([
      [ada.username, 'We use it **everywhere**'],
      [bob.username, 'Shows `<b>` in code'],
    ]);
    // Comments are not activity events.
    const types = await t.app.db.selectFrom('repository_events').select('type').execute();
    expect(types.map((row) => row.type)).not.toContain('proposal_commented');
    expect(types.filter((row) => row.type.startsWith('proposal_'))).toHaveLength(1);
  });

  it('closes with the proposal: 409 once accepted or declined, still listed', async () => {
    const id = await propose(ada, 'vuejs/core');
    await call(bob, 'POST', `/proposals/${id}/comments`, { body: 'Before' });
    expect((await call(admin, 'POST', `/proposals/${id}/decline`, { reason: 'Not now' })).statusCode).toBe(
      200,
    );
    const late = await call(bob, 'POST', `/proposals/${id}/comments`, { body: 'After' });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe('This proposal was declined: comments are closed.');
    expect((await comments(bob, id)).map((comment) => comment.body)).toEqual(['Before']);
  });

  it('are hidden with a private repository: 404 as for a proposal that does not exist', async () => {
    const id = await propose(ada, PRIVATE_REPOSITORY);
    expect((await call(ada, 'POST', `/proposals/${id}/comments`, { body: 'Mine' })).statusCode).toBe(201);
    for (const answer of [
      await call(bob, 'GET', `/proposals/${id}/comments`),
      await call(bob, 'POST', `/proposals/${id}/comments`, { body: 'Peek' }),
      await call(bob, 'GET', '/proposals/999999/comments'),
    ]) {
      expect(answer.statusCode).toBe(404);
      expect(answer.json().message).toBe('Proposal not found');
    }
    expect(await comments(admin, id)).toHaveLength(1);
  });

  it('go to the trash with the repository and come back on undo', async () => {
    const id = await propose(ada, 'facebook/react');
    await call(bob, 'POST', `/proposals/${id}/comments`, { body: 'Kept' });
    expect((await call(ada, 'DELETE', repoPath('facebook/react'))).statusCode).toBe(200);
    expect(
      await t.app.db
        .selectFrom('decision_proposal_comments')
        .select('id')
        .where('proposal_id', '=', id)
        .execute(),
    ).toHaveLength(0);
    expect((await call(ada, 'POST', repoPath('facebook/react', '/restore'))).statusCode).toBe(200);
    expect((await comments(bob, id)).map((comment) => comment.body)).toEqual(['Kept']);
  });
});

describe('bulk set_status with DECISIONS_BY=admins', () => {
  it('refuses members whole with the single call’s 403, and records for admins', async () => {
    const payload = {
      items: ['vuejs/core', PRIVATE_REPOSITORY],
      action: 'set_status',
      status: 'hold',
      quadrant: 'libraries',
      rationale: 'Frozen',
    };
    const refused = await call(ada, 'POST', '/repositories/bulk', payload);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(PROPOSE_INSTEAD);
    const done = await call(admin, 'POST', '/repositories/bulk', payload);
    expect(done.statusCode, done.body).toBe(200);
    expect(bulkResponseSchema.parse(done.json())).toMatchObject({ succeeded: 2, failed: 0 });
    const rows = await t.app.db
      .selectFrom('repositories')
      .select(['full_name', 'decision_status'])
      .where('decision_status', '=', 'hold')
      .orderBy('full_name')
      .execute();
    expect(rows.map((row) => row.full_name).sort()).toEqual([PRIVATE_REPOSITORY, 'vuejs/core'].sort());
  });
});
