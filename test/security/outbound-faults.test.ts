import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { createMailer } from '../../server/modules/messages/mail-transport.ts';
import { sendSlackMessage } from '../../server/modules/messages/webhook-sender.ts';
import { nextAddress, signedInUser } from '../helpers/auth-factory.ts';
import {
  type SmtpFault,
  startSmtpFaultServer,
  startWebhookFaultServer,
  type WebhookFault,
} from '../helpers/mail-webhook-faults.ts';
import { createReposTestApp } from '../helpers/repos-app.ts';
import { WAIT_CEILING_MS } from '../helpers/wait-ceiling.ts';

/**
 * Outbound faults, webhooks and SMTP (issue 9): a remote end that answers with too much, drips,
 * never answers or resets must not hold anything. Each call settles within its deadline
 * (configuration, 500 ms here), and the app's answers never wait for either: mail and Slack
 * messages leave from the job queue, which records what happened.
 */
const DEADLINE_MS = 500;
/**
 * The ceiling that catches a hang (a call without a deadline never settles), with room for an
 * event loop starved on a busy machine: derived from the deadline, never the machine's speed.
 * That the app's answers don't wait for a message is proven by what the remote end had seen
 * when the answer came, not by time.
 */
const CEILING_MS = DEADLINE_MS * 10;

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

/** Settles with the outcome instead of throwing, so a rejection is timed like a result. */
async function settled<T>(
  work: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; error: Error }> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    return { ok: false, error: error as Error };
  }
}

