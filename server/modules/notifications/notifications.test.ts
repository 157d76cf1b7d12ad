import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewEvent } from '../../../shared/schemas/activity.ts';
import type { Channel, Delivery, Rule } from '../../../shared/schemas/notifications.ts';
import { signedInUser } from '../../../test/helpers/auth-factory.ts';
import { createFakeClock } from '../../../test/helpers/fake-clock.ts';
import { buildRepositoryRow } from '../../../test/helpers/repository-row.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { startWebhookSink } from '../../../test/helpers/webhook-sink.ts';
import { grantAccess, insertRepository } from '../../repository/repository.queries.ts';
import { insertEvents } from '../activity/events.queries.ts';
import type { MailMessage } from '../messages/mail-transport.ts';
import { CHANNEL_DELIVERY_JOB } from '../messages/messages.jobs.ts';
import {
  digestCadences,
  NOTIFY_DIGEST_JOB,
  NOTIFY_DISPATCH_JOB,
  notificationJobs,
} from './notifications.jobs.ts';

/**
 * Notification rules end to end through the app (docs/product.md#notification-rules): the API
 * on the member's own rows, the URL guard on every channel kind, the dispatcher's matching by
 * type and tag and per-recipient visibility, digests, deliveries on the real job queue with
 * retries against a failing sink, auto-disable and re-enable, and "Send test". Events are
 * written with insertEvents, as the activity and release code does. Every test makes its own
 * members and channels; sink paths are unique per test, so other tests' rules never mix in.
 */

const clock = createFakeClock(new Date('2026-11-25T10:00:00.000Z'));
const mails: MailMessage[] = [];
let t: TestApp;
let sink: Awaited<ReturnType<typeof startWebhookSink>>;
let sequence = 0;

/** Public addresses for the listed public hosts, a private one for the host that must be refused. */
const DNS: Record<string, string[]> = {
  'hooks.example.com': ['93.184.216.34'],
  'discord.com': ['162.159.128.233'],
  'hooks.slack.com': ['52.1.2.3'],
  'internal.example.com': ['10.1.2.3'],
};

beforeAll(async () => {
  sink = await startWebhookSink();
  t = await createTestApp(
    {
      WEBHOOK_ALLOWED_HOSTS: `hooks.slack.com,discord.com,hooks.example.com,internal.example.com,${sink.host}`,
      WEBHOOK_TIMEOUT_MS: '500',
      JOB_POLL_MS: '20',
    },
    {
      clock,
      resolve: async (host) => DNS[host] ?? [],
      mailer: {
        async send(message) {
          mails.push(message);
        },
        close() {},
      },
    },
  );
});

afterAll(async () => {
  await t?.close();
  await sink?.close();
});

type Member = Awaited<ReturnType<typeof signedInUser>>;

function call(
  member: Member | null,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
) {
  return t.app.inject({
    method,
    url: `/auth/me/notifications${url}`,
    headers: member?.headers ?? {},
    ...(payload ? { payload } : {}),
  });
}

