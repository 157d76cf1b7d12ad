import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ONE_FLAG_MESSAGE } from '#shared/schemas/admin.ts';
import { createUser, login, nextAddress, signedInUser } from '../../../test/helpers/auth-factory.ts';
import { insertRepository } from '../../../test/helpers/backup-seed.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { testDialect } from '../../../test/helpers/test-database.ts';
import { ADMIN_MESSAGES } from './admin.service.ts';

let t: TestApp;
let admin: Awaited<ReturnType<typeof signedInUser>>;
let member: Awaited<ReturnType<typeof signedInUser>>;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInUser(t.app, { is_admin: true });
  member = await signedInUser(t.app);
});

afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'PATCH' | 'POST' | 'DELETE';
const call = (method: Method, url: string, headers: object = {}, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: headers as Record<string, string>,
    payload,
    remoteAddress: nextAddress(),
  });

const adminCalls: [Method, string][] = [
  ['GET', '/auth/admin/users'],
  ['GET', '/auth/admin/users/1'],
  ['PATCH', '/auth/admin/users/1'],
  ['GET', '/auth/admin/stats'],
  ['GET', '/auth/admin/sync'],
];

describe('access', () => {
  it.each(adminCalls)('%s %s → 401 for an anonymous caller', async (method, url) => {
    const response = await call(method, url, {}, method === 'PATCH' ? { is_active: true } : undefined);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({
      message: 'Authentication required. Please log in.',
      code: 'unauthorized',
    });
  });

  it.each(adminCalls)('%s %s → 403 for a member', async (method, url) => {
    const response = await call(
      method,
      url,
      member.headers,
      method === 'PATCH' ? { is_active: true } : undefined,
    );
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      message: 'Access denied. Admin privileges required.',
      code: 'forbidden',
    });
  });

  it('every admin route is declared admin-only', () => {
    const declared = t.app.routeAccess.filter((route) => route.url.startsWith('/auth/admin'));
    expect(declared.length).toBeGreaterThanOrEqual(4);
    for (const route of declared) expect(route.access, `${route.method} ${route.url}`).toBe('admin');
  });
});

