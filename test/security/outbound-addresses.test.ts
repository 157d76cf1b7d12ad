import { describe, expect, it } from 'vitest';
import { signedInUser } from '../helpers/auth-factory.ts';
import { type Member, startNotificationsApp } from '../helpers/notifications-app.ts';

/**
 * Issue 22, item 7 (outbound requests):
 *
 * - The address guard let through IPv6 forms that carry a loopback or private IPv4 address: the
 *   IPv4-compatible `::7f00:1`, the IPv4-translated `::ffff:0:7f00:1`, NAT64 (`64:ff9b::/96`
 *   and the local-use `64:ff9b:1::/48`) and 6to4 (`2002::/16`). A listed host whose DNS answers
 *   one of them must be refused on save and at send time, as `10.1.2.3` is.
 * - A refused channel URL listed the whole WEBHOOK_ALLOWED_HOSTS to the member. It now says only
 *   that this host is not allowed.
 */
const n = startNotificationsApp();

const HOST = 'hooks.example.com';
const PUBLIC_ADDRESS = '93.184.216.34';
const REFUSED = `Webhook host ${HOST} resolves to a private or reserved address`;

async function saveWebhook(member: Member, url = `https://${HOST}/hook`) {
  return n.call(member, 'POST', '/channels', { kind: 'webhook', name: 'Hook', url });
}

/** Runs `work` while the listed host resolves to `addresses`. */
async function whileResolving<T>(addresses: string[], work: () => Promise<T>): Promise<T> {
  n.DNS[HOST] = addresses;
  try {
    return await work();
  } finally {
    n.DNS[HOST] = [PUBLIC_ADDRESS];
  }
}

describe('IPv6 forms that carry a private IPv4 address', () => {
  it.each([
    ['IPv4-compatible loopback', '::7f00:1'],
    ['IPv4-compatible, dotted', '::127.0.0.1'],
    ['IPv4-translated loopback', '::ffff:0:7f00:1'],
    ['IPv4-mapped metadata address', '::ffff:169.254.169.254'],
    ['NAT64 well-known prefix, loopback', '64:ff9b::7f00:1'],
    ['NAT64 well-known prefix, private', '64:ff9b::10.1.2.3'],
    ['NAT64 local-use prefix', '64:ff9b:1::7f00:1'],
    ['6to4 of loopback', '2002:7f00:1::1'],
    ['6to4 of a private network', '2002:c0a8:101::1'],
    ['Teredo', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
  ])('refuses a listed host resolving to %s (%s) on save', async (_, address) => {
    const member = await signedInUser(n.t.app);
    const response = await whileResolving([address], () => saveWebhook(member));
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().fields.url).toBe(REFUSED);
  });

  it('refuses it at send time too, when the name changes its answer after the save', async () => {
    const member = await signedInUser(n.t.app);
    const saved = await saveWebhook(member);
    expect(saved.statusCode, saved.body).toBe(201);
    const test = await whileResolving(['2002:7f00:1::1'], () =>
      n.call(member, 'POST', `/channels/${saved.json().id}/test`),
    );
    expect(test.statusCode).toBe(200);
    expect(test.json()).toEqual({ sent: false, message: REFUSED });
  });

  it('still accepts the public addresses such forms carry (a DNS64 network names public hosts so)', async () => {
    for (const address of ['64:ff9b::808:808', '::ffff:93.184.216.34', '2606:4700::1111']) {
      const member = await signedInUser(n.t.app);
      const response = await whileResolving([address], () => saveWebhook(member));
      expect(response.statusCode, `${address}: ${response.body}`).toBe(201);
    }
  });
});

describe('a URL on a host the operator did not list', () => {
  const listed = () => ['hooks.slack.com', 'discord.com', HOST, 'internal.example.com', n.sink.host];

  it.each([
    ['webhook', 'https://evil.example.org/hook', 'Webhook URL'],
    ['discord', 'https://10.0.0.7/api/webhooks/1/a', 'Discord webhook URL'],
  ])('a %s channel is told this host is not allowed, never which ones are', async (kind, url, label) => {
    const member = await signedInUser(n.t.app);
    const response = await n.call(member, 'POST', '/channels', { kind, name: 'x', url });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.fields.url).toBe(`${label} must point to an allowed host: this host is not allowed`);
    for (const host of listed()) expect(response.body).not.toContain(host);
  });

  it('the Slack webhook under GitHub Access says the same', async () => {
    const member = await signedInUser(n.t.app);
    const response = await n.t.app.inject({
      method: 'PUT',
      url: '/auth/me/slack-webhook',
      headers: member.headers,
      payload: { url: 'https://evil.example/services/x' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields.url).toBe(
      'Slack webhook URL must point to an allowed host: this host is not allowed',
    );
    for (const host of listed()) expect(response.body).not.toContain(host);
  });
});
