import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextAddress } from '../../../test/helpers/auth-factory.ts';
import { startSmtpSink } from '../../../test/helpers/smtp-sink.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

/** Field names and value shapes that must never leave the server (SECURITY.md C5, D2, E1). */
const FORBIDDEN_PATTERNS = [
  /\$argon2/,
  /password_hash/,
  /token_hash/,
  /github_token_enc/,
  /slack_webhook_enc/,
  /token_version/,
  /"v1\.[A-Za-z0-9_-]{16}\./,
];

const logLines: string[] = [];
let t: TestApp;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await createTestApp(
    { SMTP_URL: sink.smtpUrl, LOG_LEVEL: 'debug' },
    { resolve: async () => ['34.235.1.2'], logStream: { write: (line) => void logLines.push(line) } },
  );
});

afterAll(async () => {
  await t?.close();
  await sink?.close();
});

const alnum = fc.stringMatching(/^[A-Za-z0-9]{4,12}$/);

describe('auth answers and logs never carry a hash or a secret', () => {
  it('holds across generated accounts and every auth call', async () => {
    await fc.assert(
      fc.asyncProperty(
        alnum,
        alnum,
        fc.stringMatching(/^[A-Za-z]{2,20}$/),
        async (local, tokenTail, firstName) => {
          const password = `Pw1${local}aA`;
          const personalToken = `ghp_${tokenTail}${local}`;
          const webhook = `https://hooks.slack.com/services/T0/B0/${tokenTail}`;
          const username = `u${local}`.slice(0, 20);
          const email = `${local}-${tokenTail}@example.com`.toLowerCase();
          const remoteAddress = nextAddress();
          const bodies: string[] = [];
          const send = async (
            method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
            url: string,
            payload?: object,
            token?: string,
          ) => {
            const response = await t.app.inject({
              method,
              url,
              payload,
              remoteAddress,
              headers: token ? { authorization: `Bearer ${token}` } : {},
            });
            bodies.push(response.body);
            return response;
          };
          const registered = await send('POST', '/auth/register', {
            email,
            username,
            first_name: firstName,
            last_name: 'Tester',
            password,
          });
          if (registered.statusCode !== 201) return; // collisions of generated names are fine
          await t.app.db.updateTable('users').set({ is_verified: 1 }).where('email', '=', email).execute();
          const session = (
            await send('POST', '/auth/login', { email_or_username: username, password })
          ).json();
          await send('GET', '/auth/me', undefined, session.access_token);
          await send(
            'PATCH',
            '/auth/me',
            { first_name: firstName, last_name: 'Changed' },
            session.access_token,
          );
          await send('PUT', '/auth/me/github-token', { token: personalToken }, session.access_token);
          await send('GET', '/auth/me/github-token', undefined, session.access_token);
          await send('PUT', '/auth/me/slack-webhook', { url: webhook }, session.access_token);
          await send('GET', '/auth/me/slack-webhook', undefined, session.access_token);
          await send('GET', '/auth/me', undefined, session.access_token);
          const rotated = (
            await send('POST', '/auth/refresh', { refresh_token: session.refresh_token })
          ).json();
          await send(
            'POST',
            '/auth/change-password',
            { current_password: password, new_password: `${password}X` },
            rotated.access_token,
          );
          await send('POST', '/auth/forgot-password', { email });
          await send('POST', '/auth/logout', { refresh_token: rotated.refresh_token });

          for (const body of bodies) {
            for (const pattern of FORBIDDEN_PATTERNS) expect(body).not.toMatch(pattern);
            expect(body).not.toContain(personalToken);
            expect(body).not.toContain(webhook);
            expect(body).not.toContain(password);
          }
          const logs = logLines.join('\n');
          for (const secret of [
            password,
            personalToken,
            webhook,
            session.refresh_token,
            rotated.refresh_token,
            session.access_token,
          ]) {
            expect(logs).not.toContain(secret);
          }
        },
      ),
      { numRuns: 8 },
    );
    expect(logLines.length).toBeGreaterThan(10);
  });
});
