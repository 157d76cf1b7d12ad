import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, login, nextAddress } from '../../../test/helpers/auth-factory.ts';
import { createFakeClock } from '../../../test/helpers/fake-clock.ts';
import { startSmtpSink } from '../../../test/helpers/smtp-sink.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

const clock = createFakeClock();
let t: TestApp;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
/** The request log at the default level, as an operator's log reader would see it. */
const logLines: string[] = [];

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await createTestApp(
    { SMTP_URL: sink.smtpUrl, PUBLIC_URL: 'https://tracker.example.com', LOG_LEVEL: 'info' },
    { clock, logStream: { write: (line) => void logLines.push(line) } },
  );
});

afterAll(async () => {
  await t?.close();
  await sink?.close();
});

const post = (url: string, payload: object, remoteAddress = nextAddress()) =>
  t.app.inject({ method: 'POST', url, payload, remoteAddress });

async function requestReset(email: string): Promise<string> {
  const before = sink.mails.length;
  const response = await post('/auth/forgot-password', { email });
  expect(response.statusCode).toBe(200);
  const mail = await sink.waitForMail(
    email,
    (candidate) => sink.mails.indexOf(candidate) >= before && candidate.subject.startsWith('Reset'),
  );
  return new URL(mail.link?.replace('#/', '') ?? '').searchParams.get('token') ?? '';
}

