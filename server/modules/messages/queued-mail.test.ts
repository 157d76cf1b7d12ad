import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRegistration, createUser, nextAddress } from '../../../test/helpers/auth-factory.ts';
import { createFakeClock } from '../../../test/helpers/fake-clock.ts';
import { startSmtpFaultServer } from '../../../test/helpers/mail-webhook-faults.ts';
import { startSmtpSink } from '../../../test/helpers/smtp-sink.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { MAIL_JOB } from './messages.jobs.ts';

/**
 * Mail leaves after the answer (issue 9, finding 5): with a mail server that never answers,
 * register, resend-verification and forgot-password still answer at once; the message waits
 * in the job queue, sealed, and is delivered once the server works again, then deleted.
 */
// Long enough that the three answers below (two password hashes among them) all come before the
// first attempt gives up, even on a busy machine: at 400 ms one attempt ended first under load.
const SMTP_TIMEOUT_MS = 2000;
const clock = createFakeClock();
let t: TestApp;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let smtp: Awaited<ReturnType<typeof startSmtpFaultServer>>;

beforeAll(async () => {
  sink = await startSmtpSink();
  const target = new URL(sink.smtpUrl);
  smtp = await startSmtpFaultServer('silent', { host: target.hostname, port: Number(target.port) });
  t = await createTestApp(
    {
      SMTP_URL: smtp.smtpUrl,
      SMTP_TIMEOUT_MS: String(SMTP_TIMEOUT_MS),
      PUBLIC_URL: 'https://tracker.example.com',
    },
    { clock },
  );
  await t.app.inject({ method: 'POST', url: '/auth/register', payload: buildRegistration() }); // the admin: no mail
});

afterAll(async () => {
  await t?.close();
  await smtp?.close();
  await sink?.close();
});

const post = (url: string, payload: object) =>
  t.app.inject({ method: 'POST', url, payload, remoteAddress: nextAddress() });

const mailJobs = () =>
  t.app.db.selectFrom('jobs').selectAll().where('kind', '=', MAIL_JOB.name).orderBy('id').execute();

describe('mail through the job queue', () => {
  it('answers before delivery while SMTP hangs, and delivers once SMTP works', async () => {
    const user = await createUser(t.app, { is_verified: true });
    const registration = buildRegistration();
    const unverified = await createUser(t.app, { is_verified: false });

    const answers = [
      await post('/auth/forgot-password', { email: user.email }),
      await post('/auth/register', registration),
      await post('/auth/resend-verification', { email: unverified.email }),
    ];
    // Every answer came before any delivery attempt ended: the hanging server held none of them.
    expect(smtp.closedConnections).toBe(0);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 201, 200]);
    expect(answers[1]?.json().message).toBe(
      'Registration successful! Please check your email to verify your account.',
    );

    // The messages wait in the queue, sealed: no address, link or token readable in the row.
    const queued = await mailJobs();
    expect(queued).toHaveLength(3);
    for (const job of queued) {
      expect(job.payload).not.toMatch(/@example\.com|tracker\.example\.com|token/i);
      expect(JSON.parse(job.payload).sealed).toMatch(/^v1\./);
    }

    // First attempts end at the SMTP deadline and wait for their retry (back-off on the app clock).
    const failedOnce = ['pending', 1, null, `the mail server did not finish within ${SMTP_TIMEOUT_MS} ms`];
    await expect
      .poll(
        async () =>
          (await mailJobs()).map((job) => [job.status, job.attempts, job.lease_owner, job.last_error]),
        { timeout: SMTP_TIMEOUT_MS + 3000 },
      )
      .toEqual([failedOnce, failedOnce, failedOnce]);
    expect(sink.mails).toHaveLength(0);

    // The mail server works again; the retry's time comes.
    smtp.setFault('forward');
    clock.advance(10);
    t.app.services.jobs.wake();
    const reset = await sink.waitForMail(user.email, (mail) => mail.subject.startsWith('Reset'));
    expect(reset.link).toMatch(/^https:\/\/tracker\.example\.com\/#\/reset-password\?token=/);
    await sink.waitForMail(registration.email, (mail) => mail.subject.startsWith('Verify'));
    await sink.waitForMail(unverified.email, (mail) => mail.subject.startsWith('Verify'));
    // Sent mail leaves nothing behind.
    await expect.poll(mailJobs).toEqual([]);

    const token = new URL(reset.link?.replace('#/', '') ?? '').searchParams.get('token');
    const changed = await post('/auth/reset-password', { token, new_password: 'BrandNewPassw0rd' });
    expect(changed.statusCode).toBe(200);
  });
});
