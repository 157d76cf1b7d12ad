import { beforeAll, describe, expect, it } from 'vitest';
import { signedInUser } from '../../../test/helpers/auth-factory.ts';
import { startNotificationsApp } from '../../../test/helpers/notifications-app.ts';
import type { TestApp } from '../../../test/helpers/test-app.ts';
import type { startWebhookSink } from '../../../test/helpers/webhook-sink.ts';
import { grantAccess } from '../../repository/repository.queries.ts';
import { CHANNEL_DELIVERY_JOB } from '../messages/messages.jobs.ts';
import {
  digestCadences,
  NOTIFY_DIGEST_JOB,
  NOTIFY_DISPATCH_JOB,
  notificationJobs,
} from './notifications.jobs.ts';

/**
 * The notification engine end to end through the app (docs/architecture.md#notifications): the
 * dispatcher's matching by type and tag and per-recipient visibility, digests, deliveries on
 * the real job queue with retries against a failing sink, auto-disable and re-enable, the
 * schedules, and recovery of deliveries whose job was lost. Events are written with
 * insertEvents, as the activity and release code does. Every test makes its own members and
 * channels; sink paths are unique per test, so other tests' rules never mix in.
 */

const kit = startNotificationsApp();
const { clock, mails, call, addChannel, sinkChannel, addRule, repository, release, record } = kit;
const { settings, engine, deliveries, settled } = kit;
let t: TestApp;
let sink: Awaited<ReturnType<typeof startWebhookSink>>;
beforeAll(() => {
  t = kit.t;
  sink = kit.sink;
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

  it('sends an advisory only at the rule’s minimum severity or above (high by default); “all types” includes it', async () => {
    const member = await signedInUser(t.app);
    const { channel } = await sinkChannel(member);
    const strict = await addRule(member, {
      channel_id: channel.id,
      event_types: null,
      tags: null,
      cadence: 'daily',
    });
    expect(strict.min_severity).toBe('high');
    const broad = await addRule(member, {
      channel_id: channel.id,
      event_types: ['advisory_published'],
      tags: null,
      min_severity: 'unknown',
      cadence: 'daily',
    });
    const repo = await repository('acme/advised', {});
    const advisory = (ghsa: string, severity: 'critical' | 'medium' | 'unknown') => ({
      type: 'advisory_published' as const,
      repository_id: repo.id,
      data: {
        ghsa_id: ghsa,
        cve_id: null,
        severity,
        summary: `A ${severity} flaw`,
        url: `https://github.com/advisories/${ghsa}`,
        package: { ecosystem: 'npm' as const, name: 'advised' },
        open: true,
      },
    });
    await record(
      advisory('GHSA-2222-3333-4444', 'critical'),
      advisory('GHSA-5555-6666-7777', 'medium'),
      advisory('GHSA-8888-9999-cccc', 'unknown'),
    );
    await engine().dispatch();
    const items = await t.app.db
      .selectFrom('notification_digest_items')
      .innerJoin('repository_events', 'repository_events.id', 'notification_digest_items.event_id')
      .select(['notification_digest_items.rule_id', 'repository_events.data'])
      .where('notification_digest_items.rule_id', 'in', [strict.id, broad.id])
      .execute();
    const ghsaOf = (ruleId: number) =>
      items
        .filter((item) => item.rule_id === ruleId)
        .map((item) => JSON.parse(item.data).ghsa_id)
        .sort();
    expect(ghsaOf(strict.id)).toEqual(['GHSA-2222-3333-4444']);
    expect(ghsaOf(broad.id)).toEqual(['GHSA-2222-3333-4444', 'GHSA-5555-6666-7777', 'GHSA-8888-9999-cccc']);
    const changed = await call(member, 'PATCH', `/rules/${strict.id}`, { min_severity: 'medium' });
    expect(changed.json().min_severity).toBe('medium');
    const refused = await call(member, 'PATCH', `/rules/${strict.id}`, { min_severity: 'severe' });
    expect(refused.statusCode).toBe(400);
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

  it("never counts a failed add-time Slack message against the member's Slack channel", async () => {
    const member = await signedInUser(t.app);
    await t.app.services.me.setSlackWebhook(member.id, sink.url(`/services/T9/B9/added-${member.id}`));
    const channel = await addChannel(member, { kind: 'slack', name: 'Slack' });
    const job = (id: number) =>
      t.app.db.selectFrom('jobs').select(['status', 'last_error']).where('id', '=', id).executeTakeFirst();
    sink.fail(404);
    try {
      const id = await t.app.services.messages.queue({ kind: 'slack', userId: member.id, text: 'Added' });
      await expect
        .poll(() => job(id), { timeout: 5000, interval: 20 })
        .toEqual({ status: 'failed', last_error: 'Slack answered HTTP 404' });
    } finally {
      sink.fail(null);
    }
    const [state] = await settings().listChannels(member.id);
    expect(state).toMatchObject({ id: channel.id, enabled: true, failures: 0, last_error: null });
    expect(await deliveries(member)).toEqual([]);
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
      // Two syncs (one release each), so two deliveries: one sync's releases would be one.
      await record(release(repo.id, 'v1'));
      clock.advance(1);
      await record(release(repo.id, 'v2'));
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
