import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userSchema } from '#shared/schemas/auth.ts';
import { errorBodySchema } from '#shared/schemas/errors.ts';
import {
  buildRegistration,
  createUser,
  login,
  nextAddress,
  signedInUser,
} from '../../../test/helpers/auth-factory.ts';
import { createFakeClock } from '../../../test/helpers/fake-clock.ts';
import { startSmtpSink } from '../../../test/helpers/smtp-sink.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { deriveKey } from '../../lib/secret-box.ts';
import { MESSAGES } from './auth.service.ts';

const clock = createFakeClock();
let t: TestApp;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await createTestApp({ SMTP_URL: sink.smtpUrl, PUBLIC_URL: 'https://tracker.example.com' }, { clock });
});

afterAll(async () => {
  await t?.close();
  await sink?.close();
});

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers, remoteAddress: nextAddress() });

describe('POST /auth/register', () => {
  it('makes the first account an admin, verified at once', async () => {
    const body = buildRegistration();
    const response = await post('/auth/register', body);
    expect(response.statusCode).toBe(201);
    expect(response.json().message).toMatch(/first user/);
    const session = await login(t.app, { email_or_username: body.username, password: body.password });
    expect(session.user).toMatchObject({ is_admin: true, is_verified: true, is_active: true });
  });

  it('mails a verification link built from PUBLIC_URL to later accounts, who cannot sign in before verifying', async () => {
    const body = buildRegistration();
    const response = await post('/auth/register', body, { host: 'evil.example' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      message: 'Registration successful! Please check your email to verify your account.',
    });
    const mail = await sink.waitForMail(body.email);
    expect(mail.link).toMatch(/^https:\/\/tracker\.example\.com\/#\/verify-email\?token=/);

    const early = await post('/auth/login', { email_or_username: body.email, password: body.password });
    expect(early.statusCode).toBe(403);
    expect(early.json().message).toMatch(/verify your email/);

    const token = new URL(mail.link?.replace('#/', '') ?? '').searchParams.get('token');
    const verified = await post('/auth/verify-email', { token });
    expect(verified.json()).toEqual({
      success: true,
      message: 'Email verified successfully! You can now sign in.',
    });
    const again = await post('/auth/verify-email', { token });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(
      'Invalid or expired verification token. Please request a new verification email.',
    );

    const session = await login(t.app, {
      email_or_username: body.email.toUpperCase(),
      password: body.password,
    });
    expect(session.user.is_verified).toBe(true);
    expect(session.user.is_admin).toBe(false);
  });

  it.each([
    [{ email: '' }, 'email', 'Email is required'],
    [{ email: 'not an email' }, 'email', 'Please enter a valid email address'],
    [{ username: 'ab' }, 'username', 'Username must be 3-20 characters, letters, numbers, _ or - only'],
    [
      { username: 'bad name!' },
      'username',
      'Username must be 3-20 characters, letters, numbers, _ or - only',
    ],
    [{ first_name: 'A' }, 'first_name', 'First name must be at least 2 characters'],
    [{ last_name: ' ' }, 'last_name', 'Last name must be at least 2 characters'],
    [
      { password: 'password1' },
      'password',
      'Password must be at least 8 characters with uppercase, lowercase, and number',
    ],
    [
      { password: 'Passw0rd#' },
      'password',
      "Password can't contain “#”: use letters, numbers and @$!%*?& only",
    ],
  ])('rejects %j with the documented message', async (override, field, message) => {
    const response = await post('/auth/register', buildRegistration(override));
    expect(response.statusCode).toBe(400);
    expect(errorBodySchema.parse(response.json()).fields?.[field]).toBe(message);
  });

  it('refuses a taken e-mail or username, case-insensitively', async () => {
    const existing = await createUser(t.app);
    const sameEmail = await post(
      '/auth/register',
      buildRegistration({ email: existing.email.toUpperCase() }),
    );
    expect(sameEmail.statusCode).toBe(409);
    expect(sameEmail.json().message).toBe('An account with this email already exists');
    const sameName = await post(
      '/auth/register',
      buildRegistration({ username: existing.username.toUpperCase() }),
    );
    expect(sameName.statusCode).toBe(409);
    expect(sameName.json().message).toBe('This username is already taken');
  });

  it('lets exactly one of six simultaneous first registrations become the admin', async () => {
    // Its own empty instance: the race is about the very first account.
    const fresh = await createTestApp({ SMTP_URL: sink.smtpUrl });
    try {
      const bodies = Array.from({ length: 6 }, () => buildRegistration());
      const answers = await Promise.all(
        bodies.map((body) =>
          fresh.app.inject({
            method: 'POST',
            url: '/auth/register',
            payload: body,
            remoteAddress: nextAddress(),
          }),
        ),
      );
      expect(answers.map((answer) => answer.statusCode)).toEqual(Array(6).fill(201));
      const messages = answers.map((answer) => answer.json().message);
      expect(messages.filter((message) => message === MESSAGES.registeredFirstAdmin)).toHaveLength(1);
      expect(messages.filter((message) => message === MESSAGES.registered)).toHaveLength(5);
      const rows = await fresh.app.db
        .selectFrom('users')
        .select(['email', 'is_admin', 'is_verified'])
        .execute();
      expect(rows).toHaveLength(6);
      const admins = rows.filter((row) => row.is_admin === 1);
      expect(admins).toHaveLength(1);
      expect(rows.filter((row) => row.is_verified === 1)).toEqual(admins);
      // The admin is the one who was told so; the others were sent a verification link.
      const adminIndex = bodies.findIndex((body) => body.email === admins[0]?.email);
      expect(answers[adminIndex]?.json().message).toBe(MESSAGES.registeredFirstAdmin);
      for (const body of bodies.filter((_, index) => index !== adminIndex))
        await sink.waitForMail(body.email);
    } finally {
      await fresh.close();
    }
  });

  it('allows 10 registrations an hour per address', async () => {
    const remoteAddress = nextAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/auth/register',
        payload: { email: 'x' },
        remoteAddress,
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, 10).every((status) => status === 400)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});

describe('POST /auth/verify-email', () => {
  it('answers 404 for an unknown token and 400 for a malformed one', async () => {
    const unknown = await post('/auth/verify-email', { token: 'x'.repeat(43) });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(
      'Verification token not found. The link may have expired or already been used.',
    );
    const short = await post('/auth/verify-email', { token: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json().fields.token).toBe(
      'Invalid verification token format. Please use the link from your email.',
    );
  });

  it('gives exactly one success to parallel uses of one link', async () => {
    const body = buildRegistration();
    await post('/auth/register', body);
    const mail = await sink.waitForMail(body.email);
    const token = new URL(mail.link?.replace('#/', '') ?? '').searchParams.get('token');
    const results = await Promise.all(Array.from({ length: 5 }, () => post('/auth/verify-email', { token })));
    expect(results.filter((response) => response.statusCode === 200)).toHaveLength(1);
  });

  it('expires after 24 hours', async () => {
    const body = buildRegistration();
    await post('/auth/register', body);
    const mail = await sink.waitForMail(body.email);
    const token = new URL(mail.link?.replace('#/', '') ?? '').searchParams.get('token');
    clock.advance(24 * 3600 + 1);
    try {
      const response = await post('/auth/verify-email', { token });
      expect(response.statusCode).toBe(400);
    } finally {
      clock.reset();
    }
  });
});

describe('POST /auth/login', () => {
  it('answers tokens and the user', async () => {
    const user = await createUser(t.app);
    const session = await login(t.app, {
      email_or_username: user.username,
      password: user.password,
      remember_me: true,
    });
    expect(session.access_token.split('.')).toHaveLength(3);
    expect(session.refresh_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(session.message).toBe('Login successful');
    expect(userSchema.strict().parse(session.user).last_login_at).not.toBeNull();
  });

  it('answers a wrong password and an unknown user identically', async () => {
    const user = await createUser(t.app);
    const wrong = await post('/auth/login', { email_or_username: user.email, password: 'Wrong-passw0rd' });
    const unknown = await post('/auth/login', {
      email_or_username: 'nobody@example.com',
      password: 'Wrong-passw0rd',
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.body).toBe(unknown.body);
    expect(wrong.json()).toEqual({ message: 'Invalid email/username or password', code: 'unauthorized' });
  });

  it('tells a deactivated account why, but only after the password checked out', async () => {
    const user = await createUser(t.app, { is_active: false });
    const wrong = await post('/auth/login', { email_or_username: user.email, password: 'Wrong-passw0rd' });
    expect(wrong.statusCode).toBe(401);
    const right = await post('/auth/login', { email_or_username: user.email, password: user.password });
    expect(right.statusCode).toBe(403);
    expect(right.json().message).toMatch(/deactivated/);
  });

  it.each([
    [{ email_or_username: '', password: 'whatever1' }, 'email_or_username', 'Email or username is required'],
    [{ email_or_username: 'someone', password: '' }, 'password', 'Password is required'],
    [
      { email_or_username: 'someone', password: 'short' },
      'password',
      'Password must be at least 8 characters',
    ],
  ])('validates %j', async (payload, field, message) => {
    const response = await post('/auth/login', payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().fields[field]).toBe(message);
  });

  it('limits attempts per address: the 11th in 15 minutes is a 429 with Retry-After', async () => {
    const remoteAddress = nextAddress();
    let last = await t.app.inject({ method: 'POST', url: '/auth/login', payload: {}, remoteAddress });
    for (let i = 0; i < 10; i++) {
      last = await t.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { email_or_username: `someone${i}`, password: 'Wrong-passw0rd' },
        remoteAddress,
      });
    }
    expect(last.statusCode).toBe(429);
    const body = errorBodySchema.parse(last.json());
    expect(body.code).toBe('rate_limited');
    expect(body.retry_after).toBeGreaterThan(0);
    expect(last.headers['retry-after']).toBe(String(body.retry_after));
  });

  it('counts every spelling of one account on one counter: username, e-mail, case, spaces', async () => {
    const user = await createUser(t.app);
    const spellings = [
      user.username,
      user.email,
      user.username.toUpperCase(),
      ` ${user.email.toUpperCase()} `,
    ];
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const response = await post('/auth/login', {
        email_or_username: spellings[i % spellings.length],
        password: 'Wrong-passw0rd',
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
    // The right password is refused too while the account's window lasts.
    const right = await post('/auth/login', { email_or_username: user.email, password: user.password });
    expect(right.statusCode).toBe(429);
  });

  it('limits an unknown identifier alike, whatever its case and spaces', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const response = await post('/auth/login', {
        email_or_username: ['Ghost-Login', 'ghost-login', ' GHOST-LOGIN '][i % 3],
        password: 'Wrong-passw0rd',
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
  });

  it('limits attempts per account across rotating addresses', async () => {
    const user = await createUser(t.app);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const response = await post('/auth/login', {
        email_or_username: user.username,
        password: 'Wrong-passw0rd',
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
  });
});

describe('access tokens', () => {
  it('open user routes and expire after 15 minutes', async () => {
    const user = await signedInUser(t.app);
    const me = await t.app.inject({ method: 'GET', url: '/auth/me', headers: user.headers });
    expect(me.statusCode).toBe(200);
    clock.advance(15 * 60 + 1);
    try {
      const expired = await t.app.inject({ method: 'GET', url: '/auth/me', headers: user.headers });
      expect(expired.statusCode).toBe(401);
      expect(expired.json().code).toBe('unauthorized');
    } finally {
      clock.reset();
    }
  });

  it('refuses alg:none, other keys, and refresh tokens presented as access tokens', async () => {
    const user = await signedInUser(t.app);
    const [, payload] = user.session.access_token.split('.');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt' })).toString('base64url')}.${payload}.`;
    const otherKey = await new SignJWT({ ver: 0 })
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
      .setSubject(String(user.id))
      .setIssuer('repo-tracker')
      .setAudience('repo-tracker-api')
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('another-secret-another-secret-another'));
    for (const token of [none, otherKey, user.session.refresh_token, 'garbage']) {
      const response = await t.app.inject({
        method: 'GET',
        url: '/auth/me',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.statusCode).toBe(401);
    }
  });

  it('refuse a correctly signed token without exp', async () => {
    const user = await signedInUser(t.app);
    const { token_version } = await t.app.db
      .selectFrom('users')
      .select('token_version')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    const key = deriveKey(t.app.secretKey, 'access-jwt-v1');
    const build = () =>
      new SignJWT({ ver: token_version })
        .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
        .setSubject(String(user.id))
        .setIssuer('repo-tracker')
        .setAudience('repo-tracker-api')
        .setIssuedAt(Math.floor(clock.now().getTime() / 1000));
    const me = (token: string) =>
      t.app.inject({ method: 'GET', url: '/auth/me', headers: { authorization: `Bearer ${token}` } });
    // The same claims with an expiry pass: key and claims are right, only `exp` is missing below.
    const withExpiry = await build()
      .setExpirationTime(Math.floor(clock.now().getTime() / 1000) + 60)
      .sign(key);
    expect((await me(withExpiry)).statusCode).toBe(200);
    const forever = await build().sign(key);
    const response = await me(forever);
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('unauthorized');
  });

  it('stop working at once when the account is deactivated', async () => {
    const user = await signedInUser(t.app);
    await t.app.db.updateTable('users').set({ is_active: 0 }).where('id', '=', user.id).execute();
    const response = await t.app.inject({ method: 'GET', url: '/auth/me', headers: user.headers });
    expect(response.statusCode).toBe(401);
    const refresh = await post('/auth/refresh', { refresh_token: user.session.refresh_token });
    expect(refresh.statusCode).toBe(401);
  });
});

describe('POST /auth/refresh', () => {
  it('rotates, and a replayed token kills the whole family', async () => {
    const user = await signedInUser(t.app);
    const first = await post('/auth/refresh', { refresh_token: user.session.refresh_token });
    expect(first.statusCode).toBe(200);
    const rotated = first.json();
    expect(Object.keys(rotated).sort()).toEqual(['access_token', 'refresh_token']);
    expect(rotated.refresh_token).not.toBe(user.session.refresh_token);

    const replay = await post('/auth/refresh', { refresh_token: user.session.refresh_token });
    expect(replay.statusCode).toBe(401);
    const successor = await post('/auth/refresh', { refresh_token: rotated.refresh_token });
    expect(successor.statusCode).toBe(401);
  });

  it('never extends the absolute lifetime: 1 hour without remember me', async () => {
    const user = await createUser(t.app);
    const session = await login(t.app, { email_or_username: user.email, password: user.password });
    clock.advance(50 * 60);
    try {
      const rotated = await post('/auth/refresh', { refresh_token: session.refresh_token });
      expect(rotated.statusCode).toBe(200);
      clock.advance(10 * 60 + 1);
      const late = await post('/auth/refresh', { refresh_token: rotated.json().refresh_token });
      expect(late.statusCode).toBe(401);
    } finally {
      clock.reset();
    }
  });

  it('lasts 24 hours with remember me', async () => {
    const user = await createUser(t.app);
    const session = await login(t.app, {
      email_or_username: user.email,
      password: user.password,
      remember_me: true,
    });
    clock.advance(23 * 3600);
    try {
      const rotated = await post('/auth/refresh', { refresh_token: session.refresh_token });
      expect(rotated.statusCode).toBe(200);
      clock.advance(3600 + 1);
      expect((await post('/auth/refresh', { refresh_token: rotated.json().refresh_token })).statusCode).toBe(
        401,
      );
    } finally {
      clock.reset();
    }
  });

  it('sweeps a user’s expired sessions at the next sign-in', async () => {
    const user = await createUser(t.app);
    await login(t.app, { email_or_username: user.email, password: user.password });
    clock.advance(3600 + 1);
    try {
      await login(t.app, { email_or_username: user.email, password: user.password });
      const rows = await t.app.db
        .selectFrom('refresh_tokens')
        .select('expires_at')
        .where('user_id', '=', user.id)
        .execute();
      expect(rows).toHaveLength(1);
      expect(Date.parse(rows[0]?.expires_at ?? '')).toBeGreaterThan(clock.now().getTime());
    } finally {
      clock.reset();
    }
  });

  it('gives one success to parallel rotations of one token', async () => {
    const user = await signedInUser(t.app);
    const results = await Promise.all(
      Array.from({ length: 4 }, () => post('/auth/refresh', { refresh_token: user.session.refresh_token })),
    );
    expect(results.filter((response) => response.statusCode === 200).length).toBeLessThanOrEqual(1);
  });
});

describe('logout', () => {
  it('POST /auth/logout revokes that session only', async () => {
    const user = await createUser(t.app);
    const a = await login(t.app, { email_or_username: user.email, password: user.password });
    const b = await login(t.app, { email_or_username: user.email, password: user.password });
    const response = await post('/auth/logout', { refresh_token: a.refresh_token });
    expect(response.json()).toEqual({ message: 'Signed out' });
    expect((await post('/auth/refresh', { refresh_token: a.refresh_token })).statusCode).toBe(401);
    expect((await post('/auth/refresh', { refresh_token: b.refresh_token })).statusCode).toBe(200);
  });

  it('POST /auth/logout-all revokes every session and live access token', async () => {
    const user = await signedInUser(t.app);
    const other = await login(t.app, { email_or_username: user.email, password: user.password });
    const response = await post('/auth/logout-all', {}, user.headers);
    expect(response.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/auth/me', headers: user.headers })).statusCode).toBe(
      401,
    );
    expect((await post('/auth/refresh', { refresh_token: other.refresh_token })).statusCode).toBe(401);
  });

  it('POST /auth/logout-all needs a session', async () => {
    expect((await post('/auth/logout-all', {})).statusCode).toBe(401);
  });
});

describe('REGISTRATION=closed', () => {
  it('turns public sign-up off with a clear message', async () => {
    const closed = await createTestApp({ REGISTRATION: 'closed' });
    try {
      const response = await closed.app.inject({
        method: 'POST',
        url: '/auth/register',
        payload: buildRegistration(),
      });
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toMatch(/Registration is closed/);
    } finally {
      await closed.close();
    }
  });
});

describe('mail failures', () => {
  it('never lose the account: registration succeeds and the mail stays queued for another attempt', async () => {
    const broken = await createTestApp({ SMTP_URL: 'smtp://127.0.0.1:1' });
    try {
      await broken.app.inject({ method: 'POST', url: '/auth/register', payload: buildRegistration() }); // first = admin, no mail
      const body = buildRegistration();
      const response = await broken.app.inject({ method: 'POST', url: '/auth/register', payload: body });
      expect(response.statusCode).toBe(201);
      // Mail leaves after the answer (server/mail/queued-mailer.ts), so the answer can't know.
      expect(response.json().message).toMatch(/check your email/);
      const row = await broken.app.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', body.email)
        .executeTakeFirst();
      expect(row).toBeDefined();
      await expect
        .poll(() => broken.app.db.selectFrom('jobs').select(['status', 'last_error']).execute())
        .toEqual([{ status: 'pending', last_error: expect.stringMatching(/ECONNREFUSED|connect/i) }]);
    } finally {
      await broken.close();
    }
  });
});
