import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listDoubleRepositories } from '../github-double/index.ts';
import { createUser, nextAddress } from '../helpers/auth-factory.ts';
import { createReposTestApp } from '../helpers/repos-app.ts';
import { startSlackSink } from '../helpers/slack-sink.ts';
import { startSmtpSink } from '../helpers/smtp-sink.ts';

/**
 * The log-secrets property (issue 9; docs/security.md#c5): with LOG_LEVEL=trace, so every level
 * is written, no password, access or refresh token, personal API token, GitHub token, webhook URL, reset or
 * verification token ever appears in a log line — wherever a client puts it: in a path, a
 * query string or a body, on every route of the route table, as an anonymous caller, a member
 * and an admin. (Reset links checked with `GET /auth/verify-reset-token?token=…` used to
 * write live tokens into the info-level request log.)
 *
 * Each run generates fresh secrets and walks one account through the flows that really handle
 * them (register and verify, sign in, personal token, webhook and a notified add, refresh,
 * change password, forgot and reset password, a personal API token, sign out), so the server-issued secrets exist
 * too; then it sends every route requests stuffed with all of them, waits for the job queue
 * (mail, Slack) to drain, and searches every captured log line. The answers of the flows are
 * checked as well: never a hash, a sealed secret or the member's own secrets.
 *
 * Runs with SMTP configured, so the links can be read from the mails. Without `SMTP_URL` the
 * outbox transport logs the `.eml` file's path and never its link
 * (server/modules/messages/mail-transport.test.ts).
 */

const RUNS = Number(process.env.LOG_SECRETS_RUNS ?? 3);
const SERVER_GITHUB_TOKEN = 'ghp_serverWideTokenNeverLogged0123456789';

/** Field names and value shapes that must never be in an answer (docs/security.md#c5, #d2, #e1). */
const FORBIDDEN_IN_ANSWERS = [
  /\$argon2/,
  /password_hash/,
  /token_hash/,
  /github_token_enc/,
  /slack_webhook_enc/,
  /token_version/,
  /"v1\.[A-Za-z0-9_-]{16}\./,
];

type Method = NonNullable<InjectOptions['method']>;
type OpenApi = {
  paths: Record<
    string,
    Record<string, { requestBody?: { content?: Record<string, { schema?: { properties?: object } }> } }>
  >;
};

const logLines: string[] = [];
let t: Awaited<ReturnType<typeof createReposTestApp>>;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let slack: Awaited<ReturnType<typeof startSlackSink>>;
let admin: { id: number };
let openapi: OpenApi;
const addable = listDoubleRepositories()
  .filter((repository) => !repository.special && !repository.isPrivate)
  .slice(300, 340)
  .map((repository) => repository.fullName);

beforeAll(async () => {
  sink = await startSmtpSink();
  slack = await startSlackSink();
  t = await createReposTestApp(
    {
      SMTP_URL: sink.smtpUrl,
      LOG_LEVEL: 'trace',
      JOB_POLL_MS: '20',
      GITHUB_TOKEN: SERVER_GITHUB_TOKEN,
      WEBHOOK_ALLOWED_HOSTS: `hooks.slack.com,${slack.host}`,
    },
    {},
    { logStream: { write: (line) => void logLines.push(line) } },
  );
  admin = await createUser(t.app, { is_admin: true });
  openapi = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json();
});

afterAll(async () => {
  await t?.close();
  await slack?.close();
  await sink?.close();
});

const alnum = (min: number, max: number) => fc.stringMatching(new RegExp(`^[A-Za-z0-9]{${min},${max}}$`));

const secretsArb = fc.record({
  local: fc.stringMatching(/^[a-z0-9]{10,14}$/),
  password: alnum(16, 20).map((value) => `Pw1${value}aA`),
  newPassword: alnum(16, 20).map((value) => `Nw2${value}bB`),
  resetPassword: alnum(16, 20).map((value) => `Rs3${value}cC`),
  githubToken: alnum(24, 30).map((value) => `ghp_${value}`),
  webhookTail: alnum(24, 30),
  /** Where the rotation of secrets over the sweep's slots starts. */
  offset: fc.nat({ max: 50 }),
});

/** Routes the sweep calls last: they end the sessions or API tokens the other calls use. */
const endsCallers = (url: string) => url === '/auth/logout-all' || url === '/auth/me/tokens';

/** The link's token from a received mail. */
function tokenOf(link: string | null): string {
  return new URL(link?.replace('#/', '') ?? 'http://x/').searchParams.get('token') ?? '';
}

