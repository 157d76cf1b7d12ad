import type { Kysely } from 'kysely';
import { isBatchedType } from '#shared/event-text.ts';
import type { EventType } from '#shared/schemas/activity.ts';
import { type AdvisorySeverity, DEFAULT_MIN_SEVERITY, SEVERITY_RANK } from '#shared/schemas/advisories.ts';
import { CHANNEL_FAILURE_LIMIT, type DeliveryKind } from '#shared/schemas/notifications.ts';
import type { AppConfig } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import { PermanentJobError } from '../../jobs/job-queue.ts';
import { addMs, type Clock, isoNow, nowMs } from '../../lib/clock.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { findVisible, type Viewer } from '../../repository/access-policy.ts';
import type { AccountsService } from '../auth/accounts.service.ts';
import { CHANNEL_DELIVERY_JOB } from '../messages/messages.jobs.ts';
import {
  headline,
  type MessageKind,
  type MessagesService,
  type NotifiedEvent,
} from '../messages/messages.service.ts';
import { clip, messageInput, parseList, sendOverChannel } from './notification-rows.ts';
import type { EventRow, RuleRow } from './notifications.queries.ts';
import * as queries from './notifications.queries.ts';

/** Events read per dispatcher step. */
const DISPATCH_BATCH = 200;
/**
 * How long a pending delivery is left alone before its job is looked for: a delivery and its job
 * are written in one transaction, so this only keeps clear of one being written right now.
 */
export const STRANDED_AFTER_MS = 10 * 60 * 1000;

export interface NotificationDeliveryDeps {
  db: Kysely<Database>;
  clock: Clock;
  box: SecretBox;
  config: Pick<AppConfig, 'appName' | 'publicUrl'>;
  /** Queues each delivery and sends it. */
  messages: Pick<MessagesService, 'queue' | 'sendNotification'>;
  accounts: Pick<AccountsService, 'find'>;
}

/** What one dispatcher run did. */
export interface DispatchOutcome {
  events: number;
  deliveries: number;
  digestItems: number;
  recovered: number;
}

/**
 * The notification engine (docs/architecture.md#notifications): the dispatcher that matches new
 * events to every live rule, the digests, and each delivery's attempt, which checks visibility
 * again (server/repository/access-policy.ts) and sends through the messages pipeline.
 */
export class NotificationDeliveryService {
  readonly #deps: NotificationDeliveryDeps;

  constructor(deps: NotificationDeliveryDeps) {
    this.#deps = deps;
  }

