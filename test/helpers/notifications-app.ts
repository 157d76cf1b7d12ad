import { afterAll, beforeAll, expect } from 'vitest';
import type { NewEvent } from '#shared/schemas/activity.ts';
import type { Channel, Delivery, Rule } from '#shared/schemas/notifications.ts';
import { insertEvents } from '../../server/modules/activity/events.queries.ts';
import type { MailMessage } from '../../server/modules/messages/mail-transport.ts';
import { insertRepository } from '../../server/repository/repository.queries.ts';
import type { signedInUser } from './auth-factory.ts';
import { createFakeClock } from './fake-clock.ts';
import { buildRepositoryRow } from './repository-row.ts';
import { createTestApp, type TestApp } from './test-app.ts';
import { WAIT_CEILING_MS } from './wait-ceiling.ts';
import { startWebhookSink } from './webhook-sink.ts';

export type Member = Awaited<ReturnType<typeof signedInUser>>;

/**
 * The app the notification tests share per file (server/modules/notifications/*.test.ts): a fake
 * clock, a webhook sink on 127.0.0.1, a mail transport that keeps what it is given, fixed DNS
 * answers, and the calls those tests make. Registers the file's beforeAll and afterAll; `t` and
 * `sink` are there from the first test on.
 */
export function startNotificationsApp() {
  const clock = createFakeClock(new Date('2026-11-25T10:00:00.000Z'));
  const mails: MailMessage[] = [];
  /** Public addresses for the listed public hosts, a private one for the host that must be refused. */
  const DNS: Record<string, string[]> = {
    'hooks.example.com': ['93.184.216.34'],
    'discord.com': ['162.159.128.233'],
    'hooks.slack.com': ['52.1.2.3'],
    'internal.example.com': ['10.1.2.3'],
  };
  let t: TestApp;
  let sink: Awaited<ReturnType<typeof startWebhookSink>>;
  let sequence = 0;

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
        { timeout: WAIT_CEILING_MS, interval: 20 },
      )
      .toBe(count);
    return rows;
  }

  return {
    get t() {
      return t;
    },
    get sink() {
      return sink;
    },
    clock,
    mails,
    DNS,
    call,
    addChannel,
    sinkChannel,
    addRule,
    repository,
    release,
    record,
    settings,
    engine,
    deliveries,
    settled,
  };
}
