import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { savedViewResponseSchema, savedViewsResponseSchema } from '#shared/schemas/views.ts';
import { signedInUser } from '../../../test/helpers/auth-factory.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

let t: TestApp;
type Caller = Awaited<ReturnType<typeof signedInUser>>;
let ada: Caller;
let bob: Caller;
let admin: Caller;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInUser(t.app, { is_admin: true });
  ada = await signedInUser(t.app);
  bob = await signedInUser(t.app);
});
afterAll(() => t?.close());

async function create(caller: Caller, payload: object) {
  return t.app.inject({ method: 'POST', url: '/views', headers: caller.headers, payload });
}

async function names(caller: Caller): Promise<string[]> {
  const answer = await t.app.inject({ method: 'GET', url: '/views', headers: caller.headers });
  expect(answer.statusCode).toBe(200);
  return savedViewsResponseSchema.parse(answer.json()).views.map((view) => view.name);
}

describe('saved views', () => {
  it('saves the list query, normalised, private by default; lists own and shared views by name', async () => {
    const mine = await create(ada, {
      name: 'Web stars',
      query: '?tags=web&sort=stars&order=desc&q=&view=cards',
    });
    expect(mine.statusCode, mine.body).toBe(201);
    const view = savedViewResponseSchema.parse(mine.json()).view;
    expect(view).toMatchObject({
      name: 'Web stars',
      query: 'tags=web&sort=stars&order=desc&view=cards',
      shared: false,
      can_edit: true,
      owner: { id: ada.id },
    });
    const team = await create(bob, { name: 'archived', query: 'archived=true', shared: true });
    expect(team.statusCode, team.body).toBe(201);
    expect(await names(ada)).toEqual(['archived', 'Web stars']);
    // Ada's private view doesn't exist for Bob.
    expect(await names(bob)).toEqual(['archived']);
    const peek = await t.app.inject({
      method: 'PATCH',
      url: `/views/${view.id}`,
      headers: bob.headers,
      payload: { name: 'mine now' },
    });
    expect(peek.statusCode).toBe(404);
  });

  it('refuses what the list would refuse, with the reason', async () => {
    for (const [query, message] of [
      ['sort=popularity', 'Unknown sort column'],
      ['min_stars=-1', 'Minimum stars'],
      ['min_stars=10&max_stars=5', 'Minimum stars cannot be greater than maximum'],
      ['cursor=abc', 'Unknown list parameter: cursor'],
      ['view=grid', "view takes only 'cards'"],
    ] as const) {
      const answer = await create(ada, { name: `bad ${query}`, query });
      expect(answer.statusCode, query).toBe(400);
      expect(answer.json().fields.query, query).toContain(message);
    }
    const blank = await create(ada, { name: '   ', query: '' });
    expect(blank.json().fields.name).toBe('Name is required');
  });

  it('one name per member, in any case: 409', async () => {
    await create(ada, { name: 'Rust', query: 'language=Rust' });
    const again = await create(ada, { name: 'RUST', query: 'language=Rust' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('You already have a view named “RUST”.');
    // Another member may use the same name.
    expect((await create(bob, { name: 'Rust', query: 'language=Rust' })).statusCode).toBe(201);
  });

  it('a shared view is changed by its owner or an admin, not by other members', async () => {
    const created = await create(ada, { name: 'Team picks', query: 'tags=pick', shared: true });
    const id = created.json().view.id as number;
    const asBob = await t.app.inject({
      method: 'PATCH',
      url: `/views/${id}`,
      headers: bob.headers,
      payload: { name: 'Bob picks' },
    });
    expect(asBob.statusCode).toBe(403);
    const bobsList = await t.app.inject({ method: 'GET', url: '/views', headers: bob.headers });
    expect(bobsList.json().views.find((view: { id: number }) => view.id === id).can_edit).toBe(false);

    const asAdmin = await t.app.inject({
      method: 'PATCH',
      url: `/views/${id}`,
      headers: admin.headers,
      payload: { query: 'tags=pick&sort=name' },
    });
    expect(asAdmin.statusCode, asAdmin.body).toBe(200);
    expect(asAdmin.json().view.query).toBe('tags=pick&sort=name');

    // Unshared by its owner, it leaves the team's list; deleted, it is gone.
    await t.app.inject({
      method: 'PATCH',
      url: `/views/${id}`,
      headers: ada.headers,
      payload: { shared: false },
    });
    expect(await names(bob)).not.toContain('Team picks');
    const removed = await t.app.inject({ method: 'DELETE', url: `/views/${id}`, headers: ada.headers });
    expect(removed.statusCode).toBe(200);
    expect(await names(ada)).not.toContain('Team picks');
  });
});