async function addChannel(member: Member, body: object): Promise<Channel> {
  const response = await call(member, 'POST', '/channels', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

/** A webhook channel on the sink with a path of its own. */
async function sinkChannel(member: Member, kind: 'webhook' | 'discord' = 'webhook') {
  sequence += 1;
  const path = `/hook/${kind}-${sequence}`;
  const channel = await addChannel(member, { kind, name: `${kind} ${sequence}`, url: sink.url(path) });
  return { channel, path, bodies: () => sink.received.filter((entry) => entry.path === path) };
}

async function addRule(member: Member, body: object): Promise<Rule> {
  const response = await call(member, 'POST', '/rules', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

async function repository(name: string, options: { tags?: string; private?: boolean } = {}) {
  sequence += 1;
  const now = clock.now().toISOString();
  const row = buildRepositoryRow(`${name}-${sequence}`, 700_000 + sequence, {
    license: 'MIT',
    tags: options.tags ?? '',
    stars: 10,
    forks: 1,
    commits: 5,
    language: 'TypeScript',
    private: options.private ? 1 : 0,
    last_commit: now,
    last_synced: now,
    created_at: now,
    updated_at: now,
  });
  return insertRepository(t.app.db, row, new Date(clock.now().getTime() + 86_400_000));
}

function release(repositoryId: number, tag: string): NewEvent {
  return {
    type: 'release_published',
    repository_id: repositoryId,
    data: { tag, name: null, url: null, prerelease: false },
  };
}

async function record(...events: NewEvent[]) {
  await insertEvents(t.app.db, events, clock.now().toISOString());
}

const settings = () => t.app.services.notificationSettings;
const engine = () => t.app.services.notificationDelivery;

async function deliveries(member: Member): Promise<Delivery[]> {
  return (await settings().listDeliveries(member.id)).reverse();
}

/** Waits until the member's deliveries are no longer pending (the worker runs them at once). */
async function settled(member: Member, count: number): Promise<Delivery[]> {
  let rows: Delivery[] = [];
  await expect
    .poll(
      async () => {
        rows = await deliveries(member);
        return rows.filter((row) => row.status !== 'pending').length;
      },
      { timeout: 5000, interval: 20 },
    )
    .toBe(count);
  return rows;
}

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

describe('dispatching', () => {
  it('matches rules by event type and by tag, case-insensitively', async () => {
    const member = await signedInUser(t.app);
    const { channel, bodies } = await sinkChannel(member);
    await addRule(member, {
      channel_id: channel.id,
      event_types: ['release_published', 'archived'],
      tags: ['FrontEnd'],
      cadence: 'instant',
    });
    const tagged = await repository('acme/web', { tags: 'frontend,ui' });
    const untagged = await repository('acme/api', { tags: 'backend' });
    await record(
      release(tagged.id, 'v2.0.0'),
      { type: 'archived', repository_id: tagged.id, data: {} },
      { type: 'star_milestone', repository_id: tagged.id, data: { milestone: 1000, stars: 1004 } },
      release(untagged.id, 'v9.9.9'),
    );
    const outcome = await engine().dispatch();
    expect(outcome.events).toBeGreaterThanOrEqual(4);
    const rows = await settled(member, 2);
    expect(rows.map((row) => [row.kind, row.status, row.summary])).toEqual([
      ['instant', 'sent', `${tagged.full_name} published release v2.0.0`],
      ['instant', 'sent', `${tagged.full_name} was archived`],
    ]);
    // Deliveries run side by side: find the release's message whatever order they arrived in.
    const first = bodies().find(
      (entry) => (entry.body.event as { type: string }).type === 'release_published',
    );
    expect(first?.body).toMatchObject({
      type: 'notification',
      kind: 'instant',
      text: `${tagged.full_name} published release v2.0.0`,
      repository: { id: tagged.full_name, url: tagged.url },
      event: { type: 'release_published', data: { tag: 'v2.0.0' } },
    });
    expect(bodies()).toHaveLength(2);
    // The cursor moved on: dispatching again sends nothing twice.
    await engine().dispatch();
    expect((await deliveries(member)).length).toBe(2);
  });

  it('sends a private repository only to members who can see it, checked again at send time', async () => {
    const withAccess = await signedInUser(t.app);
    const without = await signedInUser(t.app);
    const admin = await signedInUser(t.app, { is_admin: true });
    const secret = await repository('acme/secret', { private: true });
    await grantAccess(t.app.db, secret.id, withAccess.id, clock.now().toISOString());
    const sinks = [];
    for (const member of [withAccess, without, admin]) {
      const target = await sinkChannel(member);
      await addRule(member, {
        channel_id: target.channel.id,
        event_types: null,
        tags: null,
        cadence: 'instant',
      });
      sinks.push(target);
    }
    await record(release(secret.id, 'v0.1.0'));
    await engine().dispatch();
    await settled(withAccess, 1);
    await settled(admin, 1);
    expect(await deliveries(without)).toEqual([]);
    expect(sinks[0]?.bodies()).toHaveLength(1);
    expect(sinks[1]?.bodies()).toHaveLength(0);
    expect(JSON.stringify(sinks[2]?.bodies())).toContain(secret.full_name);

    // Access ends between dispatch and send: the delivery is skipped, nothing leaves.
    await t.app.services.jobs.stop();
    try {
      await record(release(secret.id, 'v0.2.0'));
      await engine().dispatch();
      await t.app.db.deleteFrom('repository_access').where('repository_id', '=', secret.id).execute();
    } finally {
      t.app.services.jobs.start();
    }
    const rows = await settled(withAccess, 2);
    expect(rows[1]).toMatchObject({ status: 'skipped', last_error: 'Nothing left that you can see' });
    expect(sinks[0]?.bodies()).toHaveLength(1);
  });

  it('formats Discord as content with an embed per repository, and never pings', async () => {
    const member = await signedInUser(t.app);
    const { channel, bodies } = await sinkChannel(member, 'discord');
    await addRule(member, {
      channel_id: channel.id,
      event_types: ['license_changed'],
      tags: null,
      cadence: 'instant',
    });
    const repo = await repository('acme/@everyone');
    await record({
      type: 'license_changed',
      repository_id: repo.id,
      data: { from: 'MIT', to: 'Apache-2.0' },
    });
    await engine().dispatch();
    await settled(member, 1);
    expect(bodies()[0]?.body).toEqual({
      content: `${repo.full_name} changed its licence from MIT to Apache-2.0`,
      embeds: [
        { title: repo.full_name, url: repo.url, description: '• changed its licence from MIT to Apache-2.0' },
      ],
      allowed_mentions: { parse: [] },
    });
  });

  it('e-mails through the queued mailer with a text body', async () => {
    const member = await signedInUser(t.app);
    const channel = await addChannel(member, { kind: 'email', name: 'Inbox' });
    await addRule(member, { channel_id: channel.id, event_types: ['gone'], tags: null, cadence: 'instant' });
    const repo = await repository('acme/vanished');
    await record({ type: 'gone', repository_id: repo.id, data: {} });
    await engine().dispatch();
    await settled(member, 1);
    await expect.poll(() => mails.find((mail) => mail.to === member.email.toLowerCase())).toBeTruthy();
    const mail = mails.find((entry) => entry.to === member.email.toLowerCase());
    expect(mail?.subject).toBe(`[Repository Tracker] ${repo.full_name} is gone from GitHub`);
    expect(mail?.text).toContain(repo.url);
  });
});

describe('digests', () => {
  it('sends one message listing every event, grouped by repository, exactly once', async () => {
    const member = await signedInUser(t.app);
    const { channel, bodies } = await sinkChannel(member);
    const rule = await addRule(member, {
      channel_id: channel.id,
      event_types: null,
      tags: ['lib'],
      cadence: 'daily',
    });
    const weekly = await sinkChannel(member);
    await addRule(member, {
      channel_id: weekly.channel.id,
      event_types: null,
      tags: ['lib'],
      cadence: 'weekly',
    });
    const first = await repository('acme/one', { tags: 'lib' });
    const second = await repository('acme/two', { tags: 'lib' });
    await record(
      release(first.id, 'v1'),
      release(second.id, 'v7'),
      { type: 'star_milestone', repository_id: first.id, data: { milestone: 5000, stars: 5010 } },
      { type: 'topics_changed', repository_id: second.id, data: { added: ['cli'], removed: ['old'] } },
    );
    await engine().dispatch();
    expect(await deliveries(member)).toEqual([]);

    // The tick is claimed once across instances; a Tuesday sends daily digests only.
    const runAt = new Date(2026, 11, 1, 8, 0, 0);
    const tick = { runAt, until: new Date(runAt.getTime() + 86_400_000) };
    expect(digestCadences(runAt)).toEqual(['daily']);
    expect(digestCadences(new Date(2026, 10, 30, 8))).toEqual(['daily', 'weekly']);
    const registry = t.app.services.registry;
    const jobId = await registry.tick(NOTIFY_DIGEST_JOB.name, { holder: 'instance-a', ...tick });
    expect(jobId).toBeGreaterThan(0);
    expect(await registry.tick(NOTIFY_DIGEST_JOB.name, { holder: 'instance-b', ...tick })).toBeNull();
    await expect
      .poll(async () => {
        const job = await t.app.db
          .selectFrom('jobs')
          .select('status')
          .where('id', '=', Number(jobId))
          .executeTakeFirst();
        return job?.status;
      })
      .toBe('succeeded');
    const rows = await settled(member, 1);
    expect(rows[0]).toMatchObject({
      kind: 'daily',
      rule_id: rule.id,
      status: 'sent',
      event_count: 4,
      summary: 'Repository Tracker daily digest: 4 events in 2 repositories',
    });
    const body = bodies()[0]?.body as {
      text: string;
      events: unknown[];
      repositories: { id: string; event_ids: number[] }[];
    };
    expect(bodies()).toHaveLength(1);
    expect(body.events).toHaveLength(4);
    expect(body.repositories.map((group) => [group.id, group.event_ids.length])).toEqual([
      [first.full_name, 2],
      [second.full_name, 2],
    ]);
    // Again: nothing is waiting any more, so no second message.
    expect(await engine().sendDigests(['daily'])).toBe(0);
    expect(weekly.bodies()).toHaveLength(0);
    // Monday's run sends the weekly one.
    expect(await engine().sendDigests(['daily', 'weekly'])).toBe(1);
    await settled(member, 2);
    expect(weekly.bodies()[0]?.body.text).toBe(
      'Repository Tracker weekly digest: 4 events in 2 repositories',
    );
    const jobs = await t.app.db
      .selectFrom('jobs')
      .select('kind')
      .where('kind', '=', NOTIFY_DIGEST_JOB.name)
      .execute();
    expect(jobs).toHaveLength(1);
  });

  it('renders a digest as Slack blocks and as e-mail text, grouped by repository', async () => {
    const member = await signedInUser(t.app);
    const channel = await addChannel(member, { kind: 'email', name: 'Inbox' });
    await addRule(member, {
      channel_id: channel.id,
      event_types: ['stale', 'renamed'],
      tags: null,
      cadence: 'weekly',
    });
    const repo = await repository('acme/quiet');
    await record(
      { type: 'stale', repository_id: repo.id, data: { last_commit: null, days: 181 } },
      { type: 'renamed', repository_id: repo.id, data: { from: 'acme/loud', to: repo.full_name } },
    );
    await engine().sendDigests(['weekly']);
    await settled(member, 1);
    await expect.poll(() => mails.some((mail) => mail.to === member.email.toLowerCase())).toBe(true);
    const mail = mails.find((entry) => entry.to === member.email.toLowerCase());
    expect(mail?.text.split('\n').slice(0, 5)).toEqual([
      'Repository Tracker weekly digest: 2 events in 1 repository',
      '',
      `${repo.full_name} (${repo.url})`,
      '  • has had no commit for 181 days',
      `  • was renamed from acme/loud to ${repo.full_name}`,
    ]);
  });
});

describe('deliveries: retries and auto-disable', () => {
  it('retries with back-off, turns the channel off after five failures in a row, and re-enables', async () => {
    const member = await signedInUser(t.app);
    const { channel, bodies } = await sinkChannel(member);
    await addRule(member, { channel_id: channel.id, event_types: null, tags: null, cadence: 'instant' });
    const repo = await repository('acme/flaky');
    sink.fail(503);
    try {
      await record(release(repo.id, 'v1'));
      await engine().dispatch();
      const [pending] = await deliveries(member);
      const jobOf = () =>
        t.app.db
          .selectFrom('jobs')
          .select(['status', 'attempts', 'run_at', 'lease_owner'])
          .where('kind', '=', CHANNEL_DELIVERY_JOB.name)
          .where('payload', '=', JSON.stringify({ delivery_id: pending?.id }))
          .executeTakeFirstOrThrow();
      for (let attempt = 1; attempt < 5; attempt += 1) {
        // Put back after the attempt: due again after the back-off (10 s, 20 s, 40 s, 80 s).
        await expect
          .poll(
            async () => {
              const job = await jobOf();
              return job.lease_owner === null && job.status === 'pending' ? job.attempts : 0;
            },
            { timeout: 5000, interval: 20 },
          )
          .toBe(attempt);
        const job = await jobOf();
        expect(Date.parse(job.run_at) - clock.now().getTime()).toBe(10_000 * 2 ** (attempt - 1));
        clock.advance((Date.parse(job.run_at) - clock.now().getTime()) / 1000);
      }
      const [delivery] = await settled(member, 1);
      expect(delivery).toMatchObject({
        status: 'failed',
        attempts: 5,
        last_error: 'The webhook answered HTTP 503',
      });
      const [state] = await settings().listChannels(member.id);
      expect(state).toMatchObject({
        enabled: false,
        failures: 5,
        disabled_reason:
          'Turned off after 5 failed sends in a row. Last error: The webhook answered HTTP 503',
      });
      const job = await t.app.db
        .selectFrom('jobs')
        .select(['status', 'attempts'])
        .where('kind', '=', CHANNEL_DELIVERY_JOB.name)
        .where('payload', '=', JSON.stringify({ delivery_id: delivery?.id }))
        .executeTakeFirstOrThrow();
      expect(job).toEqual({ status: 'failed', attempts: 5 });

      // Turned off: new events make no deliveries for it.
      await record(release(repo.id, 'v2'));
      await engine().dispatch();
      expect(await deliveries(member)).toHaveLength(1);
    } finally {
      sink.fail(null);
    }
    const enabled = await call(member, 'POST', `/channels/${channel.id}/enable`);
    expect(enabled.json()).toMatchObject({ enabled: true, failures: 0, disabled_reason: null });
    await record(release(repo.id, 'v3'));
    await engine().dispatch();
    await settled(member, 2);
    expect(bodies().map((entry) => (entry.body as { text: string }).text)).toEqual([
      `${repo.full_name} published release v3`,
    ]);
  });

  it('fails at once on an answer retrying cannot fix, counting one failure', async () => {
    const member = await signedInUser(t.app);
    const { channel } = await sinkChannel(member);
    await addRule(member, { channel_id: channel.id, event_types: null, tags: null, cadence: 'instant' });
    const repo = await repository('acme/moved');
    sink.fail(404);
    try {
      await record(release(repo.id, 'v1'));
      await engine().dispatch();
      const [delivery] = await settled(member, 1);
      expect(delivery).toMatchObject({
        status: 'failed',
        attempts: 1,
        last_error: 'The webhook answered HTTP 404',
      });
    } finally {
      sink.fail(null);
    }
    const [state] = await settings().listChannels(member.id);
    expect(state).toMatchObject({ enabled: true, failures: 1, last_error: 'The webhook answered HTTP 404' });
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

describe('schedule', () => {
  const runs = { dispatch: async () => ({ events: 0 }), sendDigests: async () => 0 };
  const jobsWith = (schedule: string | null) =>
    notificationJobs({ delivery: runs, clock, schedule, digestHour: 8, log: { info() {} } });

  it('dispatches on NOTIFICATION_SCHEDULE and digests at DIGEST_HOUR; off stops both', () => {
    const crons = (schedule: string | null) =>
      Object.fromEntries(jobsWith(schedule).map((job) => [job.kind.name, job.schedule?.cron]));
    expect(crons('*/2 * * * *')).toEqual({
      [NOTIFY_DISPATCH_JOB.name]: '*/2 * * * *',
      [NOTIFY_DIGEST_JOB.name]: '0 8 * * *',
    });
    expect(crons(null)).toEqual({ [NOTIFY_DISPATCH_JOB.name]: null, [NOTIFY_DIGEST_JOB.name]: null });
  });

  it('claims each dispatcher tick once across instances, and queues no run while one waits', async () => {
    const registry = t.app.services.registry;
    const runAt = new Date('2030-01-07T08:00:00');
    const until = new Date(runAt.getTime() + 60_000);
    const next = { runAt: until, until: new Date(until.getTime() + 60_000) };
    await t.app.services.jobs.stop();
    try {
      expect(await registry.tick(NOTIFY_DISPATCH_JOB.name, { holder: 'a', runAt, until })).toBeGreaterThan(0);
      expect(await registry.tick(NOTIFY_DISPATCH_JOB.name, { holder: 'b', runAt, until })).toBeNull();
      expect(await registry.tick(NOTIFY_DISPATCH_JOB.name, { holder: 'b', ...next })).toBe(0);
    } finally {
      t.app.services.jobs.start();
    }
  });
});

describe('recovery', () => {
  it('queues again a delivery whose job a restore dropped, and fails one whose job died', async () => {
    const member = await signedInUser(t.app);
    const { channel, bodies } = await sinkChannel(member);
    await addRule(member, { channel_id: channel.id, event_types: null, tags: null, cadence: 'instant' });
    const repo = await repository('acme/restored');
    await t.app.services.jobs.stop();
    try {
      await record(release(repo.id, 'v1'), release(repo.id, 'v2'));
      await engine().dispatch();
      const [lost, died] = await deliveries(member);
      // A restore empties the job queue; a job cut off on its last attempt never wrote back.
      await t.app.db
        .deleteFrom('jobs')
        .where('payload', '=', JSON.stringify({ delivery_id: lost?.id }))
        .execute();
      await t.app.db
        .updateTable('jobs')
        .set({ status: 'failed', last_error: 'timed out after 1500 ms' })
        .where('payload', '=', JSON.stringify({ delivery_id: died?.id }))
        .execute();
      // Not yet: a delivery is left alone for ten minutes.
      expect((await engine().dispatch()).recovered).toBe(0);
      clock.advance(11 * 60);
      expect((await engine().dispatch()).recovered).toBe(2);
    } finally {
      t.app.services.jobs.start();
    }
    const rows = await settled(member, 2);
    expect(rows.map((row) => [row.status, row.last_error])).toEqual([
      ['sent', null],
      ['failed', 'timed out after 1500 ms'],
    ]);
    expect(bodies()).toHaveLength(1);
  });
});
