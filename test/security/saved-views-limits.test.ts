import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAVED_VIEWS_PER_MEMBER_MAX } from '#shared/constants.ts';
import {
  SAVED_VIEW_QUERY_MAX,
  SAVED_VIEWS_FULL_MESSAGE,
  savedViewResponseSchema,
  savedViewsResponseSchema,
} from '#shared/schemas/views.ts';
import { signedInUser } from '../helpers/auth-factory.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Issue 22, saved views:
 *
 * - item 6: nothing capped a member's saved views: 200 shared views of 2 KB each made every
 *   member's `GET /views` 436 KB. Now SAVED_VIEWS_PER_MEMBER_MAX each (private and shared
 *   together), refused past it with a message saying what to do, also when the saves come in
 *   parallel.
 * - item 7: an admin's `PATCH /views/{id} { shared: false }` on another member's shared view made
 *   the change but answered 404 (the view was no longer theirs to see). Now the change is
 *   answered as made.
 */
let t: TestApp;
type Caller = Awaited<ReturnType<typeof signedInUser>>;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

function create(caller: Caller, name: string, options: { shared?: boolean; query?: string } = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/views',
    headers: caller.headers,
    payload: { name, query: options.query ?? 'sort=stars', shared: options.shared ?? false },
  });
}

async function list(caller: Caller) {
  const answer = await t.app.inject({ method: 'GET', url: '/views', headers: caller.headers });
  expect(answer.statusCode).toBe(200);
  return { bytes: answer.body.length, views: savedViewsResponseSchema.parse(answer.json()).views };
}

/** A query as long as a view may hold (the report's 2 KB views). */
function longQuery(index: number): string {
  const q = `q=${String(index).padStart(4, '0')}`;
  return `${q}&tags=${'t'.repeat(SAVED_VIEW_QUERY_MAX - q.length - 6)}`.slice(0, SAVED_VIEW_QUERY_MAX);
}

describe('saved views per member', () => {
  it(`keeps at most ${SAVED_VIEWS_PER_MEMBER_MAX}, shared or not, and says so past it`, async () => {
    const flooder = await signedInUser(t.app);
    const other = await signedInUser(t.app);
    const statuses: number[] = [];
    for (let index = 0; index < 200; index += 1) {
      const response = await create(flooder, `Shared ${index}`, {
        shared: index % 2 === 0,
        query: `tags=${'x'.repeat(8)}${index}`,
      });
      statuses.push(response.statusCode);
      if (statuses.length > SAVED_VIEWS_PER_MEMBER_MAX + 5) break;
    }
    expect(statuses.slice(0, SAVED_VIEWS_PER_MEMBER_MAX).every((status) => status === 201)).toBe(true);
    expect(statuses.slice(SAVED_VIEWS_PER_MEMBER_MAX).every((status) => status === 400)).toBe(true);

    const refused = await create(flooder, 'One more');
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'bad_request', message: SAVED_VIEWS_FULL_MESSAGE });
    expect(SAVED_VIEWS_FULL_MESSAGE).toBe(
      `You have ${SAVED_VIEWS_PER_MEMBER_MAX} saved views, the most one member can keep. Delete one to save another.`,
    );
    expect((await list(flooder)).views).toHaveLength(SAVED_VIEWS_PER_MEMBER_MAX);

    // Another member is not held by it, and deleting one makes room again.
    expect((await create(other, 'Mine')).statusCode).toBe(201);
    const first = (await list(flooder)).views.find((view) => view.name === 'Shared 0');
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/views/${first?.id}`,
      headers: flooder.headers,
    });
    expect(removed.statusCode).toBe(200);
    expect((await create(flooder, 'Room again')).statusCode).toBe(201);
    expect((await create(flooder, 'And no more')).statusCode).toBe(400);
  });

  it('bounds what one member adds to everyone’s GET /views', async () => {
    const flooder = await signedInUser(t.app);
    const reader = await signedInUser(t.app);
    const before = (await list(reader)).bytes;
    let saved = 0;
    for (let index = 0; index < 200; index += 1) {
      const response = await create(flooder, `Big ${index}`, { shared: true, query: longQuery(index) });
      if (response.statusCode !== 201) break;
      saved += 1;
    }
    expect(saved).toBe(SAVED_VIEWS_PER_MEMBER_MAX);
    const added = (await list(reader)).bytes - before;
    // At most the cap's worth of full-size views: 200 of them were 436 KB.
    expect(added).toBeLessThan(SAVED_VIEWS_PER_MEMBER_MAX * (SAVED_VIEW_QUERY_MAX + 400));
  });

  it('holds the cap when the saves arrive together', async () => {
    const racer = await signedInUser(t.app);
    const head = SAVED_VIEWS_PER_MEMBER_MAX - 5;
    for (let index = 0; index < head; index += 1) {
      expect((await create(racer, `Before ${index}`)).statusCode).toBe(201);
    }
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, index) => create(racer, `Parallel ${index}`)),
    );
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(5);
    expect(statuses.filter((status) => status === 400)).toHaveLength(7);
    expect((await list(racer)).views.filter((view) => view.owner.id === racer.id)).toHaveLength(
      SAVED_VIEWS_PER_MEMBER_MAX,
    );
  });
});

describe('an admin changing another member’s shared view', () => {
  it('answers the change as made when it takes the view out of the admin’s sight', async () => {
    const admin = await signedInUser(t.app, { is_admin: true });
    const owner = await signedInUser(t.app);
    const created = await create(owner, 'Team picks', { shared: true });
    expect(created.statusCode).toBe(201);
    const view = savedViewResponseSchema.parse(created.json()).view;

    const unshared = await t.app.inject({
      method: 'PATCH',
      url: `/views/${view.id}`,
      headers: admin.headers,
      payload: { shared: false },
    });
    expect(unshared.statusCode, unshared.body).toBe(200);
    expect(savedViewResponseSchema.parse(unshared.json()).view).toMatchObject({
      id: view.id,
      name: 'Team picks',
      shared: false,
      owner: { id: owner.id },
      // Private now: the admin may no longer change it.
      can_edit: false,
    });
    // The change was made: the owner sees it private, the admin no longer sees it.
    expect((await list(owner)).views.find((entry) => entry.id === view.id)?.shared).toBe(false);
    expect((await list(admin)).views.some((entry) => entry.id === view.id)).toBe(false);
    // And the admin's next change to it is a 404, as for any private view of another member.
    const again = await t.app.inject({
      method: 'PATCH',
      url: `/views/${view.id}`,
      headers: admin.headers,
      payload: { shared: true },
    });
    expect(again.statusCode).toBe(404);
  });
});
