import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminUsersResponseSchema } from '#shared/schemas/admin.ts';
import { logoutResponseSchema } from '#shared/schemas/auth.ts';
import {
  adminSignInSchema,
  authProvidersSchema,
  linkedIdentitiesSchema,
  oidcSignInResponseSchema,
} from '#shared/schemas/oidc.ts';
import { createUser, login, nextAddress } from '../../../test/helpers/auth-factory.ts';
import { createFakeClock } from '../../../test/helpers/fake-clock.ts';
import {
  signInAtProvider,
  startTestProvider,
  type TestProvider,
} from '../../../test/helpers/oidc-provider.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { ADMIN_MESSAGES } from '../admin/admin.service.ts';
import { MESSAGES } from '../auth/auth.service.ts';
import { LINK_CODE_SECONDS, SESSION_CODE_SECONDS, STATE_SECONDS } from './oidc.service.ts';
import { fitUsername, OIDC_MESSAGES } from './oidc-accounts.ts';

const APP_URL = 'http://tracker.test';
const clock = createFakeClock();
const logLines: string[] = [];
/** Every code, state, token and secret the flows saw: none may be in a log line. */
const secrets = new Set<string>();
let provider: TestProvider;
let t: TestApp;
let admin: { id: number; email: string; password: string };

beforeAll(async () => {
  provider = await startTestProvider(APP_URL);
  secrets.add(provider.clientSecret);
  t = await createTestApp(
    { ...provider.env, OIDC_ADMIN_GROUPS: 'tracker-admins, ops', LOG_LEVEL: 'trace' },
    { clock, logStream: { write: (line) => void logLines.push(line) } },
  );
  // An admin with a password first: no sign-in here is the instance's first account.
  admin = await createUser(t.app, { is_admin: true });
});

afterAll(async () => {
  await t?.close();
  await provider?.close();
});

/** The query of the app URL a callback redirected to (`/#/login?…`). */
function appParams(location: string): URLSearchParams {
  const { hash } = new URL(location);
  expect(hash.startsWith('#/login?'), location).toBe(true);
  return new URLSearchParams(hash.slice('#/login?'.length));
}

async function start(app: FastifyInstance, query = '') {
  const response = await app.inject({
    method: 'GET',
    url: `/auth/oidc/start${query}`,
    remoteAddress: nextAddress(),
  });
  expect(response.statusCode, response.body).toBe(302);
  const cookie = String(response.headers['set-cookie'] ?? '');
  const browser = /rt_oidc=([^;]*)/.exec(cookie)?.[1] ?? '';
  const location = String(response.headers.location);
  if (browser) secrets.add(browser);
  return { location, browser, cookie, response };
}

async function callback(app: FastifyInstance, url: string, browser: string | undefined) {
  const parsed = new URL(url);
  for (const key of ['code', 'state']) {
    const value = parsed.searchParams.get(key);
    if (value && value.length >= 20) secrets.add(value);
  }
  const response = await app.inject({
    method: 'GET',
    url: `${parsed.pathname}${parsed.search}`,
    headers: browser === undefined ? {} : { cookie: `other=1; rt_oidc=${browser}` },
    remoteAddress: nextAddress(),
  });
  expect(response.statusCode, response.body).toBe(302);
  const params = appParams(String(response.headers.location));
  for (const key of ['oidc_code', 'oidc_link']) {
    const value = params.get(key);
    if (value) secrets.add(value);
  }
  return { params, response, url };
}

/** The whole round trip: start → the provider's forms over HTTP → callback; the app URL's query. */
async function signIn(
  app: FastifyInstance,
  loginName: string,
  options: { deny?: boolean; query?: string } = {},
) {
  const started = await start(app, options.query);
  const callbackUrl = await signInAtProvider(started.location, loginName, {
    appUrl: APP_URL,
    deny: options.deny,
  });
  return callback(app, callbackUrl, started.browser);
}