describe('GET /auth/admin/users', () => {
  let pack: string;
  beforeAll(async () => {
    // Twelve users sharing a marker, three of them inactive, one with an underscore twist.
    pack = `pk${Date.now().toString(36).slice(-5)}`;
    for (let index = 0; index < 12; index += 1) {
      await createUser(t.app, {
        username: `${pack}_${String(index).padStart(2, '0')}`,
        email: `${pack}.${index}@example.com`,
        is_active: index % 4 !== 0,
      });
    }
  });

  it('answers { users, total, page, per_page } with repository_count, defaults page 1 and 20 per page', async () => {
    const response = await call('GET', '/auth/admin/users', admin.headers);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ page: 1, per_page: 20 });
    expect(body.total).toBeGreaterThanOrEqual(14);
    expect(body.users.length).toBe(Math.min(20, body.total));
    const first = body.users[0];
    expect(Object.keys(first).sort()).toEqual(
      [
        'id',
        'username',
        'email',
        'first_name',
        'last_name',
        'is_active',
        'is_verified',
        'is_admin',
        'created_at',
        'updated_at',
        'last_login_at',
        'has_personal_github_token',
        'github_token_last_four',
        'github_token_set_at',
        'github_default_quota_remaining',
        'has_slack_webhook',
        'slack_webhook_set_at',
        'repository_count',
        'sign_in_methods',
        'admin_follows_groups',
      ].sort(),
    );
    expect(response.body).not.toContain('password_hash');
    expect(response.body).not.toContain('token_version');
    expect(response.body).not.toContain('password_set');
    expect(response.body).not.toContain('identity_count');
    expect(first).toMatchObject({ sign_in_methods: ['password'], admin_follows_groups: false });
    // Ordered by id.
    const ids = body.users.map((user: { id: number }) => user.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => a - b));
  });

  it('pages through a search', async () => {
    const page1 = (await call('GET', `/auth/admin/users?search=${pack}&per_page=5`, admin.headers)).json();
    const page3 = (
      await call('GET', `/auth/admin/users?search=${pack}&per_page=5&page=3`, admin.headers)
    ).json();
    const page4 = (
      await call('GET', `/auth/admin/users?search=${pack}&per_page=5&page=4`, admin.headers)
    ).json();
    expect(page1).toMatchObject({ total: 12, page: 1, per_page: 5 });
    expect(page1.users).toHaveLength(5);
    expect(page3.users).toHaveLength(2);
    expect(page4.users).toHaveLength(0);
    expect(page4.total).toBe(12);
    expect(page1.users[0].username).toBe(`${pack}_00`);
    expect(page3.users[1].username).toBe(`${pack}_11`);
  });

  it('searches username, e-mail and names case-insensitively; % and _ match only themselves', async () => {
    const byUsername = (
      await call('GET', `/auth/admin/users?search=${pack.toUpperCase()}_07`, admin.headers)
    ).json();
    expect(byUsername.users.map((user: { username: string }) => user.username)).toEqual([`${pack}_07`]);
    const byEmail = (await call('GET', `/auth/admin/users?search=${pack}.3@EXAMPLE`, admin.headers)).json();
    expect(byEmail.users.map((user: { username: string }) => user.username)).toEqual([`${pack}_03`]);
    const named = await createUser(t.app, { first_name: 'Zebediah', last_name: 'Quillfeather' });
    const byFirst = (await call('GET', '/auth/admin/users?search=zebed', admin.headers)).json();
    const byLast = (await call('GET', '/auth/admin/users?search=QUILLF', admin.headers)).json();
    expect(byFirst.users.map((user: { id: number }) => user.id)).toEqual([named.id]);
    expect(byLast.users.map((user: { id: number }) => user.id)).toEqual([named.id]);
    // `_` is a LIKE wildcard unless escaped: "pk…x0" must not match "pk…_0…".
    const wildcard = (await call('GET', `/auth/admin/users?search=${pack}x0`, admin.headers)).json();
    expect(wildcard.total).toBe(0);
    const percent = (await call('GET', '/auth/admin/users?search=%25', admin.headers)).json();
    expect(percent.total).toBe(0);
  });

  it('filters on is_active', async () => {
    const active = (
      await call('GET', `/auth/admin/users?search=${pack}&is_active=true`, admin.headers)
    ).json();
    const inactive = (
      await call('GET', `/auth/admin/users?search=${pack}&is_active=false`, admin.headers)
    ).json();
    expect(active.total).toBe(9);
    expect(inactive.total).toBe(3);
    expect(inactive.users.every((user: { is_active: boolean }) => !user.is_active)).toBe(true);
    expect(active.users.every((user: { is_active: boolean }) => user.is_active)).toBe(true);
  });

  it.each([
    ['per_page=101', 'per_page must be a whole number from 1 to 100'],
    ['per_page=0', 'per_page must be a whole number from 1 to 100'],
    ['page=0', 'page must be a whole number of at least 1'],
    ['page=abc', 'page must be a whole number of at least 1'],
    ['is_active=maybe', 'is_active must be true or false'],
  ])('refuses %s with a clear message', async (query, message) => {
    const response = await call('GET', `/auth/admin/users?${query}`, admin.headers);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'validation_failed', message });
  });

  it('accepts per_page=100', async () => {
    const response = await call('GET', '/auth/admin/users?per_page=100', admin.headers);
    expect(response.statusCode).toBe(200);
    expect(response.json().per_page).toBe(100);
  });
});

describe('GET /auth/admin/users/{id}', () => {
  it('answers { user } with the repository count', async () => {
    const owner = await createUser(t.app);
    await insertRepository(t.app, { user_id: owner.id });
    await insertRepository(t.app, { user_id: owner.id, private: 1 });
    const response = await call('GET', `/auth/admin/users/${owner.id}`, admin.headers);
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toMatchObject({
      id: owner.id,
      username: owner.username,
      repository_count: 2,
    });
  });

  it('404 for an unknown id, 400 for a malformed one', async () => {
    expect((await call('GET', '/auth/admin/users/999999', admin.headers)).statusCode).toBe(404);
    expect((await call('GET', '/auth/admin/users/999999', admin.headers)).json()).toEqual({
      message: 'User not found',
      code: 'not_found',
    });
    expect((await call('GET', '/auth/admin/users/abc', admin.headers)).statusCode).toBe(400);
    expect((await call('GET', '/auth/admin/users/-1', admin.headers)).statusCode).toBe(400);
  });
});

