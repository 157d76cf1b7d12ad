import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_TOKEN_REQUESTS_MAX, API_TOKENS_PER_MEMBER_MAX } from '#shared/constants.ts';
import { apiTokenCreatedSchema, apiTokenListSchema } from '#shared/schemas/api-tokens.ts';
import { nextAddress, signedInUser } from '../../../test/helpers/auth-factory.ts';
import { createFakeClock } from '../../../test/helpers/fake-clock.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { API_TOKEN_REFUSALS } from '../../plugins/access.ts';
import { API_TOKEN_ERRORS } from './api-tokens.service.ts';

const clock = createFakeClock(new Date('2026-11-29T10:00:00.000Z'));
let t: TestApp;
let admin: Awaited<ReturnType<typeof signedInUser>>;

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  admin = await signedInUser(t.app, { is_admin: true });
});

afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE' | 'HEAD';
const call = (
  method: Method,
  url: string,
  bearer?: string,
  payload?: object,
  remoteAddress = nextAddress(),
) =>
  t.app.inject({
    method,
    url,
    payload,
    remoteAddress,
    headers: bearer ? { authorization: `Bearer ${bearer}` } : {},
  });

async function createToken(
  session: string,
  body: { name?: string; scope: string; expires_in_days: number | null },
) {
  const response = await call('POST', '/auth/me/tokens', session, { name: 'script', ...body });
  expect(response.statusCode, response.body).toBe(201);
  return apiTokenCreatedSchema.parse(response.json());
}

