import { beforeAll, describe, expect, it } from 'vitest';
import { signedInUser } from '../../../test/helpers/auth-factory.ts';
import { startNotificationsApp } from '../../../test/helpers/notifications-app.ts';
import type { TestApp } from '../../../test/helpers/test-app.ts';
import { wholeSyncs } from './notification-delivery.service.ts';
import type { EventRow } from './notifications.queries.ts';

/**
 * Issue 23 item 8: one sync publishing several releases records an event per release, but makes
 * one instant message per rule (so per channel) listing them all, and one digest line
 * (docs/product.md#notification-rules).
 */

const kit = startNotificationsApp();
const { clock, mails, addChannel, sinkChannel, addRule, repository, release, record } = kit;
const { engine, deliveries, settled } = kit;
let t: TestApp;
beforeAll(() => {
  t = kit.t;
});

describe('releases of one sync', () => {
  it('make four events, one instant message per channel listing all four, and one digest line', async () => {
    const member = await signedInUser(t.app);
    const webhook = await sinkChannel(member);
    const discord = await sinkChannel(member, 'discord');
    const inbox = await addChannel(member, { kind: 'email', name: 'Inbox' });
    for (const channel of [webhook.channel, discord.channel])
      await addRule(member, { channel_id: channel.id, event_types: null, tags: null, cadence: 'instant' });
    await addRule(member, { channel_id: inbox.id, event_types: null, tags: null, cadence: 'daily' });
    const repo = await repository('acme/busy');
    const other = await repository('acme/calm');
    // One sync: the releases are recorded together (one transaction, one detection time).
    await record(...['v1', 'v2', 'v3', 'v4'].map((tag) => release(repo.id, tag)));
    // A later sync of another repository and of the same one: messages of their own.
    clock.advance(60);
    await record(release(other.id, 'v9'), release(repo.id, 'v5'));
    const events = await t.app.db
      .selectFrom('repository_events')
      .select('id')
      .where('repository_id', '=', repo.id)
      .execute();
    expect(events).toHaveLength(5);

    await engine().dispatch();
    const rows = await settled(member, 6);
    const headline = `${repo.full_name} published 4 releases, v1 … v4`;
    expect(rows.map((row) => [row.kind, row.event_count, row.summary])).toEqual([
      ['instant', 4, headline],
      ['instant', 4, headline],
      ['instant', 1, `${other.full_name} published release v9`],
      ['instant', 1, `${other.full_name} published release v9`],
      ['instant', 1, `${repo.full_name} published release v5`],
      ['instant', 1, `${repo.full_name} published release v5`],
    ]);

    const [grouped] = webhook.bodies().filter((entry) => entry.body.text === headline);
    const body = grouped?.body as { event?: unknown; events: { data: { tag: string } }[] };
    expect(webhook.bodies()).toHaveLength(3);
    expect(body.event).toBeUndefined();
    expect(body.events.map((event) => event.data.tag)).toEqual(['v1', 'v2', 'v3', 'v4']);
    const [embedded] = discord.bodies().filter((entry) => entry.body.content === headline);
    expect(embedded?.body.embeds).toEqual([
      {
        title: repo.full_name,
        url: repo.url,
        description: [
          '• published release v1',
          '• published release v2',
          '• published release v3',
          '• published release v4',
        ].join('\n'),
      },
    ]);

    await engine().sendDigests(['daily']);
    await settled(member, 7);
    await expect.poll(() => mails.some((mail) => mail.to === member.email.toLowerCase())).toBe(true);
    const mail = mails.find((entry) => entry.to === member.email.toLowerCase());
    expect(mail?.text.split('\n').slice(0, 9)).toEqual([
      'Repository Tracker daily digest: 6 events in 2 repositories',
      '',
      `${repo.full_name} (${repo.url})`,
      '  • published 4 releases, v1 … v4',
      '  • published release v5',
      '',
      `${other.full_name} (${other.url})`,
      '  • published release v9',
      '',
    ]);
    expect((await deliveries(member)).length).toBe(7);
  });
});

describe('a dispatcher step', () => {
  const row = (id: number, type: string, repository_id: number, detected_at: string): EventRow => ({
    id,
    type,
    repository_id,
    detected_at,
    occurred_at: detected_at,
    data: '{}',
    full_name: `acme/${repository_id}`,
    url: `https://github.com/acme/${repository_id}`,
  });
  const a = '2026-11-25T10:00:00.000Z';
  const b = '2026-11-25T10:00:01.000Z';

  it('leaves a sync that may go on past a full step to the next step', () => {
    const step = [
      row(1, 'archived', 1, a),
      row(2, 'release_published', 2, b),
      row(3, 'release_published', 2, b),
    ];
    expect(wholeSyncs(step, 3).map((event) => event.id)).toEqual([1]);
    // Not full: nothing follows yet. All one sync: kept, or the cursor would never move.
    expect(wholeSyncs(step, 4)).toHaveLength(3);
    expect(wholeSyncs(step.slice(1), 2)).toHaveLength(2);
    expect(wholeSyncs([row(1, 'release_published', 1, a), row(2, 'archived', 1, a)], 2)).toHaveLength(2);
  });
});
