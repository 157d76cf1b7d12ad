import type { Kysely } from 'kysely';
import { EVENT_TYPES, type EventType } from '../../../shared/schemas/activity.ts';
import {
  type Cadence,
  CHANNEL_FAILURE_LIMIT,
  CHANNEL_KIND_LABELS,
  CHANNELS_PER_MEMBER_MAX,
  type Channel,
  type ChannelKind,
  type CreateChannelBody,
  type CreateRuleBody,
  DELIVERIES_LISTED,
  type Delivery,
  type DeliveryKind,
  kindHasUrl,
  RULES_PER_MEMBER_MAX,
  type Rule,
  type TestChannelResponse,
  type UpdateChannelBody,
  type UpdateRuleBody,
} from '../../../shared/schemas/notifications.ts';
import type { AppConfig } from '../../config.ts';
import type { Database, UserRow } from '../../db/schema.ts';
import { type JobQueue, PermanentJobError } from '../../jobs/job-queue.ts';
import { badRequest, notFound } from '../../lib/app-error.ts';
import { type Clock, isoNow } from '../../lib/clock.ts';
import { checkWebhookUrl, type Resolver } from '../../lib/outbound-guard.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { Mailer } from '../../mail/mailer.ts';
import {
  discordPayload,
  emailMessage,
  headline,
  type MessageInput,
  type MessageKind,
  type NotifiedEvent,
  slackPayload,
  webhookPayload,
} from '../../notifications/notification-messages.ts';
import {
  type SlackSendResult,
  sendWebhookJson,
  type WebhookService,
} from '../../notifications/slack-notifier.ts';
import type { AccountsService } from '../auth/accounts.service.ts';
import type { MeService } from '../me/me.service.ts';
import type { CatalogueService } from '../catalogue/catalogue.service.ts';
import type { ChannelRow, DeliveryRow, EventRow, RuleRow } from './notifications.queries.ts';
import * as queries from './notifications.queries.ts';

/** Job kinds (docs/architecture.md#notifications). */
export const NOTIFY_DISPATCH_JOB = 'notifications:dispatch';
export const NOTIFY_DIGEST_JOB = 'notifications:digest';
export const NOTIFY_DELIVER_JOB = 'notifications:deliver';

export interface DeliverPayload {
  delivery_id: number;
}
export interface DigestPayload {
  cadences: ('daily' | 'weekly')[];
}

/** Events read per dispatcher step. */
const DISPATCH_BATCH = 200;
const MAX_ERROR_LENGTH = 1000;
/**
 * How long a pending delivery is left alone before its job is looked for: a delivery and its job
 * are written in one transaction, so this only keeps clear of one being written right now.
 */
export const STRANDED_AFTER_MS = 10 * 60 * 1000;

const CHANNEL_NOT_FOUND = 'Notification channel not found';
const RULE_NOT_FOUND = 'Notification rule not found';

/** Who the outcome messages and the address guard name, per channel kind with a URL. */
const SERVICES: Record<'slack' | 'webhook' | 'discord', WebhookService> = {
  slack: { service: 'Slack', label: 'Slack webhook' },
  discord: { service: 'Discord', label: 'Discord webhook' },
  webhook: { service: 'The webhook', label: 'Webhook' },
};

export interface NotificationsDeps {
  db: Kysely<Database>;
  clock: Clock;
  box: SecretBox;
  config: Pick<AppConfig, 'appName' | 'publicUrl' | 'webhookAllowedHosts' | 'webhookTimeoutMs'>;
  jobs: JobQueue;
  /** The queued mailer: e-mail channels hand their message to the mail queue. */
  mailer: Pick<Mailer, 'send'>;
  accounts: Pick<AccountsService, 'find'>;
  /** Slack channels send to the member's stored Slack webhook. */
  me: Pick<MeService, 'readSlackWebhook'>;
  /** The catalogue's visibility rule: may this member see this repository now? */
  catalogue: Pick<CatalogueService, 'exists'>;
  resolve?: Resolver;
}

/** Binds a sealed channel URL to its row (docs/security.md#e1). */
const urlContext = (channelId: number) => `notification_channel:${channelId}:url`;