describe('PATCH /auth/admin/users/{id}', () => {
  it.each(['is_active', 'is_verified', 'is_admin'] as const)('toggles %s off and on again', async (flag) => {
    const target = await createUser(t.app);
    const off = await call('PATCH', `/auth/admin/users/${target.id}`, admin.headers, { [flag]: false });
    expect(off.statusCode).toBe(200);
    if (flag === 'is_admin') {
      // Was not an admin: no change, still answers the user.
      expect(off.json().user.is_admin).toBe(false);
      const on = await call('PATCH', `/auth/admin/users/${target.id}`, admin.headers, { is_admin: true });
      expect(on.json().user).toMatchObject({ id: target.id, is_admin: true, repository_count: 0 });
      const back = await call('PATCH', `/auth/admin/users/${target.id}`, admin.headers, { is_admin: false });
      expect(back.json().user.is_admin).toBe(false);
      return;
    }
    expect(off.json().user).toMatchObject({ id: target.id, [flag]: false });
    const on = await call('PATCH', `/auth/admin/users/${target.id}`, admin.headers, { [flag]: true });
    expect(on.statusCode).toBe(200);
    expect(on.json().user).toMatchObject({ id: target.id, [flag]: true });
    const stored = await t.app.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', target.id)
      .executeTakeFirstOrThrow();
    expect(stored[flag]).toBe(1);
  });

  it.each([
    [{}, ONE_FLAG_MESSAGE],
    [{ is_active: true, is_admin: true }, ONE_FLAG_MESSAGE],
    [{ username: 'x' }, ONE_FLAG_MESSAGE],
    [{ is_active: true, email: 'x@example.com' }, ONE_FLAG_MESSAGE],
    [{ is_active: 'yes' }, 'is_active must be true or false'],
  ])('refuses the body %j', async (payload, message) => {
    const target = await createUser(t.app);
    const response = await call('PATCH', `/auth/admin/users/${target.id}`, admin.headers, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'validation_failed', message });
  });

  it('404 for an unknown user', async () => {
    const response = await call('PATCH', '/auth/admin/users/999999', admin.headers, { is_verified: true });
    expect(response.statusCode).toBe(404);
  });

  it('refuses self-demotion and self-deactivation with 409', async () => {
    const self = await signedInUser(t.app, { is_admin: true });
    const demote = await call('PATCH', `/auth/admin/users/${self.id}`, self.headers, { is_admin: false });
    expect(demote.statusCode).toBe(409);
    expect(demote.json()).toEqual({ message: ADMIN_MESSAGES.selfDemotion, code: 'conflict' });
    const deactivate = await call('PATCH', `/auth/admin/users/${self.id}`, self.headers, {
      is_active: false,
    });
    expect(deactivate.statusCode).toBe(409);
    expect(deactivate.json()).toEqual({ message: ADMIN_MESSAGES.selfDeactivation, code: 'conflict' });
    // Other flags of one's own account are fine.
    const verify = await call('PATCH', `/auth/admin/users/${self.id}`, self.headers, { is_verified: true });
    expect(verify.statusCode).toBe(200);
  });

  it('writes one audit row per change: actor, target, field, old → new, UTC time', async () => {
    const target = await createUser(t.app);
    const before = new Date().toISOString();
    await call('PATCH', `/auth/admin/users/${target.id}`, admin.headers, { is_verified: false });
    await call('PATCH', `/auth/admin/users/${target.id}`, admin.headers, { is_verified: false });
    await call('PATCH', `/auth/admin/users/${target.id}`, admin.headers, { is_admin: true });
    const rows = await t.app.db
      .selectFrom('audit_log')
      .selectAll()
      .where('target', '=', `user:${target.id}`)
      .orderBy('id')
      .execute();
    // The repeated call changed nothing and logged nothing.
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ actor_id: admin.id, action: 'admin.user.update' });
    expect(JSON.parse(rows[0]?.detail ?? '{}')).toEqual({
      field: 'is_verified',
      old: true,
      new: false,
      username: target.username,
    });
    expect(JSON.parse(rows[1]?.detail ?? '{}')).toMatchObject({ field: 'is_admin', old: false, new: true });
    for (const row of rows) {
      expect(row.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(row.created_at >= before).toBe(true);
    }
  });

  it("deactivation ends the user's sessions at once: access token and refresh token", async () => {
    const victim = await signedInUser(t.app);
    expect((await call('GET', '/auth/me', victim.headers)).statusCode).toBe(200);
    const response = await call('PATCH', `/auth/admin/users/${victim.id}`, admin.headers, {
      is_active: false,
    });
    expect(response.statusCode).toBe(200);
    expect((await call('GET', '/auth/me', victim.headers)).statusCode).toBe(401);
    const refresh = await call('POST', '/auth/refresh', {}, { refresh_token: victim.session.refresh_token });
    expect(refresh.statusCode).toBe(401);
    // Reactivated, they sign in again normally.
    await call('PATCH', `/auth/admin/users/${victim.id}`, admin.headers, { is_active: true });
    const again = await login(t.app, { email_or_username: victim.email, password: victim.password });
    expect(again.user.is_active).toBe(true);
  });

  it('marking a user unverified ends their sessions at once: access token and refresh token', async () => {
    const victim = await signedInUser(t.app);
    expect((await call('GET', '/auth/me', victim.headers)).statusCode).toBe(200);
    const response = await call('PATCH', `/auth/admin/users/${victim.id}`, admin.headers, {
      is_verified: false,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().user.is_verified).toBe(false);
    expect((await call('GET', '/auth/me', victim.headers)).statusCode).toBe(401);
    const refresh = await call('POST', '/auth/refresh', {}, { refresh_token: victim.session.refresh_token });
    expect(refresh.statusCode).toBe(401);
    // Verified again, they sign in again normally.
    await call('PATCH', `/auth/admin/users/${victim.id}`, admin.headers, { is_verified: true });
    const again = await login(t.app, { email_or_username: victim.email, password: victim.password });
    expect(again.user.is_verified).toBe(true);
  });

  it("demotion takes effect at once: the former admin's admin calls and session end", async () => {
    const other = await signedInUser(t.app, { is_admin: true });
    expect((await call('GET', '/auth/admin/stats', other.headers)).statusCode).toBe(200);
    const response = await call('PATCH', `/auth/admin/users/${other.id}`, admin.headers, { is_admin: false });
    expect(response.json().user.is_admin).toBe(false);
    expect((await call('GET', '/auth/admin/stats', other.headers)).statusCode).toBe(401);
    const fresh = await login(t.app, { email_or_username: other.email, password: other.password });
    const stats = await call('GET', '/auth/admin/stats', { authorization: `Bearer ${fresh.access_token}` });
    expect(stats.statusCode).toBe(403);
  });
});