  /**
   * Reads the events recorded since the cursor and matches them to every live rule by type and
   * tag, for members who may see the repository: an instant rule gets a delivery (and its job)
   * per event — one for the releases and star milestones of one repository and sync — a digest rule an item for its next digest. The cursor moves in the same
   * transaction as the rows it produced, compare-and-set, so with several instances each event
   * is dispatched once. `deadline` is on the clock (milliseconds); `signal` (shutdown) stops it
   * between batches, the cursor where the last batch left it.
   */
  async dispatch(options: { deadline?: number; signal?: AbortSignal } = {}): Promise<DispatchOutcome> {
    const { db, clock } = this.#deps;
    const outcome = { events: 0, deliveries: 0, digestItems: 0, recovered: await this.recoverStranded() };
    const rules = await queries.listLiveRules(db);
    const visible = new VisibilityCache(db);
    for (;;) {
      if (options.deadline !== undefined && nowMs(clock) > options.deadline) break;
      if (options.signal?.aborted) break;
      const cursor = await queries.readCursor(db, queries.DISPATCH_CURSOR, isoNow(clock));
      const events = wholeSyncs(await queries.listEventsAfter(db, cursor, DISPATCH_BATCH), DISPATCH_BATCH);
      if (events.length === 0) break;
      const tags = await queries.tagKeysOf(db, [...new Set(events.map((event) => event.repository_id))]);
      // One instant message per rule and event, except the releases and star milestones of one
      // repository and one sync (recorded together, so sharing their detection time): one
      // message per rule for all of them.
      const instant = new Map<string, { rule: (typeof rules)[number]; events: EventRow[] }>();
      const digest: { rule_id: number; event_id: number }[] = [];
      for (const event of events) {
        for (const rule of rules) {
          if (!ruleMatches(rule, event, tags.get(event.repository_id))) continue;
          if (!(await visible.check({ id: rule.user_id, is_admin: rule.is_admin === 1 }, event.full_name)))
            continue;
          if (rule.cadence !== 'instant') {
            digest.push({ rule_id: rule.id, event_id: event.id });
            continue;
          }
          const key = isBatchedType(event.type)
            ? `${rule.id} ${event.repository_id} ${event.detected_at}`
            : `${rule.id} event ${event.id}`;
          const message = instant.get(key) ?? { rule, events: [] };
          message.events.push(event);
          instant.set(key, message);
        }
      }
      const last = events[events.length - 1]?.id ?? cursor;
      const now = isoNow(clock);
      const moved = await db.transaction().execute(async (trx) => {
        if (!(await queries.advanceCursor(trx, queries.DISPATCH_CURSOR, cursor, last, now))) return false;
        for (const { rule, events: grouped } of instant.values()) {
          const delivery = await queries.insertDelivery(trx, {
            user_id: rule.user_id,
            channel_id: rule.channel_id,
            rule_id: rule.id,
            kind: 'instant',
            event_ids: JSON.stringify(grouped.map((event) => event.id)),
            event_count: grouped.length,
            summary: headline(messageInput(this.#deps.config, 'instant', grouped.map(toNotified))).slice(
              0,
              500,
            ),
            status: 'pending',
            attempts: 0,
            created_at: now,
            updated_at: now,
          });
          await this.#deps.messages.queue({ kind: 'channel', deliveryId: delivery.id }, { db: trx });
        }
        await queries.addDigestItems(trx, digest, now);
        return true;
      });
      // Another instance dispatched these events first: it owns them, and we stop here.
      if (!moved) break;
      outcome.events += events.length;
      outcome.deliveries += instant.size;
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
    const before = addMs(clock.now(), -STRANDED_AFTER_MS).toISOString();
    let recovered = 0;
    for (const delivery of await queries.listStalePendingDeliveries(db, before, 100)) {
      const [job] = await queries.findDeliveryJobs(db, CHANNEL_DELIVERY_JOB.name, delivery.id);
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
          await this.#deps.messages.queue({ kind: 'channel', deliveryId: delivery.id }, { db: trx });
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
    const { db, clock } = this.#deps;
    let made = 0;
    for (const rule of await queries.listWaitingDigestRules(db, cadences)) {
      const created = await db.transaction().execute(async (trx) => {
        const eventIds = await queries.takeDigestItems(trx, rule.id);
        if (eventIds.length === 0) return false;
        const now = isoNow(clock);
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
        await this.#deps.messages.queue({ kind: 'channel', deliveryId: delivery.id }, { db: trx });
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
    const { db, clock } = this.#deps;
    const delivery = await queries.findDelivery(db, deliveryId);
    if (delivery?.status !== 'pending') return;
    const skip = (reason: string) =>
      queries.updateDelivery(db, delivery.id, {
        status: 'skipped',
        last_error: reason,
        updated_at: isoNow(clock),
      });
    const channel =
      delivery.channel_id === null ? undefined : await queries.findChannel(db, delivery.channel_id);
    if (!channel) return skip('The channel was removed');
    if (channel.enabled === 0) return skip('The channel is turned off');
    const user = await this.#deps.accounts.find(delivery.user_id);
    if (!user || user.is_active === 0) return skip('The account is deactivated');
    const visible = new VisibilityCache(db);
    const events: NotifiedEvent[] = [];
    for (const row of await queries.findEvents(db, parseIds(delivery.event_ids))) {
      if (await visible.check({ id: user.id, is_admin: user.is_admin === 1 }, row.full_name))
        events.push(toNotified(row));
    }
    if (events.length === 0) return skip('Nothing left that you can see');
    const input = messageInput(this.#deps.config, delivery.kind as MessageKind, events);
    const result = await sendOverChannel(this.#deps, channel, user, input, context.signal);
    const now = isoNow(clock);
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
}

/** The access policy's answer per member and repository, asked once per run. */
class VisibilityCache {
  readonly #db: Kysely<Database>;
  readonly #answers = new Map<string, boolean>();

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  async check(viewer: Viewer, fullName: string): Promise<boolean> {
    const key = `${viewer.id}\u0000${fullName}`;
    const known = this.#answers.get(key);
    if (known !== undefined) return known;
    const answer = (await findVisible(this.#db, viewer, fullName)) !== undefined;
    this.#answers.set(key, answer);
    return answer;
  }
}

/**
 * A full step's events without the trailing ones of a sync that may go on past it, so the
 * releases of one sync are never split between two messages (the next step starts with them).
 * A step made only of one sync's events is kept whole.
 */
export function wholeSyncs(events: EventRow[], limit: number): EventRow[] {
  const last = events.at(-1);
  if (events.length < limit || !last || !isBatchedType(last.type)) return events;
  let end = events.length;
  while (end > 0) {
    const event = events[end - 1] as EventRow;
    if (
      !isBatchedType(event.type) ||
      event.repository_id !== last.repository_id ||
      event.detected_at !== last.detected_at
    )
      break;
    end -= 1;
  }
  return end === 0 ? events : events.slice(0, end);
}

/**
 * A rule matches an event of one of its types (or any) on a repository with one of its tags (or
 * any); an advisory only at the rule's severity floor or above (unknown ranks lowest).
 */
export function ruleMatches(
  rule: Pick<RuleRow, 'event_types' | 'tags'> & { min_severity?: AdvisorySeverity },
  event: Pick<EventRow, 'type' | 'data'>,
  repositoryTags: Set<string> | undefined,
): boolean {
  const types = parseList(rule.event_types);
  if (types && !types.includes(event.type)) return false;
  if (
    event.type === 'advisory_published' &&
    !severeEnough(event.data, rule.min_severity ?? DEFAULT_MIN_SEVERITY)
  )
    return false;
  const tags = parseList(rule.tags);
  if (tags && !tags.some((tag) => repositoryTags?.has(tag.trim().toLowerCase()))) return false;
  return true;
}

function severeEnough(data: string, floor: AdvisorySeverity): boolean {
  let severity: unknown;
  try {
    severity = (JSON.parse(data) as { severity?: unknown }).severity;
  } catch {
    return false;
  }
  const rank = typeof severity === 'string' ? SEVERITY_RANK[severity as AdvisorySeverity] : undefined;
  return rank !== undefined && rank >= SEVERITY_RANK[floor];
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
    detected_at: row.detected_at,
    data,
    repository: { id: row.full_name, url: row.url },
  };
}

function parseIds(value: string): number[] {
  return (parseList(value) ?? []).map(Number).filter((id) => Number.isInteger(id) && id > 0);
}