async function exchange(app: FastifyInstance, code: string) {
  const response = await app.inject({
    method: 'POST',
    url: '/auth/oidc/exchange',
    payload: { code },
    remoteAddress: nextAddress(),
  });
  if (response.statusCode === 200) {
    const body = oidcSignInResponseSchema.parse(response.json());
    secrets.add(body.access_token);
    secrets.add(body.refresh_token);
  }
  return response;
}

async function signedIn(app: FastifyInstance, loginName: string, query?: string) {
  const { params } = await signIn(app, loginName, { query });
  const code = params.get('oidc_code');
  expect(code, params.toString()).toBeTruthy();
  const response = await exchange(app, code ?? '');
  expect(response.statusCode, response.body).toBe(200);
  return oidcSignInResponseSchema.parse(response.json());
}

async function events(app: FastifyInstance) {
  const session = await login(app, { email_or_username: admin.email, password: admin.password });
  const response = await app.inject({
    method: 'GET',
    url: '/auth/admin/sign-in',
    headers: { authorization: `Bearer ${session.access_token}` },
  });
  expect(response.statusCode, response.body).toBe(200);
  return adminSignInSchema.parse(response.json());
}

describe('providers and start', () => {
  it('lists the sign-in methods', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/auth/providers' });
    expect(authProvidersSchema.parse(response.json())).toEqual({
      password: true,
      registration: true,
      oidc: { enabled: true, button_text: 'Sign in with SSO', auto_redirect: false },
    });
  });

  it('redirects to the provider with PKCE S256, state and nonce, and binds the browser', async () => {
    const { location, cookie } = await start(t.app, '?return_to=%2Frepositories%3Ftag%3Dx');
    const url = new URL(location);
    expect(`${url.origin}`).toBe(provider.issuer);
    expect(url.searchParams.get('client_id')).toBe(provider.clientId);
    expect(url.searchParams.get('redirect_uri')).toBe(`${APP_URL}/auth/oidc/callback`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('nonce')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('scope')).toBe('openid email profile groups');
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\/auth\/oidc/);
    // Only hashes and sealed values are stored.
    const row = await t.app.db
      .selectFrom('oidc_sign_in_states')
      .selectAll()
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(url.searchParams.get('state'));
    expect(JSON.stringify(row)).not.toContain(url.searchParams.get('nonce'));
  });

  it('refuses a return_to that is not an in-app path', async () => {
    for (const bad of ['https://evil.example/', '//evil.example/x', 'relative', '/\\evil']) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/auth/oidc/start?return_to=${encodeURIComponent(bad)}`,
        remoteAddress: nextAddress(),
      });
      expect(response.statusCode, bad).toBe(400);
      expect(response.json().message).toMatch(/return_to/);
    }
  });
});

describe('first sign-in', () => {
  it('creates an account with a fitted username, signs in with ordinary tokens, lists the identity', async () => {
    provider.accounts.set('alice', {
      email: 'Alice.Smith@Example.com',
      email_verified: true,
      preferred_username: 'alice.smith!',
      given_name: 'Alice',
      family_name: 'Smith',
    });
    const body = await signedIn(t.app, 'alice', '?return_to=%2Frepositories&remember_me=true');
    expect(body.user).toMatchObject({
      username: 'alice_smith',
      email: 'alice.smith@example.com',
      first_name: 'Alice',
      last_name: 'Smith',
      is_verified: true,
      is_admin: false,
    });
    expect(body.return_to).toBe('/repositories');
    const headers = { authorization: `Bearer ${body.access_token}` };
    const me = await t.app.inject({ method: 'GET', url: '/auth/me', headers });
    expect(me.statusCode).toBe(200);
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/auth/refresh',
      payload: { refresh_token: body.refresh_token },
      remoteAddress: nextAddress(),
    });
    expect(refreshed.statusCode).toBe(200);
    secrets.add(refreshed.json().access_token);
    secrets.add(refreshed.json().refresh_token);
    const identities = await t.app.inject({ method: 'GET', url: '/auth/me/identities', headers });
    expect(linkedIdentitiesSchema.parse(identities.json())).toMatchObject({
      has_password: false,
      identities: [{ issuer: provider.issuer, email: 'alice.smith@example.com' }],
    });
    // Its unknown password never signs in.
    const password = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email_or_username: 'alice_smith', password: 'Passw0rd!' },
      remoteAddress: nextAddress(),
    });
    expect(password.statusCode).toBe(401);
  });

  it('appends a number to a taken username, pads a short one, uses the e-mail without preferred_username', async () => {
    provider.accounts.set('alice2', {
      email: 'alice2@example.com',
      email_verified: true,
      preferred_username: 'Alice_Smith',
    });
    expect((await signedIn(t.app, 'alice2')).user.username).toBe('Alice_Smith2');
    provider.accounts.set('al', { email: 'al@example.com', email_verified: true, preferred_username: 'al' });
    expect((await signedIn(t.app, 'al')).user.username).toBe('al_');
    provider.accounts.set('mail', { email: 'jean-luc.picard@example.com', email_verified: true });
    expect((await signedIn(t.app, 'mail')).user.username).toBe('jean-luc_picard');
    expect(fitUsername('a-very-long-name-from-the-provider')).toBe('a-very-long-name-fro');
    expect(fitUsername('Zoë Ünal')).toBe('Zoe_Unal');
    expect(fitUsername('???')).toBe('user');
  });

  it('refuses an e-mail the provider has not verified, and a missing e-mail', async () => {
    provider.accounts.set('unverified', { email: 'unverified@example.com', email_verified: false });
    expect((await signIn(t.app, 'unverified')).params.get('oidc_error')).toBe('email_unverified');
    provider.accounts.set('nomail', { preferred_username: 'nomail' });
    expect((await signIn(t.app, 'nomail')).params.get('oidc_error')).toBe('email_missing');
    const users = await t.app.db.selectFrom('users').select('email').execute();
    expect(users.map((user) => user.email)).not.toContain('unverified@example.com');
    const summary = await events(t.app);
    expect(summary.events.map((event) => event.reason)).toEqual(
      expect.arrayContaining(['email_unverified', 'email_missing']),
    );
  });
});

describe('an existing password account with the same e-mail', () => {
  it('is never taken over: its password links it once, a wrong one is refused', async () => {
    const bob = await createUser(t.app, { email: 'bob@example.com', username: 'bob_password' });
    provider.accounts.set('bob', { email: 'BOB@example.com', email_verified: true });
    const { params } = await signIn(t.app, 'bob');
    expect(params.get('oidc_code')).toBeNull();
    const linkCode = params.get('oidc_link') ?? '';
    expect(linkCode).not.toBe('');
    // A link code is no sign-in code.
    expect((await exchange(t.app, linkCode)).statusCode).toBe(400);
    const link = (password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/auth/oidc/link',
        payload: { code: linkCode, password },
        remoteAddress: nextAddress(),
      });
    const details = await t.app.inject({
      method: 'POST',
      url: '/auth/oidc/link/details',
      payload: { code: linkCode },
      remoteAddress: nextAddress(),
    });
    expect(details.statusCode).toBe(200);
    expect(details.json()).toMatchObject({ email: 'bob@example.com' });
    const wrong = await link('Wrong-passw0rd');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe(OIDC_MESSAGES.linkPasswordWrong);
    expect(
      await t.app.db.selectFrom('user_identities').selectAll().where('user_id', '=', bob.id).execute(),
    ).toEqual([]);
    const linked = await link(bob.password);
    expect(linked.statusCode, linked.body).toBe(200);
    const body = oidcSignInResponseSchema.parse(linked.json());
    secrets.add(body.access_token);
    secrets.add(body.refresh_token);
    expect(body.user).toMatchObject({ id: bob.id, username: 'bob_password' });
    // Spent: the same code links nothing twice, and tells nothing more.
    expect((await link(bob.password)).statusCode).toBe(400);
    const spent = await t.app.inject({
      method: 'POST',
      url: '/auth/oidc/link/details',
      payload: { code: linkCode },
      remoteAddress: nextAddress(),
    });
    expect(spent.statusCode).toBe(400);
    // From now on the provider signs bob in directly, and the password still works.
    expect((await signedIn(t.app, 'bob')).user.id).toBe(bob.id);
    await login(t.app, { email_or_username: 'bob@example.com', password: bob.password });
  });
});

describe('admin groups (OIDC_ADMIN_GROUPS)', () => {
  it('makes a member of a listed group admin, and a member again when the group goes', async () => {
    provider.accounts.set('carol', {
      email: 'carol@example.com',
      email_verified: true,
      groups: ['staff', 'ops'],
    });
    const first = await signedIn(t.app, 'carol');
    expect(first.user.is_admin).toBe(true);
    // Read-only in the admin screen: it follows the provider.
    const session = await login(t.app, { email_or_username: admin.email, password: admin.password });
    const headers = { authorization: `Bearer ${session.access_token}` };
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `/auth/admin/users/${first.user.id}`,
      headers,
      payload: { is_admin: false },
    });
    expect(patch.statusCode).toBe(409);
    expect(patch.json().message).toBe(ADMIN_MESSAGES.adminFollowsGroups);
    const list = adminUsersResponseSchema.parse(
      (await t.app.inject({ method: 'GET', url: '/auth/admin/users?per_page=100', headers })).json(),
    );
    const carol = list.users.find((user) => user.id === first.user.id);
    expect(carol).toMatchObject({ sign_in_methods: ['sso'], admin_follows_groups: true });
    expect(list.users.find((user) => user.id === admin.id)).toMatchObject({
      sign_in_methods: ['password'],
      admin_follows_groups: false,
    });

    provider.accounts.set('carol', { ...provider.accounts.get('carol'), groups: ['staff'] });
    const second = await signedIn(t.app, 'carol');
    expect(second.user.is_admin).toBe(false);
    // The demotion ended the earlier session, as the admin screen's does.
    const old = await t.app.inject({
      method: 'GET',
      url: '/auth/me',
      headers: { authorization: `Bearer ${first.access_token}` },
    });
    expect(old.statusCode).toBe(401);
  });

  it('keeps the last active admin an admin, and says so in the sign-in section', async () => {
    provider.accounts.set('dave', { email: 'dave@example.com', email_verified: true, groups: ['ops'] });
    const dave = await signedIn(t.app, 'dave');
    expect(dave.user.is_admin).toBe(true);
    // Every other admin goes (carol is a member again; the password admin and alice2 aside).
    const others = await t.app.db
      .updateTable('users')
      .set({ is_admin: 0 })
      .where('id', '!=', dave.user.id)
      .where('is_admin', '=', 1)
      .returning('id')
      .execute();
    provider.accounts.set('dave', { email: 'dave@example.com', email_verified: true, groups: [] });
    expect((await signedIn(t.app, 'dave')).user.is_admin).toBe(true);
    const kept = await t.app.db
      .selectFrom('sign_in_events')
      .selectAll()
      .where('reason', '=', 'last_admin_kept')
      .where('user_id', '=', dave.user.id)
      .execute();
    expect(kept).toHaveLength(1);
    await t.app.db
      .updateTable('users')
      .set({ is_admin: 1 })
      .where('id', 'in', [...others.map((row) => row.id), admin.id])
      .execute();
    expect((await signedIn(t.app, 'dave')).user.is_admin).toBe(false);
  });
});

describe('several instances on one database', () => {
  it('finishes on one instance a sign-in another started; the code is exchanged on the first', async () => {
    const second = await buildApp(t.config, {
      // The first instance's database; closed with it, not with this one.
      database: { db: t.app.db, dialect: t.app.dbDialect, close: async () => undefined },
      clock,
      logStream: { write: (line) => void logLines.push(line) },
    });
    try {
      await second.ready();
      provider.accounts.set('jane', { email: 'jane@example.com', email_verified: true });
      const started = await start(t.app);
      const url = await signInAtProvider(started.location, 'jane', { appUrl: APP_URL });
      const code = (await callback(second, url, started.browser)).params.get('oidc_code') ?? '';
      expect(code).not.toBe('');
      const response = await exchange(t.app, code);
      expect(response.statusCode, response.body).toBe(200);
      expect(oidcSignInResponseSchema.parse(response.json()).user.email).toBe('jane@example.com');
    } finally {
      await second.close();
    }
  });
});

describe('refusals', () => {
  it('refuses a callback without the browser binding, from another browser, twice, or expired', async () => {
    provider.accounts.set('erin', { email: 'erin@example.com', email_verified: true });
    const first = await start(t.app);
    const url = await signInAtProvider(first.location, 'erin', { appUrl: APP_URL });
    const other = await start(t.app);
    expect((await callback(t.app, url, other.browser)).params.get('oidc_error')).toBe('state_mismatch');
    // The state was spent by that refused try: the right browser is refused too now.
    expect((await callback(t.app, url, first.browser)).params.get('oidc_error')).toBe('state_mismatch');

    const second = await start(t.app);
    const url2 = await signInAtProvider(second.location, 'erin', { appUrl: APP_URL });
    expect((await callback(t.app, url2, undefined)).params.get('oidc_error')).toBe('state_mismatch');

    const third = await start(t.app);
    const url3 = await signInAtProvider(third.location, 'erin', { appUrl: APP_URL });
    const good = await callback(t.app, url3, third.browser);
    expect(good.params.get('oidc_code')).toBeTruthy();
    // The same answer replayed: its state is spent.
    expect((await callback(t.app, url3, third.browser)).params.get('oidc_error')).toBe('state_mismatch');

    const late = await start(t.app);
    const url4 = await signInAtProvider(late.location, 'erin', { appUrl: APP_URL });
    clock.advance(STATE_SECONDS + 1);
    try {
      expect((await callback(t.app, url4, late.browser)).params.get('oidc_error')).toBe('state_mismatch');
    } finally {
      clock.reset();
    }
    const noState = await callback(t.app, `${APP_URL}/auth/oidc/callback?code=abc`, 'x');
    expect(noState.params.get('oidc_error')).toBe('state_mismatch');
  });

  it('refuses a replayed or expired one-time code', async () => {
    const { params } = await signIn(t.app, 'erin');
    const code = params.get('oidc_code') ?? '';
    const row = await t.app.db
      .selectFrom('oidc_exchange_codes')
      .selectAll()
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(code);
    expect((await exchange(t.app, code)).statusCode).toBe(200);
    const replay = await exchange(t.app, code);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().message).toBe(OIDC_MESSAGES.codeInvalid);

    const late = (await signIn(t.app, 'erin')).params.get('oidc_code') ?? '';
    clock.advance(SESSION_CODE_SECONDS + 1);
    try {
      expect((await exchange(t.app, late)).statusCode).toBe(400);
    } finally {
      clock.reset();
    }
    expect((await exchange(t.app, 'not-a-code')).statusCode).toBe(400);
  });

  it('counts password attempts per link code, whichever address they come from', async () => {
    const kim = await createUser(t.app, { email: 'kim@example.com' });
    provider.accounts.set('kim', { email: 'kim@example.com', email_verified: true });
    const code = (await signIn(t.app, 'kim')).params.get('oidc_link') ?? '';
    const link = (password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/auth/oidc/link',
        payload: { code, password },
        remoteAddress: nextAddress(),
      });
    for (let attempt = 0; attempt < 5; attempt += 1)
      expect((await link(`Wrong-${attempt}`)).statusCode).toBe(401);
    const limited = await link(kim.password);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('rate_limited');
  });

  it('refuses an expired link code, even with the right password', async () => {
    const ivy = await createUser(t.app, { email: 'ivy@example.com' });
    provider.accounts.set('ivy', { email: 'ivy@example.com', email_verified: true });
    const code = (await signIn(t.app, 'ivy')).params.get('oidc_link') ?? '';
    expect(code).not.toBe('');
    clock.advance(LINK_CODE_SECONDS + 1);
    try {
      const late = await t.app.inject({
        method: 'POST',
        url: '/auth/oidc/link',
        payload: { code, password: ivy.password },
        remoteAddress: nextAddress(),
      });
      expect(late.statusCode).toBe(400);
      expect(late.json().message).toBe(OIDC_MESSAGES.codeInvalid);
    } finally {
      clock.reset();
    }
    const identities = await t.app.db
      .selectFrom('user_identities')
      .selectAll()
      .where('user_id', '=', ivy.id)
      .execute();
    expect(identities).toEqual([]);
  });

  it('says so when the person declines consent at the provider', async () => {
    provider.accounts.set('frank', { email: 'frank@example.com', email_verified: true });
    const { params } = await signIn(t.app, 'frank', { deny: true });
    expect(params.get('oidc_error')).toBe('access_denied');
    const summary = await events(t.app);
    expect(summary.events[0]).toMatchObject({ reason: 'access_denied' });
  });

  it('refuses a deactivated account', async () => {
    const row = await t.app.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'erin@example.com')
      .executeTakeFirstOrThrow();
    await t.app.db.updateTable('users').set({ is_active: 0 }).where('id', '=', row.id).execute();
    expect((await signIn(t.app, 'erin')).params.get('oidc_error')).toBe('account_inactive');
  });
});

describe('sign-out', () => {
  it('answers the provider’s end-session URL for a single sign-on session, once', async () => {
    provider.accounts.set('gina', { email: 'gina@example.com', email_verified: true });
    const session = await signedIn(t.app, 'gina');
    const logout = () =>
      t.app.inject({
        method: 'POST',
        url: '/auth/logout',
        payload: { refresh_token: session.refresh_token },
      });
    const first = logoutResponseSchema.parse((await logout()).json());
    expect(first.message).toBe(MESSAGES.loggedOut);
    const url = new URL(first.end_session_url ?? '');
    expect(url.origin).toBe(provider.issuer);
    expect(url.searchParams.get('post_logout_redirect_uri')).toBe(`${APP_URL}/`);
    expect(url.searchParams.get('id_token_hint')).toMatch(/^eyJ/);
    // The provider accepts it: its sign-out page, not an error.
    const page = await fetch(url, { redirect: 'manual' });
    expect(page.status).toBe(200);
    expect(await page.text()).not.toMatch(/error/i);
    expect(logoutResponseSchema.parse((await logout()).json()).end_session_url).toBeUndefined();
    // A password session has none.
    const password = await login(t.app, { email_or_username: admin.email, password: admin.password });
    const plain = await t.app.inject({
      method: 'POST',
      url: '/auth/logout',
      payload: { refresh_token: password.refresh_token },
    });
    expect(plain.json()).toEqual({ message: MESSAGES.loggedOut });
  });
});

describe('the admin sign-in section', () => {
  it('shows the discovery result and recent failures; admins only', async () => {
    const summary = await events(t.app);
    expect(summary.password_login).toBe(true);
    expect(summary.oidc).toMatchObject({
      enabled: true,
      issuer: provider.issuer,
      admin_groups: ['tracker-admins', 'ops'],
      discovery: {
        status: 'ok',
        error: null,
        authorization_endpoint: `${provider.issuer}/auth`,
        end_session_endpoint: `${provider.issuer}/session/end`,
      },
    });
    expect(summary.events.length).toBeGreaterThan(0);
    const member = await createUser(t.app);
    const session = await login(t.app, { email_or_username: member.email, password: member.password });
    const refused = await t.app.inject({
      method: 'GET',
      url: '/auth/admin/sign-in',
      headers: { authorization: `Bearer ${session.access_token}` },
    });
    expect(refused.statusCode).toBe(403);
  });
});

describe('OIDC_CREATE_ACCOUNTS=off and PASSWORD_LOGIN=off', () => {
  let strict: TestApp;
  beforeAll(async () => {
    strict = await createTestApp({
      ...provider.env,
      OIDC_CREATE_ACCOUNTS: 'off',
      PASSWORD_LOGIN: 'off',
      OIDC_AUTO_REDIRECT: 'on',
    });
  });
  afterAll(async () => {
    await strict?.close();
  });

  it('signs in only linked accounts', async () => {
    provider.accounts.set('henry', { email: 'henry@example.com', email_verified: true });
    expect((await signIn(strict.app, 'henry')).params.get('oidc_error')).toBe('account_not_found');
    const henry = await createUser(strict.app, { email: 'henry-old@example.com' });
    await strict.app.db
      .insertInto('user_identities')
      .values({
        user_id: henry.id,
        issuer: provider.issuer,
        subject: 'henry',
        email: null,
        created_at: new Date().toISOString(),
        last_sign_in_at: null,
      })
      .execute();
    expect((await signedIn(strict.app, 'henry')).user.id).toBe(henry.id);
  });

  it('refuses password sign-in, registration and reset with a clear 403', async () => {
    const providers = authProvidersSchema.parse(
      (await strict.app.inject({ method: 'GET', url: '/auth/providers' })).json(),
    );
    expect(providers).toEqual({
      password: false,
      registration: false,
      oidc: { enabled: true, button_text: 'Sign in with SSO', auto_redirect: true },
    });
    const user = await createUser(strict.app);
    const calls: [string, object][] = [
      ['/auth/login', { email_or_username: user.email, password: user.password }],
      [
        '/auth/register',
        {
          email: 'new@example.com',
          username: 'newbie',
          first_name: 'New',
          last_name: 'Person',
          password: 'Passw0rd!x',
        },
      ],
      ['/auth/forgot-password', { email: user.email }],
      ['/auth/reset-password', { token: 'x'.repeat(43), new_password: 'Passw0rd!x' }],
      ['/auth/verify-reset-token', { token: 'x'.repeat(43) }],
    ];
    for (const [url, payload] of calls) {
      const response = await strict.app.inject({
        method: 'POST',
        url,
        payload,
        remoteAddress: nextAddress(),
      });
      expect(response.statusCode, url).toBe(403);
      expect(response.json().message, url).toBe(MESSAGES.passwordLoginOff);
    }
  });
});

describe('a provider that is down', () => {
  it('fails quickly with a clear error, shows it to admins, and is discovered again later', async () => {
    let respond: (req: IncomingMessage, res: ServerResponse) => void = () => undefined; // hangs
    const server = createServer((req, res) => respond(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const down = await createTestApp({
      ...provider.env,
      OIDC_ISSUER_URL: issuer,
      OIDC_TIMEOUT_MS: '300',
    });
    try {
      const started = Date.now();
      const response = await down.app.inject({
        method: 'GET',
        url: '/auth/oidc/start',
        remoteAddress: nextAddress(),
      });
      expect(Date.now() - started).toBeLessThan(2000);
      expect(response.statusCode).toBe(302);
      expect(appParams(String(response.headers.location)).get('oidc_error')).toBe('provider_unavailable');
      const rows = await down.app.db.selectFrom('sign_in_events').selectAll().execute();
      expect(rows.map((row) => row.reason)).toEqual(['provider_unavailable']);
      expect(rows[0]?.detail).toContain(issuer);

      // Up again: the next sign-in discovers it.
      respond = (_req, res) => {
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            issuer,
            authorization_endpoint: `${issuer}/authorize`,
            token_endpoint: `${issuer}/token`,
            jwks_uri: `${issuer}/jwks`,
            response_types_supported: ['code'],
          }),
        );
      };
      const again = await start(down.app);
      expect(again.location.startsWith(`${issuer}/authorize?`)).toBe(true);
    } finally {
      await down.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('without single sign-on', () => {
  it('offers passwords only; the OIDC calls answer 404', async () => {
    const plain = await createTestApp();
    try {
      expect((await plain.app.inject({ method: 'GET', url: '/auth/providers' })).json()).toEqual({
        password: true,
        registration: true,
        oidc: { enabled: false, button_text: 'Sign in with SSO', auto_redirect: false },
      });
      expect((await plain.app.inject({ method: 'GET', url: '/auth/oidc/start' })).statusCode).toBe(404);
      expect((await plain.app.inject({ method: 'GET', url: '/auth/oidc/callback?state=x' })).statusCode).toBe(
        404,
      );
      const exchanged = await plain.app.inject({
        method: 'POST',
        url: '/auth/oidc/exchange',
        payload: { code: 'x' },
      });
      expect(exchanged.statusCode).toBe(404);
      expect(exchanged.json().message).toBe(OIDC_MESSAGES.notConfigured);
    } finally {
      await plain.close();
    }
  });

  it('refuses a configuration that would not work', () => {
    const refused = (env: Record<string, string>) => {
      try {
        loadConfig(env);
        return '';
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(refused({ OIDC_ISSUER_URL: 'http://idp.example.com', OIDC_CLIENT_ID: 'a' })).toMatch(
      /OIDC_ISSUER_URL must be an https URL: http is accepted only on loopback/,
    );
    expect(refused({ OIDC_CLIENT_ID: 'a' })).toMatch(/OIDC_ISSUER_URL is required with OIDC_CLIENT_ID/);
    expect(refused({ OIDC_ISSUER_URL: 'https://idp.example.com' })).toMatch(/OIDC_CLIENT_ID is required/);
    expect(refused({ PASSWORD_LOGIN: 'off' })).toMatch(/PASSWORD_LOGIN can be off only with single sign-on/);
    expect(refused({ OIDC_AUTO_REDIRECT: 'on' })).toMatch(/OIDC_AUTO_REDIRECT needs single sign-on/);
    expect(
      refused({ OIDC_ISSUER_URL: 'https://idp.example.com', OIDC_CLIENT_ID: 'a', OIDC_SCOPES: 'email' }),
    ).toMatch(/OIDC_SCOPES must include openid/);
    const config = loadConfig({
      OIDC_ISSUER_URL: 'https://idp.example.com/realms/x',
      OIDC_CLIENT_ID: 'tracker',
    });
    expect(config.oidc).toMatchObject({
      allowInsecure: false,
      adminGroups: null,
      createAccounts: true,
      scopes: 'openid email profile',
    });
    expect(
      loadConfig({ OIDC_ISSUER_URL: 'http://localhost:9000', OIDC_CLIENT_ID: 'a' }).oidc?.allowInsecure,
    ).toBe(true);
  });
});

describe('logs', () => {
  it('never carry a code, state, token or secret of these flows', () => {
    expect(secrets.size).toBeGreaterThan(20);
    expect(logLines.length).toBeGreaterThan(20);
    const log = logLines.join('\n');
    for (const secret of secrets)
      expect(log.includes(secret), `a secret in the log: ${secret.slice(0, 6)}…`).toBe(false);
    // The failures themselves are logged, by reason.
    expect(log).toContain('email_unverified');
  });
});
