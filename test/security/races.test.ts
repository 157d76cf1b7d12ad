import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../server/modules/auth/auth.service.ts';
import { listDoubleRepositories } from '../github-double/index.ts';
import { buildRegistration, nextAddress, signedInUser } from '../helpers/auth-factory.ts';
import { createReposTestApp } from '../helpers/repos-app.ts';
import { startSmtpSink } from '../helpers/smtp-sink.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { testDialect } from '../helpers/test-database.ts';

/**
 * The race suite (issue 9): requests that must not both win, sent at the same moment over real
 * HTTP to a listening app, on SQLite and on PostgreSQL (`TEST_DB=postgres`), each round
 * checked against its invariant:
 *
 * - simultaneous first registrations: exactly one account ever takes the first-admin path;
 * - simultaneous rotations of one refresh token: exactly one succeeds, and the reuse the others
 *   amount to revokes the whole family;
 * - two members adding one repository at once: one row, one 201 and one 409, over the GitHub
 *   double;
 * - the last two admins demoting each other at once: at least one admin remains.
 *
 * Each scenario runs a few rounds: one round can pass by luck of scheduling.
 */

type Answer = { status: number; body: Record<string, unknown> };

/** Listens on a free port and answers a `send` that speaks real HTTP to it. */
async function overHttp(app: TestApp['app']) {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return async function send(
    method: string,
    path: string,
    body?: object,
    headers: Record<string, string> = {},
  ): Promise<Answer> {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      // A client address per request (through the trusted proxy hop), so the per-client rate
      // limits of many rounds don't get in the way of the race.
      headers: { 'content-type': 'application/json', 'x-forwarded-for': nextAddress(), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : {} };
  };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Until the mail of the previous round has gone out, so emptying the tables races nothing. */
async function waitForJobs(app: TestApp['app']) {
  await expect
    .poll(
      async () =>
        (await app.db.selectFrom('jobs').select('id').where('status', '=', 'pending').execute()).length,
    )
    .toBe(0);
}

describe(`races on ${testDialect}`, () => {
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;

  beforeAll(async () => {
    sink = await startSmtpSink();
  });

  afterAll(async () => {
    await sink?.close();
  });

  it('simultaneous first registrations: exactly one admin, the others ordinary members', async () => {
    const t = await createTestApp({ SMTP_URL: sink.smtpUrl, JOB_POLL_MS: '20', TRUST_PROXY: '127.0.0.1' });
    try {
      const send = await overHttp(t.app);
      for (let round = 0; round < 3; round += 1) {
        // An empty instance each round (the race is about the very first account): no accounts,
        // and the first-admin path not taken yet.
        await waitForJobs(t.app);
        for (const table of [
          'refresh_tokens',
          'email_tokens',
          'jobs',
          'users',
          'instance_bootstrap',
        ] as const) {
          await t.app.db.deleteFrom(table).execute();
        }
        const bodies = Array.from({ length: 6 }, () => buildRegistration());
        const answers = await Promise.all(bodies.map((body) => send('POST', '/auth/register', body)));
        expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(201));
        const first = answers.filter((answer) => answer.body.message === MESSAGES.registeredFirstAdmin);
        expect(first, `round ${round}`).toHaveLength(1);
        expect(answers.filter((answer) => answer.body.message === MESSAGES.registered)).toHaveLength(5);

        const rows = await t.app.db
          .selectFrom('users')
          .select(['email', 'is_admin', 'is_verified'])
          .orderBy('id')
          .execute();
        expect(rows).toHaveLength(6);
        const admins = rows.filter((row) => row.is_admin === 1);
        expect(admins).toHaveLength(1);
        expect(rows.filter((row) => row.is_verified === 1)).toEqual(admins);
        const adminIndex = bodies.findIndex((body) => body.email === admins[0]?.email);
        expect(answers[adminIndex]?.body.message).toBe(MESSAGES.registeredFirstAdmin);
        const admin = bodies[adminIndex];
        const signIn = await send('POST', '/auth/login', {
          email_or_username: admin?.email,
          password: admin?.password,
        });
        expect(signIn.status).toBe(200);
        expect(signIn.body.user).toMatchObject({ is_admin: true, is_verified: true });
        // The ordinary members' verification links are on their way.
        await Promise.all(
          bodies.filter((_, index) => index !== adminIndex).map((body) => sink.waitForMail(body.email)),
        );
      }
    } finally {
      await t.close();
    }
  });

  describe('on one instance', () => {
    let t: Awaited<ReturnType<typeof createReposTestApp>>;
    let send: Awaited<ReturnType<typeof overHttp>>;

    beforeAll(async () => {
      t = await createReposTestApp({ SMTP_URL: sink.smtpUrl, TRUST_PROXY: '127.0.0.1' });
      send = await overHttp(t.app);
    });

    afterAll(async () => {
      await t?.close();
    });

    it('simultaneous rotations of one refresh token: exactly one succeeds, and the reuse revokes the family', async () => {
      for (let round = 0; round < 5; round += 1) {
        const user = await signedInUser(t.app);
        const presented = user.session.refresh_token;
        const answers = await Promise.all(
          Array.from({ length: 8 }, () => send('POST', '/auth/refresh', { refresh_token: presented })),
        );
        const winners = answers.filter((answer) => answer.status === 200);
        expect(winners, `round ${round}`).toHaveLength(1);
        expect(answers.filter((answer) => answer.status === 401)).toHaveLength(7);

        // Every other attempt was a reuse: the family is dead, the winner's successor included.
        const rows = await t.app.db
          .selectFrom('refresh_tokens')
          .select(['revoked_at'])
          .where('user_id', '=', user.id)
          .execute();
        expect(rows.length).toBeGreaterThanOrEqual(2);
        expect(rows.every((row) => row.revoked_at !== null)).toBe(true);
        const successor = String(winners[0]?.body.refresh_token);
        expect((await send('POST', '/auth/refresh', { refresh_token: successor })).status).toBe(401);
      }
    });

    it('two members adding one repository at once: one row, one 201 and one 409', async () => {
      const candidates = listDoubleRepositories()
        .filter((repository) => !repository.special && !repository.isPrivate)
        .slice(40, 43)
        .map((repository) => repository.fullName);
      for (const fullName of candidates) {
        const a = await signedInUser(t.app);
        const b = await signedInUser(t.app);
        const answers = await Promise.all(
          [a, b].map((member) => send('POST', '/repositories/', { id: fullName }, member.headers)),
        );
        const statuses = answers.map((answer) => answer.status).sort();
        expect(statuses, `${fullName}: ${JSON.stringify(answers.map((answer) => answer.body))}`).toEqual([
          201, 409,
        ]);
        const created = answers.find((answer) => answer.status === 201);
        const refused = answers.find((answer) => answer.status === 409);
        const repository = created?.body.repository as { id: string };
        expect(repository.id.toLowerCase()).toBe(fullName.toLowerCase());
        expect(refused?.body).toEqual({
          message: `${repository.id} is already in the catalogue.`,
          code: 'conflict',
        });
        const rows = await t.app.db
          .selectFrom('repositories')
          .select('id')
          .where((eb) => eb(eb.fn('lower', ['full_name']), '=', fullName.toLowerCase()))
          .execute();
        expect(rows).toHaveLength(1);
        // Both members see the one repository.
        for (const member of [a, b]) {
          const check = await send(
            'GET',
            `/repositories/check/${encodeURIComponent(fullName)}`,
            undefined,
            member.headers,
          );
          expect(check.body).toEqual({ exists: true });
        }
      }
    });

    it('the last two admins demoting each other at once: at least one admin remains', async () => {
      const activeAdmins = async () =>
        (
          await t.app.db
            .selectFrom('users')
            .select('id')
            .where('is_admin', '=', 1)
            .where('is_active', '=', 1)
            .execute()
        ).map((row) => row.id);
      for (const body of [
        { is_admin: false },
        { is_active: false },
        { is_admin: false },
        { is_active: false },
      ]) {
        // Exactly two admins on the instance, both signed in.
        await t.app.db.updateTable('users').set({ is_admin: 0 }).execute();
        const a = await signedInUser(t.app, { is_admin: true });
        const b = await signedInUser(t.app, { is_admin: true });
        expect(await activeAdmins()).toHaveLength(2);
        const answers = await Promise.all([
          send('PATCH', `/auth/admin/users/${b.id}`, body, bearer(a.session.access_token)),
          send('PATCH', `/auth/admin/users/${a.id}`, body, bearer(b.session.access_token)),
        ]);
        const remaining = await activeAdmins();
        expect(remaining.length, JSON.stringify(answers)).toBeGreaterThanOrEqual(1);
        expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
        // The loser lost its session first (401) or hit the last-admin rule (409).
        const loser = answers.find((answer) => answer.status !== 200);
        expect([401, 409]).toContain(loser?.status);
        if (loser?.status === 409) {
          expect(loser.body.message).toBe(
            'This is the last active admin: promote another user to admin before demoting or deactivating this one.',
          );
        }
        expect(remaining).toHaveLength(1);
      }
    });
  });
});
