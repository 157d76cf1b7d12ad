import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, type vi } from 'vitest';
import { encodeRouteId } from '#shared/route-id.ts';
import type { Decision, Proposal } from '#shared/schemas/decisions.ts';
import { DEFAULT_QUADRANTS } from '#shared/schemas/decisions.ts';
import { catalogueDouble } from '../../../../test/web/catalogue-double.ts';
import {
  buildUser,
  type FetchHandler,
  jsonResponse,
  renderApp,
  signIn,
} from '../../../../test/web/render.tsx';
import { buildRepository } from '../../../../test/web/repository-fixtures.ts';

const FULL_NAME = 'octo/widget';
const PATH = '/repositories/octo%2Fwidget';

const ADOPTED: Decision = {
  id: 2,
  repository_id: FULL_NAME,
  from_status: 'trial',
  to_status: 'adopt',
  from_quadrant: 'libraries',
  to_quadrant: 'libraries',
  rationale: 'Stable for a year in **three** services.',
  links: ['https://example.com/adr/7'],
  decided_by: { id: 1, username: 'ada' },
  decided_at: '2026-11-20T10:00:00.000Z',
  review_by: '2027-05-01',
  proposal_id: null,
};
const TRIALLED: Decision = {
  ...ADOPTED,
  id: 1,
  from_status: null,
  to_status: 'trial',
  from_quadrant: null,
  rationale: 'Worth a try.',
  links: [],
  decided_at: '2026-06-01T10:00:00.000Z',
  review_by: null,
};
const PROPOSAL: Proposal = {
  id: 9,
  repository_id: FULL_NAME,
  full_name: FULL_NAME,
  state: 'open',
  status: 'hold',
  quadrant: 'libraries',
  rationale: 'Maintainer left.',
  links: [],
  review_by: null,
  proposed_by: { id: 3, username: 'bob' },
  proposed_at: '2026-11-25T10:00:00.000Z',
  votes: { up: 2, down: 1 },
  my_vote: null,
  resolved_by: null,
  resolved_at: null,
  decline_reason: null,
  decision_id: null,
};

function openDecision(decisionsBy: 'members' | 'admins', handlers: Record<string, FetchHandler> = {}) {
  return renderApp({
    route: `/repo/${encodeRouteId(FULL_NAME)}?tab=decision`,
    handlers: {
      ...catalogueDouble([]).handlers,
      [`GET ${PATH}`]: () => jsonResponse({ repository: buildRepository({ id: FULL_NAME }) }),
      'GET /api/get-versions': () => jsonResponse({ versions: [] }),
      'GET /radar/quadrants': () => jsonResponse({ quadrants: DEFAULT_QUADRANTS, decisions_by: decisionsBy }),
      [`GET ${PATH}/decisions`]: () => jsonResponse({ decisions: [TRIALLED, ADOPTED] }),
      'GET /proposals': () => jsonResponse({ proposals: [PROPOSAL], next_cursor: null }),
      ...handlers,
    },
  });
}

function bodiesOf(fetchMock: ReturnType<typeof vi.fn>, method: string, pathname: string): unknown[] {
  return fetchMock.mock.calls
    .map(([input, init]) => ({ request: new Request(input as RequestInfo, init as RequestInit), init }))
    .filter(({ request }) => request.method === method && new URL(request.url).pathname === pathname)
    .map(({ init }) => JSON.parse(String((init as RequestInit).body)));
}

