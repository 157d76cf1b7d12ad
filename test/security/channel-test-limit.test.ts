import { describe, expect, it } from 'vitest';
import { CHANNEL_TEST_WINDOW_MS, CHANNEL_TESTS_PER_MEMBER } from '#shared/constants.ts';
import { login, signedInUser } from '../helpers/auth-factory.ts';
import { type Member, startNotificationsApp } from '../helpers/notifications-app.ts';

/**
 * Issue 22, item 6 (first half): "Send test" on a notification channel mails or posts at once
 * from the server's address, and nothing limited it: 15 e-mails and 15 webhook posts left in
 * 1.9 s, so a member could flood SMTP, Slack or Discord. Now CHANNEL_TESTS_PER_MEMBER tests per
 * member in CHANNEL_TEST_WINDOW_MS, whichever channel; past it a 429 with `retry_after`, and
 * nothing is sent.
 */
const n = startNotificationsApp();

const sendTest = (member: Member, channelId: number) => n.call(member, 'POST', `/channels/${channelId}/test`);

describe('Send test is limited per member', () => {
  it(`sends ${CHANNEL_TESTS_PER_MEMBER} tests in the window, over any channels, then refuses without sending`, async () => {
    const member = await signedInUser(n.t.app);
    const mail = await n.addChannel(member, { kind: 'email', name: 'Inbox' });
    const hook = await n.sinkChannel(member);
    const mailsBefore = n.mails.length;

    const statuses: number[] = [];
    let refused: Awaited<ReturnType<typeof sendTest>> | undefined;
    // 15 of each, alternating, as the report sent them.
    for (let index = 0; index < 30; index += 1) {
      const response = await sendTest(member, index % 2 === 0 ? mail.id : hook.channel.id);
      statuses.push(response.statusCode);
      if (response.statusCode === 429) refused ??= response;
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(CHANNEL_TESTS_PER_MEMBER);
    expect(statuses.slice(CHANNEL_TESTS_PER_MEMBER).every((status) => status === 429)).toBe(true);

    // What left the server is what was allowed: half mails, half posts.
    await expect
      .poll(() => n.mails.length - mailsBefore, { timeout: 5000, interval: 20 })
      .toBe(CHANNEL_TESTS_PER_MEMBER / 2);
    expect(hook.bodies()).toHaveLength(CHANNEL_TESTS_PER_MEMBER / 2);
    const tests = (await n.deliveries(member)).filter((delivery) => delivery.kind === 'test');
    expect(tests).toHaveLength(CHANNEL_TESTS_PER_MEMBER);

    const body = refused?.json();
    expect(body.retry_after).toBeGreaterThan(0);
    expect(body.retry_after).toBeLessThanOrEqual(CHANNEL_TEST_WINDOW_MS / 1000);
    expect(refused?.headers['retry-after']).toBe(String(body.retry_after));
    expect(body.message).toMatch(
      new RegExp(
        `^You can send ${CHANNEL_TESTS_PER_MEMBER} test messages every 15 minutes\\. Try again in \\d+ minutes?\\.$`,
      ),
    );
  });

  it('counts each member on their own, and gives the tests back when the window ends', async () => {
    const first = await signedInUser(n.t.app);
    const second = await signedInUser(n.t.app);
    const own = await n.sinkChannel(first);
    const theirs = await n.sinkChannel(second);
    for (let index = 0; index < CHANNEL_TESTS_PER_MEMBER; index += 1) {
      expect((await sendTest(first, own.channel.id)).statusCode).toBe(200);
    }
    expect((await sendTest(first, own.channel.id)).statusCode).toBe(429);
    // Another member's tests are theirs.
    expect((await sendTest(second, theirs.channel.id)).statusCode).toBe(200);
    // A new window (and, the access token having lived 15 minutes too, a new sign-in).
    n.clock.advance(CHANNEL_TEST_WINDOW_MS / 1000 + 1);
    const session = await login(n.t.app, { email_or_username: first.email, password: first.password });
    const again = { ...first, headers: { authorization: `Bearer ${session.access_token}` } };
    expect((await sendTest(again, own.channel.id)).statusCode).toBe(200);
  });
});