describe('POST /auth/forgot-password', () => {
  it('answers the same for known and unknown addresses, and mails only the known one', async () => {
    const user = await createUser(t.app);
    const known = await post('/auth/forgot-password', { email: user.email });
    const unknown = await post('/auth/forgot-password', { email: 'nobody-at-all@example.com' });
    expect(known.body).toBe(unknown.body);
    expect(known.json()).toEqual({
      success: true,
      message: 'If the email exists, a password reset link has been sent.',
    });
    const mail = await sink.waitForMail(user.email);
    expect(mail.link).toMatch(
      /^https:\/\/tracker\.example\.com\/#\/reset-password\?token=[A-Za-z0-9_-]{43}$/,
    );
    expect(sink.mails.some((candidate) => candidate.to.includes('nobody-at-all@example.com'))).toBe(false);
  });

  it.each([
    [{}, 'Email address is required'],
    [{ email: '' }, 'Email address is required'],
    [{ email: 'a b@c.d' }, 'Please enter a valid email address'],
  ])('validates %j', async (payload, message) => {
    const response = await post('/auth/forgot-password', payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().fields.email).toBe(message);
  });

  it('allows 3 requests per e-mail in 15 minutes, across addresses, with retry_after', async () => {
    const email = 'flood-target@example.com';
    const statuses: number[] = [];
    let last = await post('/auth/forgot-password', { email });
    statuses.push(last.statusCode);
    for (let i = 0; i < 3; i++) {
      last = await post('/auth/forgot-password', { email });
      statuses.push(last.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(last.json().retry_after).toBeGreaterThan(800);
    expect(last.json().retry_after).toBeLessThanOrEqual(900);
    expect(last.headers['retry-after']).toBe(String(last.json().retry_after));
  });

  it('allows 3 requests per address in 15 minutes, whatever the e-mail', async () => {
    const remoteAddress = nextAddress();
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      statuses.push(
        (await post('/auth/forgot-password', { email: `someone${i}@example.com` }, remoteAddress)).statusCode,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});

describe('reset links', () => {
  it('validate, reset once, revoke sessions, and let the user sign in with the new password', async () => {
    const user = await createUser(t.app);
    const session = await login(t.app, { email_or_username: user.email, password: user.password });
    const token = await requestReset(user.email);

    const check = await t.app.inject({ method: 'GET', url: `/auth/verify-reset-token?token=${token}` });
    expect(check.json()).toEqual({ success: true, message: 'Reset token is valid' });
    expect(check.headers['referrer-policy']).toBe('no-referrer');

    const weak = await post('/auth/reset-password', { token, new_password: 'short' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().fields.new_password).toBe(
      'Password must contain at least 8 characters long, at least one uppercase letter, at least one number',
    );

    const reset = await post('/auth/reset-password', { token, new_password: 'NewPassw0rd' });
    expect(reset.json()).toEqual({
      success: true,
      message: 'Your password has been reset. You can now sign in with your new password.',
    });
    expect((await post('/auth/reset-password', { token, new_password: 'OtherPassw0rd' })).statusCode).toBe(
      400,
    );
    expect((await post('/auth/refresh', { refresh_token: session.refresh_token })).statusCode).toBe(401);
    const me = await t.app.inject({
      method: 'GET',
      url: '/auth/me',
      headers: { authorization: `Bearer ${session.access_token}` },
    });
    expect(me.statusCode).toBe(401);
    expect(
      (await post('/auth/login', { email_or_username: user.email, password: user.password })).statusCode,
    ).toBe(401);
    await login(t.app, { email_or_username: user.email, password: 'NewPassw0rd' });
    await sink.waitForMail(user.email, (mail) => mail.subject.includes('password was changed'));
  });

  it('answer invalid for unknown tokens', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/auth/verify-reset-token?token=nope' });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Invalid or expired reset token');
    expect((await t.app.inject({ method: 'GET', url: '/auth/verify-reset-token' })).statusCode).toBe(400);
  });

  it('can be checked with POST /auth/verify-reset-token { token }, which answers like the GET and spends nothing', async () => {
    const user = await createUser(t.app);
    const token = await requestReset(user.email);
    const check = await post('/auth/verify-reset-token', { token });
    expect(check.statusCode).toBe(200);
    expect(check.json()).toEqual({ success: true, message: 'Reset token is valid' });
    expect(check.headers['referrer-policy']).toBe('no-referrer');
    expect((await post('/auth/verify-reset-token', { token })).statusCode).toBe(200);

    for (const payload of [{ token: 'nope' }, { token: 'x'.repeat(43) }, { token: '' }, {}]) {
      const invalid = await post('/auth/verify-reset-token', payload);
      expect(invalid.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect((await post('/auth/verify-reset-token', { token: 'nope' })).json()).toEqual({
      message: 'Invalid or expired reset token',
      code: 'bad_request',
    });

    expect((await post('/auth/reset-password', { token, new_password: 'NewPassw0rd' })).statusCode).toBe(200);
    const used = await post('/auth/verify-reset-token', { token });
    expect(used.statusCode).toBe(400);
    expect(used.json().message).toBe('Invalid or expired reset token');
  });

  it('never reach the request log, even when checked through the GET', async () => {
    const user = await createUser(t.app);
    const token = await requestReset(user.email);
    const before = logLines.length;
    const check = await t.app.inject({ method: 'GET', url: `/auth/verify-reset-token?token=${token}` });
    expect(check.statusCode).toBe(200);
    const lines = logLines.slice(before);
    // The request was logged (method and route), without its query string.
    expect(lines.some((line) => line.includes('/auth/verify-reset-token'))).toBe(true);
    for (const line of lines) {
      expect(line).not.toContain(token);
      expect(line).not.toContain('?token=');
    }
  });

  it('give exactly one success to parallel submissions', async () => {
    const user = await createUser(t.app);
    const token = await requestReset(user.email);
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        post('/auth/reset-password', { token, new_password: `Parallel${i}Pass` }),
      ),
    );
    expect(results.filter((response) => response.statusCode === 200)).toHaveLength(1);
  });

  it('expire after one hour, and a newer link voids the older', async () => {
    const user = await createUser(t.app);
    const older = await requestReset(user.email);
    const newer = await requestReset(user.email);
    expect(
      (await post('/auth/reset-password', { token: older, new_password: 'NewPassw0rd' })).statusCode,
    ).toBe(400);
    clock.advance(3600 + 1);
    try {
      expect(
        (await post('/auth/reset-password', { token: newer, new_password: 'NewPassw0rd' })).statusCode,
      ).toBe(400);
    } finally {
      clock.reset();
    }
  });
});

describe('POST /auth/resend-verification', () => {
  it('answers the same whether or not the address exists, and sends a fresh link that voids the old', async () => {
    const user = await createUser(t.app, { is_verified: false });
    const known = await post('/auth/resend-verification', { email: user.email });
    const unknown = await post('/auth/resend-verification', { email: 'ghost@example.com' });
    expect(known.body).toBe(unknown.body);
    expect(known.json().success).toBe(true);
    const first = await sink.waitForMail(user.email);
    await post('/auth/resend-verification', { email: user.email });
    const second = await sink.waitForMail(user.email, (mail) => mail.link !== first.link);
    const tokenOf = (link: string | null) => new URL(link?.replace('#/', '') ?? '').searchParams.get('token');
    expect((await post('/auth/verify-email', { token: tokenOf(first.link) })).statusCode).toBe(400);
    expect((await post('/auth/verify-email', { token: tokenOf(second.link) })).statusCode).toBe(200);
  });
});