describe('the Decision tab', () => {
  it('shows the current status with why and who, and every record newest first', async () => {
    signIn();
    openDecision('members');
    const now = await screen.findByRole('region', { name: 'Decision' });
    expect(within(now).getAllByText('Adopt')[0]).toBeVisible();
    expect(within(now).getByText('Stable for a year in **three** services.')).toBeVisible();
    expect(within(now).getByRole('link', { name: 'https://example.com/adr/7' })).toHaveAttribute(
      'href',
      'https://example.com/adr/7',
    );
    const history = screen.getByRole('region', { name: 'History (2)' });
    const titles = within(history)
      .getAllByText(/→/)
      .map((node) => node.textContent);
    expect(titles).toEqual(['Trial · Libraries → Adopt · Libraries', 'No status → Trial · Libraries']);
  });

  it('records a decision; the rationale is required for hold, with the shared message', async () => {
    signIn();
    const { user, fetchMock } = openDecision('members', {
      [`PUT ${PATH}/decision`]: () => jsonResponse({ decision: { ...ADOPTED, id: 3, to_status: 'hold' } }),
    });
    const form = await screen.findByRole('form', { name: 'Change decision' });
    await user.click(within(form).getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Hold' }));
    await user.click(within(form).getByRole('button', { name: 'Record decision' }));
    expect(
      await within(form).findByText('Say why: a rationale is required for adopt, hold and retired.'),
    ).toBeVisible();
    expect(bodiesOf(fetchMock, 'PUT', `${PATH}/decision`)).toEqual([]);
    await user.type(within(form).getByRole('textbox', { name: /Rationale/ }), 'Security fixes stopped.');
    await user.click(within(form).getByRole('button', { name: 'Record decision' }));
    expect(await screen.findByText('✅ Decision recorded.')).toBeVisible();
    expect(bodiesOf(fetchMock, 'PUT', `${PATH}/decision`)).toEqual([
      {
        status: 'hold',
        quadrant: 'libraries',
        rationale: 'Security fixes stopped.',
        links: [],
        review_by: null,
      },
    ]);
  });

  it('where admins decide, a member proposes and votes; an admin sees Accept and Decline', async () => {
    signIn(buildUser({ is_admin: false }));
    const { user, fetchMock } = openDecision('admins', {
      'PUT /proposals/9/vote': () =>
        jsonResponse({ proposal: { ...PROPOSAL, my_vote: 1, votes: { up: 3, down: 1 } } }),
    });
    expect(await screen.findByRole('form', { name: 'Propose a change' })).toBeVisible();
    const proposals = await screen.findByRole('region', { name: 'Open proposals (1)' });
    expect(within(proposals).queryByRole('button', { name: 'Accept' })).toBeNull();
    await user.click(within(proposals).getByRole('button', { name: 'Vote +1 on proposal 9 (2 so far)' }));
    await waitFor(() => expect(bodiesOf(fetchMock, 'PUT', '/proposals/9/vote')).toEqual([{ value: 1 }]));
  });

  it('members discuss a proposal: its comments, and a new one; raw HTML is refused with the shared message', async () => {
    signIn(buildUser({ is_admin: false }));
    const comment = {
      id: 1,
      author: { id: 3, username: 'bob' },
      body: 'Agreed.',
      created_at: '2026-11-26T10:00:00.000Z',
    };
    const { user, fetchMock } = openDecision('admins', {
      'GET /proposals/9/comments': () => jsonResponse({ comments: [comment] }),
      'POST /proposals/9/comments': () =>
        jsonResponse({ comment: { ...comment, id: 2, body: 'Needs a benchmark.' } }, { status: 201 }),
    });
    const proposals = await screen.findByRole('region', { name: 'Open proposals (1)' });
    expect(await within(proposals).findByText('Agreed.')).toBeVisible();
    const box = within(proposals).getByRole('textbox', { name: 'Comment on proposal 9' });
    await user.type(box, '<b>no</b>');
    await user.click(within(proposals).getByRole('button', { name: 'Comment' }));
    expect(await within(proposals).findByText(/raw HTML/)).toBeVisible();
    await user.clear(box);
    await user.type(box, 'Needs a benchmark.');
    await user.click(within(proposals).getByRole('button', { name: 'Comment' }));
    await waitFor(() =>
      expect(bodiesOf(fetchMock, 'POST', '/proposals/9/comments')).toEqual([{ body: 'Needs a benchmark.' }]),
    );
  });

  it('an admin accepts a proposal where admins decide', async () => {
    signIn(buildUser({ is_admin: true }));
    const { user, fetchMock } = openDecision('admins', {
      'POST /proposals/9/accept': () =>
        jsonResponse({ proposal: { ...PROPOSAL, state: 'accepted', decision_id: 4 } }),
    });
    expect(await screen.findByRole('form', { name: 'Change decision' })).toBeVisible();
    const proposals = await screen.findByRole('region', { name: 'Open proposals (1)' });
    await user.click(within(proposals).getByRole('button', { name: 'Accept' }));
    expect(await screen.findByText('✅ Accepted: the decision is recorded.')).toBeVisible();
    expect(
      fetchMock.mock.calls.some(([input, init]) =>
        new Request(input as RequestInfo, init as RequestInit).url.endsWith('/proposals/9/accept'),
      ),
    ).toBe(true);
  });
});
