import type { Kysely } from 'kysely';
import { DEFAULT_MIN_SEVERITY } from '#shared/schemas/advisories.ts';
import {
  CHANNEL_KIND_LABELS,
  CHANNELS_PER_MEMBER_MAX,
  type Channel,
  type ChannelKind,
  type CreateChannelBody,
  type CreateRuleBody,
  DELIVERIES_LISTED,
  type Delivery,
  kindHasUrl,
  RULES_PER_MEMBER_MAX,
  type Rule,
  type TestChannelResponse,
  type UpdateChannelBody,
  type UpdateRuleBody,
} from '#shared/schemas/notifications.ts';
import type { AppConfig } from '../../config.ts';
import type { Database, UserRow } from '../../db/schema.ts';
import { badRequest, notFound } from '../../lib/app-error.ts';
import { type Clock, isoNow } from '../../lib/clock.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { AccountsService } from '../auth/accounts.service.ts';
import type { MessagesService } from '../messages/messages.service.ts';
import {
  presentChannel,
  presentDelivery,
  presentRule,
  storedTags,
  storedTypes,
  urlHint,
} from './notification-presenter.ts';
import { clip, messageInput, sendOverChannel, urlContext } from './notification-rows.ts';
import type { ChannelRow, RuleRow } from './notifications.queries.ts';
import * as queries from './notifications.queries.ts';

const CHANNEL_NOT_FOUND = 'Notification channel not found';
const RULE_NOT_FOUND = 'Notification rule not found';

export interface NotificationSettingsDeps {
  db: Kysely<Database>;
  clock: Clock;
  box: SecretBox;
  config: Pick<AppConfig, 'appName' | 'publicUrl'>;
  /** Checks channel URLs on save and sends "Send test". */
  messages: Pick<MessagesService, 'sendNotification' | 'checkWebhookUrl'>;
  accounts: Pick<AccountsService, 'find'>;
}

/**
 * A member's own notification channels, rules and deliveries (docs/product.md#notification-rules),
 * as the routes change and show them. Matching events to rules and sending is the delivery
 * service's (notification-delivery.service.ts).
 */
export class NotificationSettingsService {
  readonly #deps: NotificationSettingsDeps;

  constructor(deps: NotificationSettingsDeps) {
    this.#deps = deps;
  }

  // ---- channels --------------------------------------------------------------------------------

  async listChannels(userId: number): Promise<Channel[]> {
    const user = await this.#user(userId);
    const rows = await queries.listChannels(this.#deps.db, userId);
    return rows.map((row) => presentChannel(row, user));
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
    return presentChannel(row, user);
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
    return presentChannel(row, user);
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
    return presentChannel(row, user);
  }

  /**
   * "Send test": one message now, answered within WEBHOOK_TIMEOUT_MS with the outcome and
   * recorded as a delivery. It leaves the failure count alone: a test is the member checking,
   * not the channel failing their rules (an e-mail is handed to the mail queue). The route
   * allows CHANNEL_TESTS_PER_MEMBER in CHANNEL_TEST_WINDOW_MS per member.
   */
  async testChannel(userId: number, channelId: number): Promise<TestChannelResponse> {
    const { db, clock } = this.#deps;
    const channel = await this.#ownChannel(userId, channelId);
    const user = await this.#user(userId);
    const now = isoNow(clock);
    const delivery = await queries.insertDelivery(db, {
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
    const result = await sendOverChannel(
      this.#deps,
      channel,
      user,
      messageInput(this.#deps.config, 'test', []),
    );
    const finished = isoNow(clock);
    await queries.updateDelivery(db, delivery.id, {
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
      min_severity: body.min_severity ?? DEFAULT_MIN_SEVERITY,
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
    if (body.min_severity !== undefined) changes.min_severity = body.min_severity;
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

  // ---- helpers ---------------------------------------------------------------------------------

  /** The guard on save (and again at every send): allowed host, https, public address. */
  #checkUrl(kind: ChannelKind, raw: string): Promise<URL> {
    return this.#deps.messages.checkWebhookUrl(kind === 'discord' ? 'discord' : 'webhook', raw);
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
