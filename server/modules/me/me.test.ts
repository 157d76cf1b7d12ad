import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changePasswordResponseSchema } from '#shared/schemas/auth.ts';
import { createUser, login, nextAddress, signedInUser } from '../../../test/helpers/auth-factory.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

let t: TestApp;

beforeAll(async () => {
  // Webhook checks resolve hooks.slack.com through a fixed public answer: no DNS in tests.
  t = await createTestApp(
    { WEBHOOK_ALLOWED_HOSTS: 'hooks.slack.com,127.0.0.1:9' },
    { resolve: async () => ['34.235.1.2'] },
  );
});

afterAll(async () => {
  await t?.close();
});

const call = (
  method: 'GET' | 'PUT' | 'PATCH' | 'DELETE' | 'POST',
  url: string,
  headers: object,
  payload?: object,
) =>
  t.app.inject({
    method,
    url,
    headers: headers as Record<string, string>,
    payload,
    remoteAddress: nextAddress(),
  });

describe('every account call needs a session', () => {
  it.each([
    ['GET', '/auth/me'],
    ['PATCH', '/auth/me'],
    ['POST', '/auth/change-password'],
    ['GET', '/auth/me/github-token'],
    ['PUT', '/auth/me/github-token'],
    ['DELETE', '/auth/me/github-token'],
    ['GET', '/auth/me/slack-webhook'],
    ['PUT', '/auth/me/slack-webhook'],
    ['DELETE', '/auth/me/slack-webhook'],
  ] as const)('%s %s → 401', async (method, url) => {
    const response = await call(method, url, {}, {});
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({
      message: 'Authentication required. Please log in.',
      code: 'unauthorized',
    });
  });
});

