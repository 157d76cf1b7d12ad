import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityPageSchema } from '#shared/schemas/activity.ts';
import {
  decisionListSchema,
  decisionResponseSchema,
  quadrantsSchema,
  reviewsDueSchema,
} from '#shared/schemas/decisions.ts';
import { PRIVATE_REPOSITORY } from '../../../test/github-double/index.ts';
import { signedInUser } from '../../../test/helpers/auth-factory.ts';
import { createFakeClock } from '../../../test/helpers/fake-clock.ts';
import { createReposTestApp, repoPath } from '../../../test/helpers/repos-app.ts';
import { ruleMatches } from '../notifications/notification-delivery.service.ts';

/**
 * Team decisions with DECISIONS_BY=members (docs/product.md#team-decisions), on both databases:
 * rationale rules, records never changed (a correction is a new record), quadrants (admins,
 * exactly four), reviews due and their one `review_due` event, and a private repository's
 * decisions hidden from a member who may not see it.
 */

const OWNER_TOKEN = 'ghp_decisionsOwnerReadsPriv1';
const clock = createFakeClock();
let t: Awaited<ReturnType<typeof createReposTestApp>>;
type Member = Awaited<ReturnType<typeof signedInUser>>;
let ada: Member;
let bob: Member;
let admin: Member;

beforeAll(async () => {
  t = await createReposTestApp({ SYNC_SCHEDULE: 'off' }, {}, { clock });
  ada = await signedInUser(t.app);
  bob = await signedInUser(t.app);
  admin = await signedInUser(t.app, { is_admin: true });
  t.github.grantPrivateAccess(OWNER_TOKEN);
  expect((await call(ada, 'PUT', '/auth/me/github-token', { token: OWNER_TOKEN })).statusCode).toBe(200);
  for (const id of ['facebook/react', 'vuejs/core', PRIVATE_REPOSITORY])
    expect((await call(ada, 'POST', '/repositories/', { id })).statusCode).toBe(201);
});
afterAll(async () => {
  await t?.close();
});

const call = (
  who: Member,
  method: 'GET' | 'PUT' | 'POST' | 'DELETE' | 'PATCH',
  url: string,
  payload?: object,
) => t.app.inject({ method, url, headers: who.headers, payload });
const today = () => clock.now().toISOString().slice(0, 10);
const dayAfter = (days: number) =>
  new Date(clock.now().getTime() + days * 86_400_000).toISOString().slice(0, 10);

describe('rationale rules', () => {
  it('requires a rationale for adopt, hold and retired, not for assess and trial', async () => {
    for (const status of ['adopt', 'hold', 'retired']) {
      const answer = await call(bob, 'PUT', repoPath('vuejs/core', '/decision'), {
        status,
        quadrant: 'libraries',
        rationale: '   ',
      });
      expect(answer.statusCode, status).toBe(400);
      expect(answer.json().fields.rationale).toMatch(/rationale is required/);
    }
    const trial = await call(bob, 'PUT', repoPath('vuejs/core', '/decision'), {
      status: 'trial',
      quadrant: 'libraries',
    });
    expect(trial.statusCode, trial.body).toBe(200);
    expect(decisionResponseSchema.parse(trial.json()).decision).toMatchObject({
      from_status: null,
      to_status: 'trial',
      to_quadrant: 'libraries',
      rationale: '',
      decided_by: { username: bob.username },
    });
  });

  it('refuses raw HTML with the field named, allows it in code and autolinks', async () => {
    for (const rationale of ['Nice <b>lib</b>', '<img src=x onerror=alert(1)>', 'a <!-- note -->']) {
      const answer = await call(bob, 'PUT', repoPath('vuejs/core', '/decision'), {
        status: 'adopt',
        quadrant: 'libraries',
        rationale,
      });
      expect(answer.statusCode, rationale).toBe(400);
      expect(answer.json().fields.rationale).toMatch(/without raw HTML/);
    }
    const fine = await call(bob, 'PUT', repoPath('vuejs/core', '/decision'), {
      status: 'adopt',
      quadrant: 'libraries',
      rationale:
        'Use `<Suspense>` freely; see <https://vuejs.org> and 2 < 3 > 1.\n\n```html\n<div></div>\n```',
      links: ['https://vuejs.org/guide/'],
    });
    expect(fine.statusCode, fine.body).toBe(200);
  });

  it('checks links, quadrant and review date', async () => {
    const path = repoPath('vuejs/core', '/decision');
    const body = { status: 'trial', quadrant: 'libraries', rationale: 'x' };
    const badLink = await call(bob, 'PUT', path, { ...body, links: ['javascript:alert(1)'] });
    expect(badLink.statusCode).toBe(400);
    expect(Object.keys(badLink.json().fields)).toEqual(['links.0']);
    const badQuadrant = await call(bob, 'PUT', path, { ...body, quadrant: 'nowhere' });
    expect(badQuadrant.json().fields.quadrant).toMatch(/quadrant must be one of/);
    const past = await call(bob, 'PUT', path, { ...body, review_by: dayAfter(-1) });
    expect(past.statusCode).toBe(400);
    expect(past.json().fields.review_by).toContain(today());
    const badStatus = await call(bob, 'PUT', path, { ...body, status: 'maybe' });
    expect(Object.keys(badStatus.json().fields)).toEqual(['status']);
  });
});