describe('the last active admin', () => {
  // Its own instance, so exactly the admins created here exist.
  let own: TestApp;
  beforeAll(async () => {
    own = await createTestApp();
  });
  afterAll(async () => {
    await own?.close();
  });

  const activeAdmins = async () =>
    (
      await own.app.db
        .selectFrom('users')
        .select('id')
        .where('is_admin', '=', 1)
        .where('is_active', '=', 1)
        .execute()
    ).map((row) => row.id);

  const serviceFor = (app: TestApp['app']) => app.services.admin;

  it('two admins demoting each other in parallel over HTTP: exactly one wins, one admin remains', async () => {
    const a = await signedInUser(own.app, { is_admin: true });
    const b = await signedInUser(own.app, { is_admin: true });
    const responses = await Promise.all([
      own.app.inject({
        method: 'PATCH',
        url: `/auth/admin/users/${b.id}`,
        headers: a.headers,
        payload: { is_admin: false },
      }),
      own.app.inject({
        method: 'PATCH',
        url: `/auth/admin/users/${a.id}`,
        headers: b.headers,
        payload: { is_admin: false },
      }),
    ]);
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    // The loser either lost its session first (401) or hit the rule (409).
    expect([401, 403, 409]).toContain(statuses[1]);
    const loser = responses.find((response) => response.statusCode !== 200);
    if (loser?.statusCode === 409) expect(loser.json().message).toBe(ADMIN_MESSAGES.lastAdmin);
    expect(await activeAdmins()).toHaveLength(1);
    // Tidy: the winner promotes the other back.
    const winner = responses[0]?.statusCode === 200 ? a : b;
    const loserUser = winner === a ? b : a;
    await own.app.inject({
      method: 'PATCH',
      url: `/auth/admin/users/${loserUser.id}`,
      headers: winner.headers,
      payload: { is_admin: true },
    });
    await own.app.db.updateTable('users').set({ is_admin: 0 }).where('id', 'in', [a.id, b.id]).execute();
  });

  it.each([
    ['demoting', { is_admin: false }],
    ['deactivating', { is_active: false }],
  ] as const)(
    'two admins %s each other at the same moment, ten times: always 409 for one, one admin left',
    async (_, body) => {
      const service = serviceFor(own.app);
      for (let round = 0; round < 10; round += 1) {
        await own.app.db.updateTable('users').set({ is_admin: 0 }).execute();
        const a = await createUser(own.app, { is_admin: true });
        const b = await createUser(own.app, { is_admin: true });
        const results = await Promise.allSettled([
          service.updateUserFlag(a.id, b.id, body),
          service.updateUserFlag(b.id, a.id, body),
        ]);
        expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
        const rejected = results.find((result) => result.status === 'rejected');
        expect(rejected?.status === 'rejected' && (rejected.reason as Error).message).toBe(
          ADMIN_MESSAGES.lastAdmin,
        );
        expect(await activeAdmins()).toHaveLength(1);
      }
    },
  );

  it('an admin who lost admin rights mid-request cannot change anyone', async () => {
    const service = serviceFor(own.app);
    await own.app.db.updateTable('users').set({ is_admin: 0 }).execute();
    const a = await createUser(own.app, { is_admin: true });
    const former = await createUser(own.app, { is_admin: false });
    const target = await createUser(own.app);
    await expect(service.updateUserFlag(former.id, target.id, { is_verified: false })).rejects.toMatchObject({
      statusCode: 403,
    });
    await expect(service.updateUserFlag(a.id, target.id, { is_verified: false })).resolves.toMatchObject({
      is_verified: false,
    });
  });

  it('an inactive admin does not count as the one that remains', async () => {
    const service = serviceFor(own.app);
    await own.app.db.updateTable('users').set({ is_admin: 0 }).execute();
    const a = await createUser(own.app, { is_admin: true });
    const dormant = await createUser(own.app, { is_admin: true, is_active: false });
    const b = await createUser(own.app, { is_admin: true });
    // b demotes a: fine (b remains). Then nobody but b is an active admin, and b can't be removed
    // by the only other admin, who is inactive and can't act: the guard itself refuses.
    await service.updateUserFlag(b.id, a.id, { is_admin: false });
    expect(await activeAdmins()).toEqual([b.id]);
    await expect(service.updateUserFlag(dormant.id, b.id, { is_admin: false })).rejects.toMatchObject({
      statusCode: 409,
      message: ADMIN_MESSAGES.lastAdmin,
    });
    expect(await activeAdmins()).toEqual([b.id]);
  });
});