describe('creating, listing and revoking', () => {
  it('answers the token once, stores only its hash, and lists it without the token', async () => {
    const member = await signedInUser(t.app);
    const created = await createToken(member.session.access_token, {
      name: ' CI ',
      scope: 'read',
      expires_in_days: 30,
    });
    expect(created.token).toMatch(/^rt_[A-Za-z0-9_-]{43}$/);
    expect(created.api_token).toMatchObject({
      name: 'CI',
      scope: 'read',
      prefix: created.token.slice(0, 11),
      created_at: '2026-11-29T10:00:00.000Z',
      expires_at: '2026-12-29T10:00:00.000Z',
      last_used_at: null,
    });
    const row = await t.app.db
      .selectFrom('api_tokens')
      .selectAll()
      .where('id', '=', created.api_token.id)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(created.token);
    const listed = await call('GET', '/auth/me/tokens', member.session.access_token);
    expect(apiTokenListSchema.parse(listed.json()).tokens).toEqual([created.api_token]);
    expect(listed.body).not.toContain(created.token);
    expect(listed.body).not.toContain('token_hash');
  });

  it('validates the name, scope and expiry; admin scope is for admins only', async () => {
    const member = await signedInUser(t.app);
    const session = member.session.access_token;
    for (const body of [
      { name: '', scope: 'read', expires_in_days: 30 },
      { name: 'x'.repeat(61), scope: 'read', expires_in_days: 30 },
      { name: 'x', scope: 'everything', expires_in_days: 30 },
      { name: 'x', scope: 'read', expires_in_days: 31 },
    ]) {
      expect((await call('POST', '/auth/me/tokens', session, body)).statusCode).toBe(400);
    }
    const refused = await call('POST', '/auth/me/tokens', session, {
      name: 'x',
      scope: 'admin',
      expires_in_days: null,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(API_TOKEN_ERRORS.adminOnly);
    const adminToken = await createToken(admin.session.access_token, {
      scope: 'admin',
      expires_in_days: null,
    });
    expect(adminToken.api_token.expires_at).toBeNull();
  });

  it(`keeps at most ${API_TOKENS_PER_MEMBER_MAX} tokens per member`, async () => {
    const member = await signedInUser(t.app);
    for (let index = 0; index < API_TOKENS_PER_MEMBER_MAX; index += 1) {
      await createToken(member.session.access_token, { scope: 'read', expires_in_days: 30 });
    }
    const over = await call('POST', '/auth/me/tokens', member.session.access_token, {
      name: 'one more',
      scope: 'read',
      expires_in_days: 30,
    });
    expect(over.statusCode).toBe(409);
    expect(over.json().message).toBe(API_TOKEN_ERRORS.tooMany);
  });

  it('revokes one (only the owner’s) or all; a revoked token gets 401', async () => {
    const member = await signedInUser(t.app);
    const other = await signedInUser(t.app);
    const session = member.session.access_token;
    const first = await createToken(session, { scope: 'write', expires_in_days: 90 });
    const second = await createToken(session, { scope: 'read', expires_in_days: 365 });
    expect((await call('GET', '/auth/me', first.token)).statusCode).toBe(200);
    const foreign = await call('DELETE', `/auth/me/tokens/${first.api_token.id}`, other.session.access_token);
    expect(foreign.statusCode).toBe(404);
    // Past PostgreSQL's integer range: refused by the schema, never a database error (500).
    expect((await call('DELETE', '/auth/me/tokens/2147483648', session)).statusCode).toBe(400);
    const revoked = await call('DELETE', `/auth/me/tokens/${first.api_token.id}`, session);
    expect(revoked.json()).toEqual({ revoked: 1 });
    const refused = await call('GET', '/auth/me', first.token);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().message).toBe(API_TOKEN_ERRORS.invalid);
    expect((await call('GET', '/auth/me', second.token)).statusCode).toBe(200);
    expect((await call('DELETE', '/auth/me/tokens', session)).json()).toEqual({ revoked: 1 });
    expect((await call('GET', '/auth/me', second.token)).statusCode).toBe(401);
    expect((await call('GET', '/auth/me/tokens', session)).json()).toEqual({ tokens: [] });
  });
});

describe('using a token', () => {
  it('read: GET and HEAD only; write: what a member does; neither opens admin routes', async () => {
    const member = await signedInUser(t.app);
    const read = await createToken(member.session.access_token, { scope: 'read', expires_in_days: 30 });
    const write = await createToken(member.session.access_token, { scope: 'write', expires_in_days: 30 });
    expect((await call('GET', '/repositories/', read.token)).statusCode).toBe(200);
    expect((await call('HEAD', '/repositories/', read.token)).statusCode).toBe(200);
    const post = await call('POST', '/views', read.token, { name: 'v', visibility: 'private', query: {} });
    expect(post.statusCode).toBe(403);
    expect(post.json().message).toBe(API_TOKEN_REFUSALS.readOnly);
    const patched = await call('PATCH', '/auth/me', write.token, {
      first_name: 'Grace',
      last_name: 'Hopper',
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const adminWrite = await createToken(admin.session.access_token, { scope: 'write', expires_in_days: 30 });
    for (const token of [read.token, write.token, adminWrite.token]) {
      expect((await call('GET', '/auth/admin/users', token)).statusCode).toBe(403);
    }
  });

  it('never on account-security or secret-setting routes', async () => {
    const created = await createToken(admin.session.access_token, { scope: 'admin', expires_in_days: 30 });
    for (const [method, url] of [
      ['POST', '/auth/change-password'],
      ['POST', '/auth/logout-all'],
      ['GET', '/auth/me/tokens'],
      ['POST', '/auth/me/tokens'],
      ['DELETE', '/auth/me/tokens'],
      ['PUT', '/auth/me/github-token'],
      ['GET', '/auth/me/slack-webhook'],
      ['POST', '/auth/me/feed-token'],
      ['GET', '/auth/me/notifications/channels'],
    ] as const) {
      const response = await call(method, url, created.token, {});
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json().message).toBe(API_TOKEN_REFUSALS.sessionOnly);
    }
  });

  it('expires: refused with the same 401 once its day has come', async () => {
    const member = await signedInUser(t.app);
    const created = await createToken(member.session.access_token, { scope: 'read', expires_in_days: 30 });
    clock.advance(30 * 86_400 - 1);
    expect((await call('GET', '/auth/me', created.token)).statusCode).toBe(200);
    clock.advance(1);
    const expired = await call('GET', '/auth/me', created.token);
    expect(expired.statusCode).toBe(401);
    expect(expired.json().message).toBe(API_TOKEN_ERRORS.invalid);
    expect((await call('GET', '/auth/me', 'rt_notatokenatall')).statusCode).toBe(401);
  });

  it('records the last use at most once a minute, with the address', async () => {
    const member = await signedInUser(t.app);
    const created = await createToken(member.session.access_token, { scope: 'read', expires_in_days: null });
    const lastUse = async () =>
      t.app.db
        .selectFrom('api_tokens')
        .select(['last_used_at', 'last_used_ip'])
        .where('id', '=', created.api_token.id)
        .executeTakeFirstOrThrow();
    await call('GET', '/auth/me', created.token, undefined, '10.9.9.1');
    const first = await lastUse();
    expect(first.last_used_ip).toBe('10.9.9.1');
    clock.advance(30);
    await call('GET', '/auth/me', created.token, undefined, '10.9.9.2');
    expect(await lastUse()).toEqual(first);
    clock.advance(31);
    await call('GET', '/auth/me', created.token, undefined, '10.9.9.3');
    expect(await lastUse()).toEqual({ last_used_at: clock.now().toISOString(), last_used_ip: '10.9.9.3' });
  });

  it('has its own rate limit, whichever address it comes from', async () => {
    const member = await signedInUser(t.app);
    const created = await createToken(member.session.access_token, { scope: 'read', expires_in_days: null });
    const other = await createToken(member.session.access_token, { scope: 'read', expires_in_days: null });
    await Promise.all(
      Array.from({ length: API_TOKEN_REQUESTS_MAX }, () => call('GET', '/auth/me', created.token)),
    );
    const limited = await call('GET', '/auth/me', created.token);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect((await call('GET', '/auth/me', other.token)).statusCode).toBe(200);
    expect((await call('GET', '/auth/me', member.session.access_token)).statusCode).toBe(200);
  });
});

describe('the owner’s account decides', () => {
  it('deactivation revokes every token; demotion ends the admin scope at once', async () => {
    // A session of now: the fake clock moved on since the suite's admin signed in.
    const boss = await signedInUser(t.app, { is_admin: true });
    const other = await signedInUser(t.app, { is_admin: true });
    const adminToken = await createToken(other.session.access_token, { scope: 'admin', expires_in_days: 30 });
    expect((await call('GET', '/auth/admin/users', adminToken.token)).statusCode).toBe(200);
    // Demoted behind the service's back: the flag is read on every request, not at creation.
    await t.app.db.updateTable('users').set({ is_admin: 0 }).where('id', '=', other.id).execute();
    expect((await call('GET', '/auth/admin/users', adminToken.token)).statusCode).toBe(403);
    expect((await call('GET', '/auth/me', adminToken.token)).statusCode).toBe(200);
    await t.app.db.updateTable('users').set({ is_admin: 1 }).where('id', '=', other.id).execute();
    // Demoted by an admin: the stored scope becomes write too.
    const demoted = await call('PATCH', `/auth/admin/users/${other.id}`, boss.session.access_token, {
      is_admin: false,
    });
    expect(demoted.statusCode, demoted.body).toBe(200);
    const scope = await t.app.db
      .selectFrom('api_tokens')
      .select('scope')
      .where('id', '=', adminToken.api_token.id)
      .executeTakeFirstOrThrow();
    expect(scope.scope).toBe('write');
    expect((await call('GET', '/auth/admin/users', adminToken.token)).statusCode).toBe(403);

    const member = await signedInUser(t.app);
    const token = await createToken(member.session.access_token, { scope: 'write', expires_in_days: 30 });
    const deactivated = await call('PATCH', `/auth/admin/users/${member.id}`, boss.session.access_token, {
      is_active: false,
    });
    expect(deactivated.statusCode, deactivated.body).toBe(200);
    expect((await call('GET', '/auth/me', token.token)).statusCode).toBe(401);
    const left = await t.app.db
      .selectFrom('api_tokens')
      .select('id')
      .where('user_id', '=', member.id)
      .execute();
    expect(left).toEqual([]);
  });

  it('sign out everywhere leaves API tokens alone and says so', async () => {
    const member = await signedInUser(t.app);
    const token = await createToken(member.session.access_token, { scope: 'read', expires_in_days: 30 });
    const out = await call('POST', '/auth/logout-all', member.session.access_token);
    expect(out.json().message).toContain('API tokens');
    expect((await call('GET', '/auth/me', member.session.access_token)).statusCode).toBe(401);
    expect((await call('GET', '/auth/me', token.token)).statusCode).toBe(200);
  });

  it('the OpenAPI description declares the token scheme on the routes that take it', async () => {
    const doc = (await call('GET', '/docs/json')).json();
    expect(doc.components.securitySchemes.apiToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/repositories/'].get.security).toContainEqual({ apiToken: [] });
    expect(doc.paths['/auth/me/tokens'].get.security).not.toContainEqual({ apiToken: [] });
    expect(doc.paths['/auth/change-password'].post.security).not.toContainEqual({ apiToken: [] });
  });

  it('a route under /auth/me that does not say whether tokens may call it stops the boot', async () => {
    await expect(
      createTestApp(
        {},
        {
          extend: (app) =>
            app.get('/auth/me/new-secret', { config: { access: 'user' } }, async () => ({ ok: true })),
        },
      ),
    ).rejects.toThrow(/must declare config.apiTokens/);
  });
});