describe('records', () => {
  it('are never changed: no route edits or deletes them, a correction is a new record', async () => {
    const path = repoPath('facebook/react', '/decision');
    const first = await call(ada, 'PUT', path, {
      status: 'adopt',
      quadrant: 'tools',
      rationale: 'Used everywhere',
    });
    expect(first.statusCode).toBe(200);
    const firstId = first.json().decision.id;
    for (const method of ['DELETE', 'PATCH', 'POST'] as const)
      expect((await call(ada, method, path, {})).statusCode, method).toBe(404);
    expect((await call(ada, 'PUT', `/decisions/${firstId}`, {})).statusCode).toBe(404);
    expect((await call(ada, 'DELETE', `/decisions/${firstId}`)).statusCode).toBe(404);

    const correction = await call(bob, 'PUT', path, {
      status: 'adopt',
      quadrant: 'libraries',
      rationale: 'Used everywhere (it is a library)',
      links: ['https://react.dev'],
    });
    expect(correction.statusCode).toBe(200);
    const list = decisionListSchema.parse(
      (await call(bob, 'GET', repoPath('facebook/react', '/decisions'))).json(),
    );
    expect(list.decisions.map((decision) => decision.rationale)).toEqual([
      'Used everywhere',
      'Used everywhere (it is a library)',
    ]);
    expect(list.decisions[1]).toMatchObject({
      from_status: 'adopt',
      from_quadrant: 'tools',
      to_quadrant: 'libraries',
      links: ['https://react.dev'],
      proposal_id: null,
    });
  });

  it('survive a delete to the trash and its undo', async () => {
    expect((await call(ada, 'DELETE', repoPath('facebook/react'))).statusCode).toBe(200);
    expect((await call(ada, 'POST', repoPath('facebook/react', '/restore'))).statusCode).toBe(200);
    const list = decisionListSchema.parse(
      (await call(bob, 'GET', repoPath('facebook/react', '/decisions'))).json(),
    );
    expect(list.decisions).toHaveLength(2);
  });

  it('are decision_changed events in Activity', async () => {
    const page = activityPageSchema.parse(
      (await call(bob, 'GET', '/activity?type=decision_changed&repository=facebook/react')).json(),
    );
    expect(page.events.map((event) => event.type === 'decision_changed' && event.data.to_quadrant)).toEqual([
      'libraries',
      'tools',
    ]);
  });
});

describe('visibility', () => {
  it('a private repository’s decisions are 404 to a member who can’t see it', async () => {
    const path = repoPath(PRIVATE_REPOSITORY, '/decision');
    expect(
      (await call(ada, 'PUT', path, { status: 'assess', quadrant: 'tools', review_by: today() })).statusCode,
    ).toBe(200);
    for (const [method, url, body] of [
      ['GET', repoPath(PRIVATE_REPOSITORY, '/decisions'), undefined],
      ['PUT', path, { status: 'trial', quadrant: 'tools' }],
      ['POST', repoPath(PRIVATE_REPOSITORY, '/proposals'), { status: 'trial', quadrant: 'tools' }],
    ] as const) {
      const answer = await call(bob, method, url, body);
      expect(answer.statusCode, `${method} ${url}`).toBe(404);
      expect(answer.json().message).toBe('Repository not found in database');
    }
    const due = async (who: Member) =>
      reviewsDueSchema.parse((await call(who, 'GET', '/decisions/reviews-due')).json());
    expect((await due(ada)).reviews_due.map((review) => review.full_name)).toContain(PRIVATE_REPOSITORY);
    expect((await due(bob)).reviews_due.map((review) => review.full_name)).not.toContain(PRIVATE_REPOSITORY);
  });
});