describe('Slack webhook calls', () => {
  let server: Awaited<ReturnType<typeof startWebhookFaultServer>>;
  beforeAll(async () => {
    server = await startWebhookFaultServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  const send = () =>
    sendSlackMessage(server.url, 'hello', { allowedHosts: [server.host], timeoutMs: DEADLINE_MS });

  const cases: [WebhookFault, object][] = [
    // The original hang: the answer was cut off after 16 KB and the promise never settled.
    ['huge-body', { sent: true }],
    ['silent', { sent: false, error: 'Slack did not answer in time', retryable: true }],
    ['drip-headers', { sent: false, error: 'Slack did not answer in time', retryable: true }],
    // The status arrived; a body that never ends doesn't change it.
    ['drip-body', { sent: true }],
    ['reset', { sent: false, error: 'Slack could not be reached', retryable: true }],
  ];
  for (const [fault, outcome] of cases) {
    it(`settle within the deadline when the webhook answers with: ${fault}`, async () => {
      server.setFault(fault);
      const { value, ms } = await timed(send);
      expect(value).toEqual(outcome);
      expect(ms).toBeLessThan(CEILING_MS);
      // Nothing is left open behind the settled call.
      await expect.poll(() => server.openConnections, { timeout: WAIT_CEILING_MS }).toBe(0);
    });
  }
});

describe('SMTP deliveries', () => {
  let server: Awaited<ReturnType<typeof startSmtpFaultServer>>;
  let mailer: ReturnType<typeof createMailer>;
  beforeAll(async () => {
    server = await startSmtpFaultServer('silent');
    const config = loadConfig({
      DATA_DIR: '/nonexistent',
      SMTP_URL: server.smtpUrl,
      SMTP_TIMEOUT_MS: String(DEADLINE_MS),
    });
    mailer = createMailer(config, { info() {} } as unknown as FastifyBaseLogger);
  });
  afterAll(async () => {
    mailer?.close();
    await server?.close();
  });

  const message = { to: 'someone@example.com', subject: 'Hi', text: 'hello', html: '<p>hello</p>' };

  for (const fault of ['silent', 'drip', 'huge', 'reset'] satisfies SmtpFault[]) {
    it(`settle within the deadline when the mail server ${fault === 'reset' ? 'resets' : `is ${fault}`}`, async () => {
      server.setFault(fault);
      const before = server.connections;
      const { value, ms } = await timed(() => settled(() => mailer.send(message)));
      expect(value.ok).toBe(false);
      if (!value.ok && (fault === 'silent' || fault === 'drip'))
        expect(value.error.message).toBe(`the mail server did not finish within ${DEADLINE_MS} ms`);
      expect(server.connections).toBe(before + 1);
      expect(ms).toBeLessThan(CEILING_MS);
      await expect
        .poll(() => server.closedConnections, { timeout: WAIT_CEILING_MS })
        .toBe(server.connections);
    });
  }
});

describe('the app with misbehaving webhook and mail servers', () => {
  let t: Awaited<ReturnType<typeof createReposTestApp>>;
  let webhook: Awaited<ReturnType<typeof startWebhookFaultServer>>;
  let smtp: Awaited<ReturnType<typeof startSmtpFaultServer>>;
  let member: Awaited<ReturnType<typeof signedInUser>>;

  beforeAll(async () => {
    webhook = await startWebhookFaultServer('silent');
    smtp = await startSmtpFaultServer('silent');
    t = await createReposTestApp({
      WEBHOOK_ALLOWED_HOSTS: webhook.host,
      WEBHOOK_TIMEOUT_MS: String(DEADLINE_MS),
      SMTP_URL: smtp.smtpUrl,
      SMTP_TIMEOUT_MS: String(DEADLINE_MS),
      JOB_POLL_MS: '50',
    });
    member = await signedInUser(t.app);
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/auth/me/slack-webhook',
      headers: member.headers,
      payload: { url: webhook.url },
    });
    expect(saved.statusCode).toBe(200);
  });

  afterAll(async () => {
    await t?.close();
    await webhook?.close();
    await smtp?.close();
  });

  const jobsOf = (kind: string) =>
    t.app.db
      .selectFrom('jobs')
      .select(['id', 'status', 'attempts', 'last_error'])
      .where('kind', '=', kind)
      .orderBy('id')
      .execute();

  it('adds answer `queued` while the webhook hangs, and the job records the time-out', async () => {
    webhook.setFault('silent');
    const before = webhook.received.length;
    const added = await t.app.inject({
      method: 'POST',
      url: '/repositories/',
      headers: member.headers,
      payload: { id: 'vuejs/core', notify_slack: true },
    });
    expect(added.statusCode).toBe(201);
    expect(added.json().notification).toEqual({ queued: true });
    // Slack had not even been asked when the add answered: the message leaves afterwards.
    expect(webhook.received.length).toBe(before);
    await expect
      .poll(async () => (await jobsOf('slack-message')).at(-1), { timeout: WAIT_CEILING_MS })
      .toMatchObject({ status: 'pending', attempts: 1, last_error: 'Slack did not answer in time' });
    expect(webhook.received.length).toBe(before + 1);
  });

  it('adds answer `queued` when the webhook floods its answer, and the job succeeds', async () => {
    webhook.setFault('huge-body');
    const added = await t.app.inject({
      method: 'POST',
      url: '/repositories/',
      headers: member.headers,
      payload: { id: 'sveltejs/svelte', notify_slack: true },
    });
    expect(added.json().notification).toEqual({ queued: true });
    await expect
      .poll(async () => (await jobsOf('slack-message')).at(-1), { timeout: WAIT_CEILING_MS })
      .toMatchObject({ status: 'succeeded', attempts: 1 });
  });

  it('answers a forgotten password at once while the mail server hangs; the queued mail keeps the error', async () => {
    smtp.setFault('silent');
    const closedBefore = smtp.closedConnections;
    const answer = await t.app.inject({
      method: 'POST',
      url: '/auth/forgot-password',
      payload: { email: member.email },
      remoteAddress: nextAddress(),
    });
    expect(answer.statusCode).toBe(200);
    // No delivery attempt had ended when the answer came: it was not waited for.
    expect(smtp.closedConnections).toBe(closedBefore);
    await expect
      .poll(async () => (await jobsOf('mail')).at(-1), { timeout: WAIT_CEILING_MS })
      .toMatchObject({
        status: 'pending',
        attempts: 1,
        last_error: `the mail server did not finish within ${DEADLINE_MS} ms`,
      });
  });
});
