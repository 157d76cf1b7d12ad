import { beforeAll, describe, expect, it } from 'vitest';
import type { Rule } from '#shared/schemas/notifications.ts';
import { signedInUser } from '../../../test/helpers/auth-factory.ts';
import { startNotificationsApp } from '../../../test/helpers/notifications-app.ts';
import type { TestApp } from '../../../test/helpers/test-app.ts';
import type { startWebhookSink } from '../../../test/helpers/webhook-sink.ts';

/**
 * A member's notification settings through the API (docs/product.md#notification-rules): their
 * own channels and rules only, the URL guard on every channel kind (on save and again at send
 * time), URLs stored write-only, and "Send test". Every test makes its own members and
 * channels; sink paths are unique per test.
 */

const kit = startNotificationsApp();
const { clock, DNS, call, addChannel, sinkChannel, addRule, repository, release, record } = kit;
const { settings, engine, deliveries, settled } = kit;
let t: TestApp;
let sink: Awaited<ReturnType<typeof startWebhookSink>>;
beforeAll(() => {
  t = kit.t;
  sink = kit.sink;
});

describe('channels API', () => {
  it('stores URLs write-only: answers show the host and last four characters at most', async () => {
    const member = await signedInUser(t.app);
    const url = 'https://discord.com/api/webhooks/123/SECRETsecretTOKEN9xyz';
    const created = await addChannel(member, { kind: 'discord', name: ' Team Discord ', url });
    expect(created).toMatchObject({
      kind: 'discord',
      name: 'Team Discord',
      target: 'discord.com …9xyz',
      enabled: true,
      failures: 0,
    });
    const listed = await call(member, 'GET', '/channels');
    expect(listed.body).not.toContain('SECRETsecret');
    expect(listed.json().channels).toEqual([created]);
    const row = await t.app.db
      .selectFrom('notification_channels')
      .selectAll()
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(row.url_enc).not.toContain('SECRET');
    // Sealed for its own row: copied into another row it no longer opens.
    const mail = await addChannel(member, { kind: 'email', name: 'Inbox' });
    expect(mail.target).toBe(member.email.toLowerCase());
    await t.app.db
      .updateTable('notification_channels')
      .set({ url_enc: row.url_enc, kind: 'webhook' })
      .where('id', '=', mail.id)
      .execute();
    const test = await call(member, 'POST', `/channels/${mail.id}/test`);
    expect(test.json()).toEqual({
      sent: false,
      message: 'The stored URL cannot be opened with this SECRET_KEY; save it again',
    });
  });

  it.each([
    [{ kind: 'webhook', name: 'x', url: 'https://evil.example.org/hook' }, 'Webhook URL must point to'],
    [{ kind: 'webhook', name: 'x', url: 'http://hooks.example.com/hook' }, 'Webhook URL must use https'],
    [
      { kind: 'webhook', name: 'x', url: 'https://internal.example.com/hook' },
      'Webhook host internal.example.com resolves to a private or reserved address',
    ],
    [
      { kind: 'webhook', name: 'x', url: 'https://user:pw@hooks.example.com/h' },
      'must not contain credentials',
    ],
    [
      { kind: 'discord', name: 'x', url: 'https://10.0.0.7/api/webhooks/1/a' },
      'Discord webhook URL must point to',
    ],
    [
      { kind: 'discord', name: 'x', url: 'https://discord.com/channels/1' },
      'https://discord.com/api/webhooks/',
    ],
    [
      { kind: 'discord', name: 'x', url: 'http://discord.com/api/webhooks/1/a' },
      'Discord webhook URL must use https',
    ],
    [{ kind: 'webhook', name: 'x' }, 'Webhook URL is required'],
    [
      { kind: 'email', name: 'x', url: 'https://hooks.example.com/h' },
      'E-mail channels have no URL of their own',
    ],
    [{ kind: 'pager', name: 'x' }, 'Choose Slack, Webhook, Discord or E-mail'],
  ])('refuses channel %j', async (body, message) => {
    const member = await signedInUser(t.app);
    const response = await call(member, 'POST', '/channels', body);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
    expect((await call(member, 'GET', '/channels')).json().channels).toEqual([]);
  });

  it('checks a new URL like a first one, and a new URL clears the failures', async () => {
    const member = await signedInUser(t.app);
    const channel = await addChannel(member, {
      kind: 'webhook',
      name: 'Hook',
      url: 'https://hooks.example.com/a',
    });
    const refused = await call(member, 'PATCH', `/channels/${channel.id}`, {
      url: 'https://internal.example.com/a',
    });
    expect(refused.statusCode).toBe(400);
    await t.app.db
      .updateTable('notification_channels')
      .set({ enabled: 0, failures: 5, disabled_reason: 'broken', disabled_at: clock.now().toISOString() })
      .where('id', '=', channel.id)
      .execute();
    const changed = await call(member, 'PATCH', `/channels/${channel.id}`, {
      name: 'Renamed',
      url: 'https://hooks.example.com/b-new1',
    });
    expect(changed.json()).toMatchObject({
      name: 'Renamed',
      target: 'hooks.example.com …new1',
      enabled: true,
      failures: 0,
      disabled_reason: null,
    });
  });

  it('a Slack channel uses the stored Slack webhook, and needs one', async () => {
    const member = await signedInUser(t.app);
    const without = await call(member, 'POST', '/channels', { kind: 'slack', name: 'Slack' });
    expect(without.statusCode).toBe(400);
    expect(without.json().message).toBe('Store a Slack webhook under GitHub Access first');
    await t.app.services.me.setSlackWebhook(member.id, sink.url('/services/T1/B1/notify'));
    const channel = await addChannel(member, { kind: 'slack', name: 'Slack' });
    expect(channel.target).toBe('Your Slack webhook (GitHub Access)');
    const repo = await repository('acme/slacked');
    await addRule(member, { channel_id: channel.id, event_types: null, tags: null, cadence: 'instant' });
    await record(release(repo.id, 'v1.0.0'));
    await engine().dispatch();
    await settled(member, 1);
    const [message] = sink.received.filter((entry) => entry.path === '/services/T1/B1/notify');
    expect(message?.body.text).toBe(`${repo.full_name} published release v1.0.0`);
    expect(JSON.stringify(message?.body.blocks)).toContain(`<${repo.url}|${repo.full_name}>`);
  });

  it("another member's channels and rules answer 404, like missing ones", async () => {
    const owner = await signedInUser(t.app);
    const other = await signedInUser(t.app);
    const channel = await addChannel(owner, { kind: 'email', name: 'Mine' });
    const rule = await addRule(owner, {
      channel_id: channel.id,
      event_types: null,
      tags: null,
      cadence: 'daily',
    });
    for (const [method, url, payload] of [
      ['PATCH', `/channels/${channel.id}`, { name: 'Taken' }],
      ['DELETE', `/channels/${channel.id}`, undefined],
      ['POST', `/channels/${channel.id}/enable`, undefined],
      ['POST', `/channels/${channel.id}/test`, undefined],
      ['PATCH', `/rules/${rule.id}`, { cadence: 'weekly' }],
      ['DELETE', `/rules/${rule.id}`, undefined],
      ['PATCH', '/rules/999999', { cadence: 'weekly' }],
    ] as const) {
      const response = await call(other, method, url, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    // A rule can't point at someone else's channel either.
    const own = await addChannel(other, { kind: 'email', name: 'Theirs' });
    const borrowed = await call(other, 'POST', '/rules', {
      channel_id: channel.id,
      event_types: null,
      tags: null,
      cadence: 'instant',
    });
    expect(borrowed.statusCode).toBe(400);
    expect(borrowed.json().fields).toEqual({ channel_id: 'Choose one of your channels' });
    expect((await call(other, 'GET', '/rules')).json().rules).toEqual([]);
    expect((await call(owner, 'GET', '/rules')).json().rules).toEqual([rule]);
    expect(own.id).not.toBe(channel.id);
    expect((await call(null, 'GET', '/channels')).statusCode).toBe(401);
  });
});

describe('rules API', () => {
  it('creates, changes and removes rules; every type listed is stored as all', async () => {
    const member = await signedInUser(t.app);
    const channel = await addChannel(member, { kind: 'email', name: 'Inbox' });
    const rule = await addRule(member, {
      channel_id: channel.id,
      event_types: ['release_published', 'archived', 'release_published'],
      tags: ['Frontend', 'frontend', ' infra '],
      cadence: 'instant',
    });
    expect(rule).toMatchObject({
      event_types: ['release_published', 'archived'],
      tags: ['Frontend', 'infra'],
      cadence: 'instant',
      enabled: true,
    });
    const all = await call(member, 'PATCH', `/rules/${rule.id}`, {
      event_types: [
        'repository_added',
        'release_published',
        'archived',
        'unarchived',
        'license_changed',
        'renamed',
        'gone',
        'description_changed',
        'topics_changed',
        'star_milestone',
        'stale',
        'health_dropped',
        'advisory_published',
        'decision_changed',
        'proposal_opened',
        'proposal_accepted',
        'proposal_declined',
        'review_due',
        'adopted_at_risk',
      ],
      cadence: 'weekly',
      enabled: false,
    });
    expect(all.json()).toMatchObject({ event_types: null, cadence: 'weekly', enabled: false });
    const bad = await call(member, 'POST', '/rules', {
      channel_id: channel.id,
      event_types: [],
      tags: ['a,b'],
      cadence: 'hourly',
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields).sort()).toEqual(['cadence', 'event_types', 'tags.0']);
    expect((await call(member, 'DELETE', `/rules/${rule.id}`)).json()).toEqual({ message: 'Rule removed' });
    // Removing a channel removes its rules.
    const second = await addRule(member, {
      channel_id: channel.id,
      event_types: null,
      tags: null,
      cadence: 'daily',
    });
    expect((await call(member, 'DELETE', `/channels/${channel.id}`)).statusCode).toBe(200);
    expect((await call(member, 'GET', '/rules')).json().rules.map((r: Rule) => r.id)).not.toContain(
      second.id,
    );
  });
});

describe('Send test', () => {
  it('answers with the outcome and records it as a delivery', async () => {
    const member = await signedInUser(t.app);
    const { channel, bodies } = await sinkChannel(member);
    const ok = await call(member, 'POST', `/channels/${channel.id}/test`);
    expect(ok.json()).toEqual({ sent: true, message: 'Test message sent' });
    expect(bodies()[0]?.body).toMatchObject({ type: 'test', kind: 'test', events: [] });

    sink.fail(500);
    const failed = await call(member, 'POST', `/channels/${channel.id}/test`);
    sink.fail(null);
    expect(failed.json()).toEqual({ sent: false, message: 'The webhook answered HTTP 500' });

    // A receiver that never answers: the answer still comes, at the webhook deadline.
    sink.silence();
    const silent = await call(member, 'POST', `/channels/${channel.id}/test`);
    sink.fail(null);
    expect(silent.json()).toEqual({ sent: false, message: 'The webhook did not answer in time' });

    const rows = await deliveries(member);
    expect(rows.map((row) => [row.kind, row.status])).toEqual([
      ['test', 'sent'],
      ['test', 'failed'],
      ['test', 'failed'],
    ]);
    // A test is the member checking: it leaves the failure count alone.
    expect((await settings().listChannels(member.id))[0]?.failures).toBe(0);

    const mail = await addChannel(member, { kind: 'email', name: 'Inbox' });
    expect((await call(member, 'POST', `/channels/${mail.id}/test`)).json()).toEqual({
      sent: true,
      message: `Test e-mail queued for ${member.email.toLowerCase()}`,
    });
  });

  it('checks the URL again at send time: a host now resolving privately is refused', async () => {
    const member = await signedInUser(t.app);
    const channel = await addChannel(member, {
      kind: 'webhook',
      name: 'Hook',
      url: 'https://hooks.example.com/x',
    });
    DNS['hooks.example.com'] = ['192.168.1.20'];
    try {
      const response = await call(member, 'POST', `/channels/${channel.id}/test`);
      expect(response.json()).toEqual({
        sent: false,
        message: 'Webhook host hooks.example.com resolves to a private or reserved address',
      });
    } finally {
      DNS['hooks.example.com'] = ['93.184.216.34'];
    }
  });
});