describe('quadrants', () => {
  it('are read by members and named by admins only, exactly four, keys in use kept', async () => {
    const read = quadrantsSchema.parse((await call(bob, 'GET', '/radar/quadrants')).json());
    expect(read.quadrants.map((quadrant) => quadrant.key)).toEqual([
      'languages',
      'libraries',
      'tools',
      'platforms',
    ]);
    expect(read.decisions_by).toBe('members');
    const renamed = read.quadrants.map((quadrant) => ({ ...quadrant, name: `${quadrant.name}!` }));
    expect((await call(bob, 'PUT', '/radar/quadrants', { quadrants: renamed })).statusCode).toBe(403);
    const three = await call(admin, 'PUT', '/radar/quadrants', { quadrants: renamed.slice(0, 3) });
    expect(three.statusCode).toBe(400);
    expect(three.json().fields.quadrants).toMatch(/exactly 4/);
    const inUse = await call(admin, 'PUT', '/radar/quadrants', {
      quadrants: [...renamed.slice(0, 3), { key: 'infra', name: 'Infrastructure' }],
    });
    expect(inUse.statusCode).toBe(200);
    const toolsGone = await call(admin, 'PUT', '/radar/quadrants', {
      quadrants: [...renamed.slice(0, 2), ...renamed.slice(3), { key: 'infra', name: 'Infrastructure' }],
    });
    expect(toolsGone.statusCode).toBe(400);
    expect(toolsGone.json().fields.quadrants).toMatch(/"tools" is still used/);
    const back = await call(admin, 'PUT', '/radar/quadrants', { quadrants: renamed });
    expect(quadrantsSchema.parse(back.json()).quadrants[0]?.name).toBe('Languages & Frameworks!');
  });
});

describe('reviews', () => {
  it('a decision due today is listed and announced once; a later one on its day', async () => {
    const path = repoPath('vuejs/core', '/decision');
    const later = await call(bob, 'PUT', path, {
      status: 'trial',
      quadrant: 'libraries',
      review_by: dayAfter(1),
    });
    expect(later.statusCode).toBe(200);
    const { decisions } = t.app.services;
    const reviewEvents = async () =>
      t.app.db
        .selectFrom('repository_events')
        .select(['type', 'data'])
        .where('type', '=', 'review_due')
        .execute();

    expect((await decisions.announceDueReviews()).announced).toBe(1); // the private one, due today
    const again = await Promise.all([decisions.announceDueReviews(), decisions.announceDueReviews()]);
    expect(again.map((outcome) => outcome.announced)).toEqual([0, 0]);
    const [announced] = await reviewEvents();
    expect(announced).toBeDefined();
    // A rule that selects every type (event_types null) receives it; one of other types does not.
    if (announced) {
      const event = { type: announced.type, data: JSON.parse(announced.data) };
      expect(ruleMatches({ event_types: null, tags: null }, event, undefined)).toBe(true);
      expect(ruleMatches({ event_types: '["archived"]', tags: null }, event, undefined)).toBe(false);
    }
    expect(await reviewEvents()).toHaveLength(1);
    expect(await decisions.hasUnannouncedReviews()).toBe(false);

    clock.advance(86_400);
    try {
      const due = await decisions.reviewsDue({ id: bob.id, is_admin: false });
      expect(due.reviews_due).toEqual([
        {
          repository_id: 'vuejs/core',
          full_name: 'vuejs/core',
          review_by: later.json().decision.review_by,
          decision_id: later.json().decision.id,
        },
      ]);
      expect(await decisions.hasUnannouncedReviews()).toBe(true);
      expect((await decisions.announceDueReviews()).announced).toBe(1);
      expect((await decisions.announceDueReviews()).announced).toBe(0);
      const events = await reviewEvents();
      expect(events).toHaveLength(2);
      expect(JSON.parse(events[1]?.data ?? '{}')).toMatchObject({
        decision_id: later.json().decision.id,
        status: 'trial',
      });
    } finally {
      clock.advance(-86_400);
    }
  });
});

describe('parallel decisions', () => {
  it('are written one after another: each record’s from is the one before’s to', async () => {
    const statuses = ['assess', 'trial', 'hold', 'adopt'] as const;
    const answers = await Promise.all(
      statuses.map((status) =>
        call(ada, 'PUT', repoPath('facebook/react', '/decision'), {
          status,
          quadrant: 'tools',
          rationale: status,
        }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200]);
    const { decisions } = decisionListSchema.parse(
      (await call(ada, 'GET', repoPath('facebook/react', '/decisions'))).json(),
    );
    for (let index = 1; index < decisions.length; index += 1)
      expect(decisions[index]?.from_status).toBe(decisions[index - 1]?.to_status);
    expect(decisions).toHaveLength(6);
  });
});