async function waitForQueueToDrain() {
  await expect
    .poll(
      async () =>
        (await t.app.db.selectFrom('jobs').select('id').where('status', '=', 'pending').execute()).length,
      { timeout: 10_000, interval: 25 },
    )
    .toBe(0);
}

describe('no secret of any kind reaches a log line, at any level', () => {
  it('holds across generated secrets, every route, every caller and every place a secret can go', async () => {
    let runIndex = 0;
    await fc.assert(
      fc.asyncProperty(secretsArb, async (generated) => {
        runIndex += 1;
        const run = runIndex;
        const firstLine = logLines.length;
        const answers: string[] = [];
        const send = async (method: Method, url: string, payload?: object, token?: string) => {
          const response = await t.app.inject({
            method,
            url,
            payload,
            remoteAddress: nextAddress(),
            headers: token ? { authorization: `Bearer ${token}` } : {},
          });
          answers.push(response.body);
          return response;
        };

        // ---- the flows that really handle the secrets --------------------------------------
        const email = `${generated.local}-${run}@example.com`;
        const username = `u${generated.local}${run}`.slice(0, 20);
        const webhook = `http://${slack.host}/services/T0/B0/${generated.webhookTail}`;
        const registered = await send('POST', '/auth/register', {
          email,
          username,
          first_name: 'Log',
          last_name: 'Tester',
          password: generated.password,
        });
        expect(registered.statusCode, registered.body).toBe(201);
        const verifyToken = tokenOf((await sink.waitForMail(email)).link);
        expect((await send('POST', '/auth/verify-email', { token: verifyToken })).statusCode).toBe(200);
        const first = (
          await send('POST', '/auth/login', { email_or_username: username, password: generated.password })
        ).json();
        expect(first.access_token).toBeTruthy();
        const tokenSaved = await send(
          'PUT',
          '/auth/me/github-token',
          { token: generated.githubToken },
          first.access_token,
        );
        expect(tokenSaved.statusCode, tokenSaved.body).toBe(200);
        await send('GET', '/auth/me/github-token', undefined, first.access_token);
        const hookSaved = await send('PUT', '/auth/me/slack-webhook', { url: webhook }, first.access_token);
        expect(hookSaved.statusCode, hookSaved.body).toBe(200);
        await send('GET', '/auth/me/slack-webhook', undefined, first.access_token);
        // A personal API token (docs/security.md#c8): created, listed, used; it outlives the
        // password change and reset below, and calls every route in the sweep.
        const created = await send(
          'POST',
          '/auth/me/tokens',
          { name: 'log test', scope: 'write', expires_in_days: 30 },
          first.access_token,
        );
        expect(created.statusCode, created.body).toBe(201);
        const apiToken: string = created.json().token;
        await send('GET', '/auth/me/tokens', undefined, first.access_token);
        expect((await send('GET', '/auth/me', undefined, apiToken)).statusCode).toBe(200);
        const repository = addable[(run * 7 + generated.offset) % addable.length] ?? 'facebook/react';
        const added = await send(
          'POST',
          '/repositories/',
          { id: repository, notify_slack: true },
          first.access_token,
        );
        expect([201, 409]).toContain(added.statusCode);
        const rotated = (await send('POST', '/auth/refresh', { refresh_token: first.refresh_token })).json();
        const changed = (
          await send(
            'POST',
            '/auth/change-password',
            {
              current_password: generated.password,
              new_password: generated.newPassword,
              refresh_token: rotated.refresh_token,
            },
            rotated.access_token,
          )
        ).json();
        expect(changed.access_token).toBeTruthy();
        const mailsBefore = sink.mails.length;
        await send('POST', '/auth/forgot-password', { email });
        const resetToken = tokenOf(
          (
            await sink.waitForMail(
              email,
              (mail) => sink.mails.indexOf(mail) >= mailsBefore && mail.subject.startsWith('Reset'),
            )
          ).link,
        );
        expect(
          (await send('GET', `/auth/verify-reset-token?token=${encodeURIComponent(resetToken)}`)).statusCode,
        ).toBe(200);
        expect((await send('POST', '/auth/verify-reset-token', { token: resetToken })).statusCode).toBe(200);
        const reset = await send('POST', '/auth/reset-password', {
          token: resetToken,
          new_password: generated.resetPassword,
        });
        expect(reset.statusCode, reset.body).toBe(200);
        const member = (
          await send('POST', '/auth/login', {
            email_or_username: email,
            password: generated.resetPassword,
            remember_me: true,
          })
        ).json();
        expect(member.access_token).toBeTruthy();
        const adminRow = await t.app.db
          .selectFrom('users')
          .selectAll()
          .where('id', '=', admin.id)
          .executeTakeFirstOrThrow();
        const adminSession = await t.app.services.tokens.startSession(adminRow, false);

        const secrets: Record<string, string> = {
          password: generated.password,
          newPassword: generated.newPassword,
          resetPassword: generated.resetPassword,
          githubToken: generated.githubToken,
          serverGithubToken: SERVER_GITHUB_TOKEN,
          webhook,
          webhookTail: generated.webhookTail,
          verifyToken,
          resetToken,
          firstAccess: first.access_token,
          firstRefresh: first.refresh_token,
          rotatedAccess: rotated.access_token,
          rotatedRefresh: rotated.refresh_token,
          changedAccess: changed.access_token,
          changedRefresh: changed.refresh_token,
          memberAccess: member.access_token,
          memberRefresh: member.refresh_token,
          adminAccess: adminSession.access_token,
          adminRefresh: adminSession.refresh_token,
          secretKey: t.app.secretKey,
          apiToken,
        };

        // ---- every route, with the secrets wherever a client could put them -----------------
        const values = Object.values(secrets);
        let slot = generated.offset;
        const nextSecret = () => {
          slot += 1;
          return values[slot % values.length] ?? '';
        };
        const routes = t.app.routeAccess
          .filter((route) => !route.url.startsWith('/docs'))
          // Last: they end the sessions and the API token the other calls use.
          .sort((a, b) => Number(endsCallers(a.url)) - Number(endsCallers(b.url)));
        const query = () =>
          [
            ['token', resetToken],
            ['password', nextSecret()],
            ['refresh_token', nextSecret()],
            ['access_token', nextSecret()],
            ['url', webhook],
            ['q', nextSecret()],
          ]
            .map(([key, value]) => `${key}=${encodeURIComponent(value ?? '')}`)
            .join('&');
        for (const route of routes) {
          const method = route.method as Method;
          const path = route.url
            .replace(/:(\w+)/g, () => encodeURIComponent(nextSecret()))
            .replace('*', encodeURIComponent(nextSecret()));
          const operation = openapi.paths[route.url.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
          const fields = Object.keys(
            operation?.requestBody?.content?.['application/json']?.schema?.properties ?? {},
          );
          const body = Object.fromEntries(
            [
              ...fields,
              'token',
              'password',
              'new_password',
              'current_password',
              'refresh_token',
              'url',
              'email_or_username',
            ].map((field) => [field, nextSecret()]),
          );
          for (const caller of [undefined, member.access_token, adminSession.access_token, apiToken]) {
            await t.app.inject({
              method,
              url: `${path}?${query()}`,
              ...(['GET', 'HEAD'].includes(method) ? {} : { payload: body }),
              remoteAddress: nextAddress(),
              headers: caller ? { authorization: `Bearer ${caller}`, cookie: `session=${nextSecret()}` } : {},
            });
          }
        }
        // Paths no route answers, with a secret in the path itself.
        for (const method of ['GET', 'POST', 'DELETE'] as const) {
          await t.app.inject({
            method,
            url: `/reset-password/${encodeURIComponent(resetToken)}/${encodeURIComponent(nextSecret())}?token=${resetToken}`,
            remoteAddress: nextAddress(),
          });
        }
        await send('POST', '/auth/logout', { refresh_token: member.refresh_token });
        // Mail and Slack go out from the job queue after the answers: their log lines count too.
        await waitForQueueToDrain();
        expect(slack.messages.some((message) => message.path.endsWith(generated.webhookTail))).toBe(
          added.statusCode === 201,
        );

        // ---- the property ------------------------------------------------------------------
        const lines = logLines.slice(firstLine);
        expect(lines.length).toBeGreaterThan(routes.length);
        for (const line of lines) {
          for (const [name, secret] of Object.entries(secrets)) {
            if (line.includes(secret) || line.includes(encodeURIComponent(secret))) {
              throw new Error(`the ${name} reached a log line: ${line.slice(0, 500)}`);
            }
          }
        }
        for (const answer of answers) {
          for (const pattern of FORBIDDEN_IN_ANSWERS) expect(answer).not.toMatch(pattern);
          for (const own of [
            generated.githubToken,
            webhook,
            generated.password,
            generated.newPassword,
            generated.resetPassword,
          ]) {
            expect(answer).not.toContain(own);
          }
        }
      }),
      // Shrinking random secrets teaches nothing and each run costs seconds: report the first failure.
      { numRuns: RUNS, endOnFailure: true },
    );
  }, 120_000);
});