describe('GET /auth/admin/stats', () => {
  let own: TestApp;
  beforeAll(async () => {
    own = await createTestApp();
  });
  afterAll(async () => {
    await own?.close();
  });

  it('answers zeros on an empty catalogue (only the admin asking)', async () => {
    const boss = await signedInUser(own.app, { is_admin: true });
    const response = await own.app.inject({ method: 'GET', url: '/auth/admin/stats', headers: boss.headers });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      users: { total: 1, active: 1, verified: 1, admin: 1, recent: 1 },
      repositories: { total: 0, users_with_repos: 0, avg_stars: 0, total_stars: 0 },
    });
  });

  it('counts users by state, the last 30 days, and repositories with averages to one decimal', async () => {
    const boss = await signedInUser(own.app, { is_admin: true });
    const old = new Date(Date.now() - 40 * 86_400_000).toISOString();
    const edge = new Date(Date.now() - 29 * 86_400_000).toISOString();
    const a = await createUser(own.app, { is_verified: false });
    const b = await createUser(own.app, { is_active: false });
    const c = await createUser(own.app);
    await own.app.db.updateTable('users').set({ created_at: old }).where('id', 'in', [a.id, b.id]).execute();
    await own.app.db.updateTable('users').set({ created_at: edge }).where('id', '=', c.id).execute();
    await insertRepository(own.app, { user_id: a.id, stars: 10 });
    await insertRepository(own.app, { user_id: a.id, stars: 0 });
    await insertRepository(own.app, { user_id: c.id, stars: 1, private: 1 });
    await insertRepository(own.app, { user_id: null, stars: 0 });
    const response = await own.app.inject({ method: 'GET', url: '/auth/admin/stats', headers: boss.headers });
    // Users: the first admin, boss, a, b, c. Repositories: 11 stars over 4 = 2.75 → 2.8.
    expect(response.json()).toEqual({
      users: { total: 5, active: 4, verified: 4, admin: 2, recent: 3 },
      repositories: { total: 4, users_with_repos: 2, avg_stars: 2.8, total_stars: 11 },
    });
  });
});

describe('OpenAPI', () => {
  it('describes the admin calls', async () => {
    const response = await call('GET', '/docs/json');
    const paths = Object.keys(response.json().paths);
    expect(paths).toEqual(
      expect.arrayContaining(['/auth/admin/users', '/auth/admin/users/{id}', '/auth/admin/stats']),
    );
  });
});

it(`runs on ${testDialect}`, () => {
  expect(['sqlite', 'postgres']).toContain(t.app.dbDialect);
});