/**
 * Notification channels, rules and deliveries (docs/product.md#notification-rules): a member's
 * own rows through the API; the dispatcher that matches new events to rules; digests; and the
 * delivery job that checks visibility again and sends.
 */
export class NotificationsService {
  readonly #deps: NotificationsDeps;

  constructor(deps: NotificationsDeps) {
    this.#deps = deps;
  }

  // ---- channels --------------------------------------------------------------------------------

  async listChannels(userId: number): Promise<Channel[]> {
    const user = await this.#user(userId);
    const rows = await queries.listChannels(this.#deps.db, userId);
    const hasSlack = user.slack_webhook_enc !== null;
    return rows.map((row) => presentChannel(row, user, hasSlack));
  }

  async createChannel(userId: number, body: CreateChannelBody): Promise<Channel> {
    const { db, clock } = this.#deps;
    const user = await this.#user(userId);
    if ((await queries.countChannels(db, userId)) >= CHANNELS_PER_MEMBER_MAX)
      throw badRequest(`You can have at most ${CHANNELS_PER_MEMBER_MAX} notification channels`);
    if (body.kind === 'slack' && user.slack_webhook_enc === null)
      throw badRequest('Store a Slack webhook under GitHub Access first', {
        kind: 'Store a Slack webhook under GitHub Access first',
      });
    const url = kindHasUrl(body.kind) ? await this.#checkUrl(body.kind, body.url ?? '') : null;
    const now = isoNow(clock);
    const row = await db.transaction().execute(async (trx) => {
      const inserted = await queries.insertChannel(trx, {
        user_id: userId,
        kind: body.kind,
        name: body.name,
        url_enc: null,
        url_hint: url ? urlHint(url) : null,
        enabled: 1,
        failures: 0,
        created_at: now,
        updated_at: now,
      });
      if (!url) return inserted;
      // Sealed for this row's id, so a value copied into another row doesn't open.
      return (await queries.updateChannel(trx, inserted.id, {
        url_enc: this.#deps.box.seal(url.href, urlContext(inserted.id)),
      })) as ChannelRow;
    });
    return presentChannel(row, user, user.slack_webhook_enc !== null);
  }

  async updateChannel(userId: number, channelId: number, body: UpdateChannelBody): Promise<Channel> {
    const channel = await this.#ownChannel(userId, channelId);
    const user = await this.#user(userId);
    const changes: Parameters<typeof queries.updateChannel>[2] = { updated_at: isoNow(this.#deps.clock) };
    if (body.name !== undefined) changes.name = body.name;
    if (body.url !== undefined) {
      if (!kindHasUrl(channel.kind)) {
        const message = `${CHANNEL_KIND_LABELS[channel.kind]} channels have no URL of their own`;
        throw badRequest(message, { url: message });
      }
      const url = await this.#checkUrl(channel.kind, body.url);
      // A new address is a fresh start: the failures of the old one no longer say anything.
      Object.assign(changes, {
        url_enc: this.#deps.box.seal(url.href, urlContext(channel.id)),
        url_hint: urlHint(url),
        failures: 0,
        last_error: null,
        enabled: 1,
        disabled_reason: null,
        disabled_at: null,
      });
    }
    const row = await queries.updateChannel(this.#deps.db, channel.id, changes);
    if (!row) throw notFound(CHANNEL_NOT_FOUND);
    return presentChannel(row, user, user.slack_webhook_enc !== null);
  }

  /** Removes the channel and its rules; its deliveries stay in the record without it. */
  async deleteChannel(userId: number, channelId: number): Promise<void> {
    const channel = await this.#ownChannel(userId, channelId);
    await queries.deleteChannel(this.#deps.db, channel.id);
  }

  /** Turns a channel the failures switched off back on, with a clean count. */
  async enableChannel(userId: number, channelId: number): Promise<Channel> {
    const channel = await this.#ownChannel(userId, channelId);
    const user = await this.#user(userId);
    const row = await queries.updateChannel(this.#deps.db, channel.id, {
      enabled: 1,
      failures: 0,
      last_error: null,
      disabled_reason: null,
      disabled_at: null,
      updated_at: isoNow(this.#deps.clock),
    });
    if (!row) throw notFound(CHANNEL_NOT_FOUND);
    return presentChannel(row, user, user.slack_webhook_enc !== null);
  }

  /**
   * "Send test": one message now, answered within WEBHOOK_TIMEOUT_MS with the outcome and
   * recorded as a delivery. It leaves the failure count alone: a test is the member checking,
   * not the channel failing their rules (an e-mail is handed to the mail queue).
   */
  async testChannel(userId: number, channelId: number): Promise<TestChannelResponse> {
    const channel = await this.#ownChannel(userId, channelId);
    const user = await this.#user(userId);
    const now = isoNow(this.#deps.clock);
    const input = this.#messageInput('test', []);
    const delivery = await queries.insertDelivery(this.#deps.db, {
      user_id: userId,
      channel_id: channel.id,
      rule_id: null,
      kind: 'test',
      event_ids: '[]',
      event_count: 0,
      summary: 'Test message',
      status: 'pending',
      attempts: 0,
      created_at: now,
      updated_at: now,
    });
    const result = await this.#send(channel, user, input);
    const finished = isoNow(this.#deps.clock);
    await queries.updateDelivery(this.#deps.db, delivery.id, {
      status: result.sent ? 'sent' : 'failed',
      attempts: 1,
      last_error: result.sent ? null : clip(result.error),
      sent_at: result.sent ? finished : null,
      updated_at: finished,
    });
    if (!result.sent) return { sent: false, message: result.error ?? 'The test message could not be sent' };
    return {
      sent: true,
      message: channel.kind === 'email' ? `Test e-mail queued for ${user.email}` : 'Test message sent',
    };
  }

  // ---- rules -----------------------------------------------------------------------------------

  async listRules(userId: number): Promise<Rule[]> {
    return (await queries.listRules(this.#deps.db, userId)).map(presentRule);
  }

  async createRule(userId: number, body: CreateRuleBody): Promise<Rule> {
    const { db, clock } = this.#deps;
    if ((await queries.countRules(db, userId)) >= RULES_PER_MEMBER_MAX)
      throw badRequest(`You can have at most ${RULES_PER_MEMBER_MAX} notification rules`);
    await this.#channelForRule(userId, body.channel_id);
    const now = isoNow(clock);
    const row = await queries.insertRule(db, {
      user_id: userId,
      channel_id: body.channel_id,
      event_types: storedTypes(body.event_types),
      tags: storedTags(body.tags),
      cadence: body.cadence,
      enabled: body.enabled === false ? 0 : 1,
      created_at: now,
      updated_at: now,
    });
    return presentRule(row);
  }

  async updateRule(userId: number, ruleId: number, body: UpdateRuleBody): Promise<Rule> {
    const rule = await this.#ownRule(userId, ruleId);
    const changes: Parameters<typeof queries.updateRule>[2] = { updated_at: isoNow(this.#deps.clock) };
    if (body.channel_id !== undefined) {
      await this.#channelForRule(userId, body.channel_id);
      changes.channel_id = body.channel_id;
    }
    if (body.event_types !== undefined) changes.event_types = storedTypes(body.event_types);
    if (body.tags !== undefined) changes.tags = storedTags(body.tags);
    if (body.cadence !== undefined) changes.cadence = body.cadence;
    if (body.enabled !== undefined) changes.enabled = body.enabled ? 1 : 0;
    const row = await this.#deps.db.transaction().execute(async (trx) => {
      // Events waiting for a digest go out instantly no more, nor in another digest: a rule
      // switched to instant starts from the next event.
      if (body.cadence === 'instant' && rule.cadence !== 'instant')
        await queries.takeDigestItems(trx, rule.id);
      return queries.updateRule(trx, rule.id, changes);
    });
    if (!row) throw notFound(RULE_NOT_FOUND);
    return presentRule(row);
  }

  async deleteRule(userId: number, ruleId: number): Promise<void> {
    const rule = await this.#ownRule(userId, ruleId);
    await queries.deleteRule(this.#deps.db, rule.id);
  }

  async listDeliveries(userId: number): Promise<Delivery[]> {
    return (await queries.listDeliveries(this.#deps.db, userId, DELIVERIES_LISTED)).map(presentDelivery);
  }

  // ---- dispatching -----------------------------------------------------------------------------

  /**
   * Reads the events recorded since the cursor and matches them to every live rule by type and
   * tag, for members who may see the repository: an instant rule gets a delivery (and its job)
   * per event, a digest rule an item for its next digest. The cursor moves in the same
   * transaction as the rows it produced, compare-and-set, so with several instances each event
   * is dispatched once. Returns the events read and the deliveries and digest items made.
   */
  async dispatch(options: { deadline?: number } = {}) {
    const { db } = this.#deps;
    const outcome = { events: 0, deliveries: 0, digestItems: 0, recovered: await this.recoverStranded() };
    const rules = await queries.listLiveRules(db);
    const visible = new VisibilityCache(this.#deps.catalogue);
    for (;;) {
      if (options.deadline !== undefined && Date.now() > options.deadline) break;
      const cursor = await queries.readCursor(db, queries.DISPATCH_CURSOR);
      const events = await queries.listEventsAfter(db, cursor, DISPATCH_BATCH);
      if (events.length === 0) break;
      const tags = await queries.tagKeysOf(db, [...new Set(events.map((event) => event.repository_id))]);
      const instant: { rule: (typeof rules)[number]; event: EventRow }[] = [];
      const digest: { rule_id: number; event_id: number }[] = [];
      for (const event of events) {
        for (const rule of rules) {
          if (!ruleMatches(rule, event, tags.get(event.repository_id))) continue;
          if (!(await visible.check({ id: rule.user_id, is_admin: rule.is_admin === 1 }, event.full_name)))
            continue;
          if (rule.cadence === 'instant') instant.push({ rule, event });
          else digest.push({ rule_id: rule.id, event_id: event.id });
        }
      }
      const last = events[events.length - 1]?.id ?? cursor;
      const now = isoNow(this.#deps.clock);
      const moved = await db.transaction().execute(async (trx) => {
        if (!(await queries.advanceCursor(trx, queries.DISPATCH_CURSOR, cursor, last, now))) return false;
        for (const { rule, event } of instant) {
          const delivery = await queries.insertDelivery(trx, {
            user_id: rule.user_id,
            channel_id: rule.channel_id,
            rule_id: rule.id,
            kind: 'instant',
            event_ids: JSON.stringify([event.id]),
            event_count: 1,
            summary: headline(this.#messageInput('instant', [toNotified(event)])),
            status: 'pending',
            attempts: 0,
            created_at: now,
            updated_at: now,
          });
          await this.#deps.jobs.enqueue<DeliverPayload>(
            NOTIFY_DELIVER_JOB,
            { delivery_id: delivery.id },
            { db: trx },
          );
        }
        await queries.addDigestItems(trx, digest, now);
        return true;
      });
      // Another instance dispatched these events first: it owns them, and we stop here.
      if (!moved) break;
      outcome.events += events.length;
      outcome.deliveries += instant.length;
      outcome.digestItems += digest.length;
    }
    return outcome;
  }

  /**
   * Deliveries left pending without their job: a restore empties the job queue (it is work in
   * flight, not data), and a job cut off by its own deadline on its last attempt never wrote
   * the outcome. The first are queued again; the second get the job's error and fail; one whose
   * job is waiting for a retry is left alone.
   */
  async recoverStranded(): Promise<number> {
    const { db, clock } = this.#deps;
    const before = new Date(clock.now().getTime() - STRANDED_AFTER_MS).toISOString();
    let recovered = 0;
    for (const delivery of await queries.listStalePendingDeliveries(db, before, 100)) {
      const [job] = await queries.findDeliveryJobs(db, NOTIFY_DELIVER_JOB, delivery.id);
      if (job?.status === 'pending') continue;
      const now = isoNow(clock);
      if (job) {
        await queries.updateDelivery(db, delivery.id, {
          status: 'failed',
          last_error: clip(job.last_error ?? 'The delivery was interrupted'),
          updated_at: now,
        });
      } else {
        await db.transaction().execute(async (trx) => {
          await queries.updateDelivery(trx, delivery.id, { updated_at: now });
          await this.#deps.jobs.enqueue<DeliverPayload>(
            NOTIFY_DELIVER_JOB,
            { delivery_id: delivery.id },
            { db: trx },
          );
        });
      }
      recovered += 1;
    }
    return recovered;
  }

  /**
   * Sends the digests of these cadences: the events dispatched so far first, then one delivery
   * per rule with waiting events, each taken out of the digest in the transaction that creates
   * its delivery (so a retried run sends each event once). Returns the deliveries made.
   */
  async sendDigests(cadences: ('daily' | 'weekly')[]): Promise<number> {
    await this.dispatch();
    const { db } = this.#deps;
    let made = 0;
    for (const rule of await queries.listWaitingDigestRules(db, cadences)) {
      const created = await db.transaction().execute(async (trx) => {
        const eventIds = await queries.takeDigestItems(trx, rule.id);
        if (eventIds.length === 0) return false;
        const now = isoNow(this.#deps.clock);
        const delivery = await queries.insertDelivery(trx, {
          user_id: rule.user_id,
          channel_id: rule.channel_id,
          rule_id: rule.id,
          kind: rule.cadence as DeliveryKind,
          event_ids: JSON.stringify(eventIds),
          event_count: eventIds.length,
          summary: `${rule.cadence === 'daily' ? 'Daily' : 'Weekly'} digest: ${eventIds.length} ${eventIds.length === 1 ? 'event' : 'events'}`,
          status: 'pending',
          attempts: 0,
          created_at: now,
          updated_at: now,
        });
        await this.#deps.jobs.enqueue<DeliverPayload>(
          NOTIFY_DELIVER_JOB,
          { delivery_id: delivery.id },
          { db: trx },
        );
        return true;
      });
      if (created) made += 1;
    }
    return made;
  }

  /**
   * One attempt of a delivery (the job queue retries it with back-off). Visibility is checked
   * again now: events of repositories the member can no longer see are left out, and a message
   * with nothing left is skipped. A failure counts against the channel; the fifth in a row
   * turns it off with the reason, and the delivery fails for good.
   */
  async deliver(deliveryId: number, context: { attempt: number; maxAttempts: number; signal?: AbortSignal }) {
    const { db } = this.#deps;
    const delivery = await queries.findDelivery(db, deliveryId);
    if (delivery?.status !== 'pending') return;
    const skip = (reason: string) =>
      queries.updateDelivery(db, delivery.id, {
        status: 'skipped',
        last_error: reason,
        updated_at: isoNow(this.#deps.clock),
      });
    const channel =
      delivery.channel_id === null ? undefined : await queries.findChannel(db, delivery.channel_id);
    if (!channel) return skip('The channel was removed');
    if (channel.enabled === 0) return skip('The channel is turned off');
    const user = await this.#deps.accounts.find(delivery.user_id);
    if (!user || user.is_active === 0) return skip('The account is deactivated');
    const visible = new VisibilityCache(this.#deps.catalogue);
    const events: NotifiedEvent[] = [];
    for (const row of await queries.findEvents(db, parseIds(delivery.event_ids))) {
      if (await visible.check({ id: user.id, is_admin: user.is_admin === 1 }, row.full_name))
        events.push(toNotified(row));
    }
    if (events.length === 0) return skip('Nothing left that you can see');
    const input = this.#messageInput(delivery.kind as MessageKind, events);
    const result = await this.#send(channel, user, input, context.signal);
    const now = isoNow(this.#deps.clock);
    if (result.sent) {
      await queries.updateDelivery(db, delivery.id, {
        status: 'sent',
        attempts: delivery.attempts + 1,
        event_count: events.length,
        summary: headline(input).slice(0, 500),
        last_error: null,
        sent_at: now,
        updated_at: now,
      });
      await queries.updateChannel(db, channel.id, { failures: 0, last_error: null, last_sent_at: now });
      return;
    }
    const error = clip(result.error) ?? 'The message could not be sent';
    const failures = await queries.countChannelFailure(db, channel.id, error, now);
    const turnedOff = failures >= CHANNEL_FAILURE_LIMIT;
    if (turnedOff)
      await queries.updateChannel(db, channel.id, {
        enabled: 0,
        disabled_reason: clip(`Turned off after ${failures} failed sends in a row. Last error: ${error}`),
        disabled_at: now,
      });
    const final = turnedOff || !result.retryable || context.attempt >= context.maxAttempts;
    await queries.updateDelivery(db, delivery.id, {
      status: final ? 'failed' : 'pending',
      attempts: delivery.attempts + 1,
      last_error: error,
      updated_at: now,
    });
    throw final ? new PermanentJobError(error) : new Error(error);
  }

  // ---- helpers ---------------------------------------------------------------------------------

  #messageInput(kind: MessageKind, events: NotifiedEvent[]): MessageInput {
    const { appName, publicUrl } = this.#deps.config;
    return { kind, appName, publicUrl, events };
  }

  /** One send over the channel; a failure is returned, never thrown. */
  async #send(
    channel: ChannelRow,
    user: UserRow,
    input: MessageInput,
    signal?: AbortSignal,
  ): Promise<SlackSendResult> {
    const { config, resolve } = this.#deps;
    const options = {
      allowedHosts: config.webhookAllowedHosts,
      timeoutMs: config.webhookTimeoutMs,
      resolve,
      signal,
    };
    switch (channel.kind) {
      case 'email':
        if (user.is_verified === 0) return { sent: false, error: 'Your e-mail address is not verified' };
        await this.#deps.mailer.send(emailMessage(input, user.email));
        return { sent: true };
      case 'slack': {
        let url: string | null;
        try {
          url = await this.#deps.me.readSlackWebhook(user.id);
        } catch {
          return { sent: false, error: 'The stored Slack webhook cannot be opened; store it again' };
        }
        if (!url) return { sent: false, error: 'No Slack webhook is configured in Settings.' };
        return sendWebhookJson(url, slackPayload(input), { ...options, service: SERVICES.slack });
      }
      case 'discord':
      case 'webhook': {
        let url: string;
        try {
          url = this.#deps.box.open(channel.url_enc ?? '', urlContext(channel.id));
        } catch {
          return {
            sent: false,
            error: 'The stored URL cannot be opened with this SECRET_KEY; save it again',
          };
        }
        const body = channel.kind === 'discord' ? discordPayload(input) : webhookPayload(input);
        return sendWebhookJson(url, body, { ...options, service: SERVICES[channel.kind] });
      }
    }
  }

  /** The guard on save (and again at every send): allowed host, https, public address. */
  async #checkUrl(kind: ChannelKind, raw: string): Promise<URL> {
    const { config, resolve } = this.#deps;
    const service = SERVICES[kind as 'discord' | 'webhook'];
    const url = await checkWebhookUrl(raw, config.webhookAllowedHosts, resolve, service.label);
    if (kind === 'discord' && url.hostname === 'discord.com' && !url.pathname.startsWith('/api/webhooks/')) {
      const message = 'Discord webhook URL must look like https://discord.com/api/webhooks/…';
      throw badRequest(message, { url: message });
    }
    return url;
  }

  async #user(userId: number): Promise<UserRow> {
    const user = await this.#deps.accounts.find(userId);
    if (!user) throw notFound('User not found');
    return user;
  }

  /** Another member's channel answers exactly like a missing one. */
  async #ownChannel(userId: number, channelId: number): Promise<ChannelRow> {
    const channel = await queries.findChannel(this.#deps.db, channelId);
    if (!channel || channel.user_id !== userId) throw notFound(CHANNEL_NOT_FOUND);
    return channel;
  }

  async #ownRule(userId: number, ruleId: number): Promise<RuleRow> {
    const rule = await queries.findRule(this.#deps.db, ruleId);
    if (!rule || rule.user_id !== userId) throw notFound(RULE_NOT_FOUND);
    return rule;
  }

  async #channelForRule(userId: number, channelId: number): Promise<void> {
    const channel = await queries.findChannel(this.#deps.db, channelId);
    if (!channel || channel.user_id !== userId)
      throw badRequest('Choose one of your channels', { channel_id: 'Choose one of your channels' });
  }
}

/** The catalogue's visibility answer per member and repository, asked once per run. */
class VisibilityCache {
  readonly #catalogue: Pick<CatalogueService, 'exists'>;
  readonly #answers = new Map<string, boolean>();

  constructor(catalogue: Pick<CatalogueService, 'exists'>) {
    this.#catalogue = catalogue;
  }

  async check(viewer: { id: number; is_admin: boolean }, fullName: string): Promise<boolean> {
    const key = `${viewer.id}\u0000${fullName}`;
    const known = this.#answers.get(key);
    if (known !== undefined) return known;
    const answer = await this.#catalogue.exists(viewer, fullName);
    this.#answers.set(key, answer);
    return answer;
  }
}

/** A rule matches an event of one of its types (or any) on a repository with one of its tags (or any). */
export function ruleMatches(
  rule: Pick<RuleRow, 'event_types' | 'tags'>,
  event: Pick<EventRow, 'type'>,
  repositoryTags: Set<string> | undefined,
): boolean {
  const types = parseList(rule.event_types);
  if (types && !types.includes(event.type)) return false;
  const tags = parseList(rule.tags);
  if (tags && !tags.some((tag) => repositoryTags?.has(tag.trim().toLowerCase()))) return false;
  return true;
}

function toNotified(row: EventRow): NotifiedEvent {
  let data: unknown = {};
  try {
    data = JSON.parse(row.data);
  } catch {
    // Unreadable details: the message falls back to the type's name.
  }
  return {
    id: row.id,
    type: row.type as EventType,
    occurred_at: row.occurred_at,
    data,
    repository: { id: row.full_name, url: row.url },
  };
}

function parseList(value: string | null): string[] | null {
  if (value === null) return null;
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed.map(String) : null;
  } catch {
    return null;
  }
}

function parseIds(value: string): number[] {
  return (parseList(value) ?? []).map(Number).filter((id) => Number.isInteger(id) && id > 0);
}

/** Every type listed is the same as all: stored as null, so types added later are included. */
function storedTypes(types: readonly EventType[] | null): string | null {
  if (types === null) return null;
  const unique = EVENT_TYPES.filter((type) => types.includes(type));
  return unique.length === EVENT_TYPES.length ? null : JSON.stringify(unique);
}

/** Tags as the member spelled them, one per lower-cased key. */
function storedTags(tags: readonly string[] | null): string | null {
  if (tags === null) return null;
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const tag of tags.map((value) => value.trim())) {
    const key = tag.toLowerCase();
    if (!tag || seen.has(key)) continue;
    seen.add(key);
    kept.push(tag);
  }
  return JSON.stringify(kept);
}

/** The host and the last four characters: enough to recognise a URL, never enough to use it. */
function urlHint(url: URL): string {
  return `${url.host} …${url.href.slice(-4)}`;
}

function clip(value: string | undefined, max = MAX_ERROR_LENGTH): string | null {
  if (value === undefined) return null;
  return value.length <= max ? value : `${value.slice(0, max - 1)}…`;
}

function presentChannel(row: ChannelRow, user: UserRow, hasSlackWebhook: boolean): Channel {
  const target =
    row.kind === 'email'
      ? user.email
      : row.kind === 'slack'
        ? hasSlackWebhook
          ? 'Your Slack webhook (GitHub Access)'
          : null
        : row.url_hint;
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    target,
    enabled: row.enabled === 1,
    failures: row.failures,
    last_error: row.last_error,
    disabled_reason: row.disabled_reason,
    disabled_at: row.disabled_at,
    last_sent_at: row.last_sent_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function presentRule(row: RuleRow): Rule {
  return {
    id: row.id,
    channel_id: row.channel_id,
    event_types: parseList(row.event_types) as EventType[] | null,
    tags: parseList(row.tags),
    cadence: row.cadence as Cadence,
    enabled: row.enabled === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function presentDelivery(row: DeliveryRow): Delivery {
  return {
    id: row.id,
    channel_id: row.channel_id,
    rule_id: row.rule_id,
    kind: row.kind,
    status: row.status,
    event_count: row.event_count,
    summary: row.summary,
    attempts: row.attempts,
    last_error: row.last_error,
    created_at: row.created_at,
    sent_at: row.sent_at,
  };
}