describe('profile', () => {
  it('GET and PATCH /auth/me; flags in the body are ignored', async () => {
    const user = await signedInUser(t.app);
    const me = await call('GET', '/auth/me', user.headers);
    expect(me.json().user).toMatchObject({ id: user.id, email: user.email, username: user.username });
    const patched = await call('PATCH', '/auth/me', user.headers, {
      first_name: '  Grace ',
      last_name: 'Hopper',
      is_admin: true,
      is_active: false,
      email: 'new@example.com',
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().user).toMatchObject({
      first_name: 'Grace',
      last_name: 'Hopper',
      is_admin: false,
      is_active: true,
      email: user.email,
    });
  });

  it('needs both names', async () => {
    const user = await signedInUser(t.app);
    const response = await call('PATCH', '/auth/me', user.headers, { first_name: 'Grace', last_name: ' ' });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('First name and last name are required');
  });
});

describe('POST /auth/change-password', () => {
  it.each([
    [
      { current_password: '', new_password: 'NewPassw0rd' },
      'current_password',
      'Current password is required',
    ],
    [{ current_password: 'Passw0rd!', new_password: '' }, 'new_password', 'New password is required'],
    [
      { current_password: 'Passw0rd!', new_password: 'short' },
      'new_password',
      'New password must be at least 8 characters long',
    ],
    [
      { current_password: 'Passw0rd!', new_password: 'Passw0rd!' },
      'new_password',
      'New password must be different from current password',
    ],
  ])('validates %j', async (payload, field, message) => {
    const user = await signedInUser(t.app);
    const response = await call('POST', '/auth/change-password', user.headers, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().fields[field]).toBe(message);
  });

  it('refuses a wrong current password', async () => {
    const user = await signedInUser(t.app);
    const response = await call('POST', '/auth/change-password', user.headers, {
      current_password: 'Wrong-passw0rd',
      new_password: 'NewPassw0rd',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Current password is incorrect');
  });

  it('changes it, ends every other session at once (access tokens too) and answers the caller a new pair', async () => {
    const user = await createUser(t.app);
    const own = await login(t.app, {
      email_or_username: user.email,
      password: user.password,
      remember_me: true,
    });
    const other = await login(t.app, { email_or_username: user.email, password: user.password });
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    expect((await call('GET', '/auth/me', bearer(other.access_token))).statusCode).toBe(200);
    const response = await call('POST', '/auth/change-password', bearer(own.access_token), {
      current_password: user.password,
      new_password: 'NewPassw0rd',
      refresh_token: own.refresh_token,
    });
    expect(response.statusCode).toBe(200);
    const answer = changePasswordResponseSchema.strict().parse(response.json());
    expect(answer.message).toBe('Password changed successfully. Your other sessions have been signed out.');
    // Every token issued before the change is dead at once, the other session's access token included.
    for (const token of [other.access_token, own.access_token]) {
      expect((await call('GET', '/auth/me', bearer(token))).statusCode).toBe(401);
    }
    const refresh = (token: string) => call('POST', '/auth/refresh', {}, { refresh_token: token });
    expect((await refresh(other.refresh_token)).statusCode).toBe(401);
    expect((await refresh(own.refresh_token)).statusCode).toBe(401);
    // The caller carries on with the new pair, still a remember-me session.
    expect((await call('GET', '/auth/me', bearer(answer.access_token))).statusCode).toBe(200);
    const rotated = await refresh(answer.refresh_token);
    expect(rotated.statusCode).toBe(200);
    const live = await t.app.db
      .selectFrom('refresh_tokens')
      .select('expires_at')
      .where('user_id', '=', user.id)
      .where('revoked_at', 'is', null)
      .where('used_at', 'is', null)
      .execute();
    expect(live).toHaveLength(1);
    expect(Date.parse(live[0]?.expires_at ?? '') - Date.now()).toBeGreaterThan(23 * 3600 * 1000);
    await login(t.app, { email_or_username: user.email, password: 'NewPassw0rd' });
  });

  it('answers a working pair to a caller who sent no refresh token', async () => {
    const user = await signedInUser(t.app);
    const response = await call('POST', '/auth/change-password', user.headers, {
      current_password: user.password,
      new_password: 'NewPassw0rd',
    });
    expect(response.statusCode).toBe(200);
    const answer = changePasswordResponseSchema.parse(response.json());
    expect((await call('GET', '/auth/me', user.headers)).statusCode).toBe(401);
    const me = await call('GET', '/auth/me', { authorization: `Bearer ${answer.access_token}` });
    expect(me.statusCode).toBe(200);
    expect(
      (await call('POST', '/auth/refresh', {}, { refresh_token: answer.refresh_token })).statusCode,
    ).toBe(200);
  });

  it("never keeps another user's session named by the refresh token", async () => {
    const user = await signedInUser(t.app);
    const stranger = await signedInUser(t.app);
    const response = await call('POST', '/auth/change-password', user.headers, {
      current_password: user.password,
      new_password: 'NewPassw0rd',
      refresh_token: stranger.session.refresh_token,
    });
    expect(response.statusCode).toBe(200);
    // The stranger's session is untouched, and the caller got a session of their own.
    expect((await call('GET', '/auth/me', stranger.headers)).json().user.id).toBe(stranger.id);
    const answer = changePasswordResponseSchema.parse(response.json());
    const me = await call('GET', '/auth/me', { authorization: `Bearer ${answer.access_token}` });
    expect(me.json().user.id).toBe(user.id);
  });
});

describe('personal GitHub token', () => {
  it('is stored encrypted and answered as status only', async () => {
    const user = await signedInUser(t.app);
    const empty = await call('GET', '/auth/me/github-token', user.headers);
    expect(empty.json()).toEqual({
      has_personal_token: false,
      token_last_four: null,
      token_set_at: null,
      shared_quota_remaining: null,
    });

    const secret = 'ghp_SuperSecretValue0123456789abcdWXYZ';
    const saved = await call('PUT', '/auth/me/github-token', user.headers, { token: secret });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      has_personal_token: true,
      token_last_four: 'WXYZ',
      token_set_at: expect.any(String),
    });
    expect(saved.body).not.toContain(secret);

    const row = await t.app.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(await t.app.services.me.readGitHubToken(user.id)).toBe(secret);

    const me = await call('GET', '/auth/me', user.headers);
    expect(me.json().user).toMatchObject({ has_personal_github_token: true, github_token_last_four: 'WXYZ' });

    const removed = await call('DELETE', '/auth/me/github-token', user.headers);
    expect(removed.json()).toMatchObject({ has_personal_token: false, token_last_four: null });
  });

  it.each([
    [{}, 'Personal GitHub token is required'],
    [{ token: '   ' }, 'Personal GitHub token is required'],
    [
      { token: 'has spaces in it' },
      'Personal GitHub token must contain only letters, digits and underscores',
    ],
  ])('validates %j', async (payload, message) => {
    const user = await signedInUser(t.app);
    const response = await call('PUT', '/auth/me/github-token', user.headers, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().fields.token).toBe(message);
  });
});

describe('Slack webhook', () => {
  it('is checked, stored encrypted and answered as status only', async () => {
    const user = await signedInUser(t.app);
    const url = 'https://hooks.slack.com/services/T000/B000/SECRETsecret';
    const saved = await call('PUT', '/auth/me/slack-webhook', user.headers, { url: `  ${url}  ` });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ has_webhook: true, webhook_set_at: expect.any(String) });
    const row = await t.app.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain('SECRETsecret');
    expect(await t.app.services.me.readSlackWebhook(user.id)).toBe(url);
    expect((await call('GET', '/auth/me/slack-webhook', user.headers)).json().has_webhook).toBe(true);
    expect((await call('DELETE', '/auth/me/slack-webhook', user.headers)).json()).toEqual({
      has_webhook: false,
      webhook_set_at: null,
    });
  });

  it.each([
    [{}, 'Slack webhook URL is required'],
    [{ url: '  ' }, 'Slack webhook URL is required'],
    [
      { url: 'https://evil.example/services/x' },
      'Slack webhook URL must point to an allowed host: this host is not allowed',
    ],
    [
      { url: 'http://169.254.169.254/latest' },
      'Slack webhook URL must point to an allowed host: this host is not allowed',
    ],
    [{ url: 'http://hooks.slack.com/services/x' }, 'Slack webhook URL must use https'],
  ])('refuses %j', async (payload, message) => {
    const user = await signedInUser(t.app);
    const response = await call('PUT', '/auth/me/slack-webhook', user.headers, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().fields.url).toBe(message);
  });
});

describe('a sealed secret copied to another account', () => {
  it('does not open there', async () => {
    const owner = await signedInUser(t.app);
    const thief = await createUser(t.app);
    await call('PUT', '/auth/me/github-token', owner.headers, { token: 'ghp_ownerTokenValue1234' });
    const row = await t.app.db
      .selectFrom('users')
      .select('github_token_enc')
      .where('id', '=', owner.id)
      .executeTakeFirstOrThrow();
    await t.app.db
      .updateTable('users')
      .set({ github_token_enc: row.github_token_enc })
      .where('id', '=', thief.id)
      .execute();
    await expect(t.app.services.me.readGitHubToken(thief.id)).rejects.toThrow();
  });
});
