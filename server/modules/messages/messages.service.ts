import type { Kysely } from 'kysely';
import type { AppConfig } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import { type JobQueue, PermanentJobError } from '../../jobs/job-queue.ts';
import { AppError, badRequest } from '../../lib/app-error.ts';
import { checkWebhookUrl, type Resolver } from '../../lib/outbound-guard.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { Mailer, MailMessage } from './mail-transport.ts';
import {
  CHANNEL_DELIVERY_JOB,
  MAIL_JOB,
  MAIL_SEAL_CONTEXT,
  type MailPayload,
  SLACK_MESSAGE_JOB,
  type SlackMessagePayload,
} from './messages.jobs.ts';
import {
  discordPayload,
  emailMessage,
  type MessageInput,
  slackPayload,
  webhookPayload,
} from './notification-messages.ts';
import {
  sendWebhookJson,
  WEBHOOK_SERVICES,
  type WebhookSendOptions,
  type WebhookSendResult,
} from './webhook-sender.ts';

// The module's surface for other modules: the mail a service composes, a notification's words.
export { passwordChangedMail, resetMail, verificationMail } from './mail-templates.ts';
export type { Mailer, MailMessage } from './mail-transport.ts';
export {
  headline,
  type MessageInput,
  type MessageKind,
  type NotifiedEvent,
} from './notification-messages.ts';
export type { WebhookSendResult } from './webhook-sender.ts';

export const NO_SLACK_WEBHOOK = 'No Slack webhook is configured in Settings.';

/** A message to queue: it leaves from the job queue after the answer, with its kind's retries. */
export type QueuedMessage =
  /** A mail to an address, sealed in the queue. */
  | { kind: 'mail'; mail: MailMessage }
  /** A text to the member's own Slack webhook (the add-time message), read at send time. */
  | { kind: 'slack'; userId: number; text: string }
  /** A notification delivery over its channel (`notification_deliveries`). */
  | { kind: 'channel'; deliveryId: number };

/** Where a notification goes now: rendered for it, then mailed (queued) or posted. */
export type Destination =
  | { kind: 'email'; address: string }
  /** The member's own Slack webhook, stored under GitHub Access. */
  | { kind: 'slack'; userId: number }
  | { kind: 'discord' | 'webhook'; url: string };

export interface MessagesDeps {
  jobs: Pick<JobQueue, 'enqueue'>;
  /** The mail transport (SMTP, the outbox, or a test's); reached only from the mail job. */
  transport: Mailer;
  /** Seals queued mail with SECRET_KEY. */
  box: SecretBox;
  config: Pick<AppConfig, 'webhookAllowedHosts' | 'webhookTimeoutMs'>;
  /** The member's decrypted Slack webhook, or null when they have none (throws for a missing member). */
  readSlackWebhook(userId: number): Promise<string | null>;
  /** DNS for webhook address checks; tests pass a fixed answer. */
  resolve?: Resolver;
}

/**
 * The one outgoing-message pipeline (docs/architecture.md#messages): `queue` stores a mail, a
 * Slack message or a notification delivery as a job, so no answer waits for a mail server or a
 * webhook; the jobs (messages.jobs.ts) send them through the senders below, with retries. Every
 * webhook goes through one guarded sender (webhook-sender.ts), every mail through the transport.
 */
export class MessagesService {
  readonly #deps: MessagesDeps;
  /** The queued mailer for services that only mail (auth): `send` queues the message. */
  readonly mailer: Mailer;

  constructor(deps: MessagesDeps) {
    this.#deps = deps;
    this.mailer = {
      send: async (message) => {
        await this.queue({ kind: 'mail', mail: message });
      },
      close: () => deps.transport.close(),
    };
  }

  /**
   * Stores the message as a job; `db` may be a transaction, so the job exists exactly when the
   * caller's change does. Returns the job id.
   */
  queue(message: QueuedMessage, options: { db?: Kysely<Database> } = {}): Promise<number> {
    const { jobs, box } = this.#deps;
    switch (message.kind) {
      case 'mail':
        return jobs.enqueue(
          MAIL_JOB,
          { sealed: box.seal(JSON.stringify(message.mail), MAIL_SEAL_CONTEXT) },
          options,
        );
      case 'slack':
        return jobs.enqueue(SLACK_MESSAGE_JOB, { user_id: message.userId, text: message.text }, options);
      case 'channel':
        return jobs.enqueue(CHANNEL_DELIVERY_JOB, { delivery_id: message.deliveryId }, options);
    }
  }

  /**
   * Sends a notification now (a delivery's attempt, "Send test"), rendered for its destination:
   * an e-mail is handed to the mail queue, a webhook posted once. A failure is returned, never
   * thrown, within WEBHOOK_TIMEOUT_MS.
   */
  async sendNotification(
    destination: Destination,
    input: MessageInput,
    signal?: AbortSignal,
  ): Promise<WebhookSendResult> {
    const options = this.#webhookOptions(signal);
    switch (destination.kind) {
      case 'email':
        await this.queue({ kind: 'mail', mail: emailMessage(input, destination.address) });
        return { sent: true };
      case 'slack': {
        let url: string | null;
        try {
          url = await this.#deps.readSlackWebhook(destination.userId);
        } catch {
          return { sent: false, error: 'The stored Slack webhook cannot be opened; store it again' };
        }
        if (!url) return { sent: false, error: NO_SLACK_WEBHOOK };
        return sendWebhookJson(url, slackPayload(input), { ...options, service: WEBHOOK_SERVICES.slack });
      }
      case 'discord':
        return sendWebhookJson(destination.url, discordPayload(input), {
          ...options,
          service: WEBHOOK_SERVICES.discord,
        });
      case 'webhook':
        return sendWebhookJson(destination.url, webhookPayload(input), {
          ...options,
          service: WEBHOOK_SERVICES.webhook,
        });
    }
  }

  /** The guard on a channel's URL when it is saved (and again at every send): allowed host, https, public address. */
  async checkWebhookUrl(kind: 'discord' | 'webhook', raw: string): Promise<URL> {
    const { config, resolve } = this.#deps;
    const url = await checkWebhookUrl(raw, config.webhookAllowedHosts, resolve, WEBHOOK_SERVICES[kind].label);
    if (kind === 'discord' && url.hostname === 'discord.com' && !url.pathname.startsWith('/api/webhooks/')) {
      const message = 'Discord webhook URL must look like https://discord.com/api/webhooks/…';
      throw badRequest(message, { url: message });
    }
    return url;
  }

  // ---- the senders the jobs run (messages.jobs.ts) ----------------------------------------------

  /** One queued mail: opened, then handed to the transport (which settles within SMTP_TIMEOUT_MS). */
  async sendQueuedMail(payload: MailPayload, signal: AbortSignal): Promise<void> {
    let message: MailMessage;
    try {
      message = JSON.parse(this.#deps.box.open(payload.sealed, MAIL_SEAL_CONTEXT)) as MailMessage;
    } catch {
      // Sealed under another SECRET_KEY (or damaged): no retry can open it.
      throw new PermanentJobError('the queued message cannot be decrypted with this SECRET_KEY');
    }
    await this.#deps.transport.send(message, { signal });
  }

  /**
   * One attempt of a queued Slack message: retried on no answer, a reset, a time-out, 429 or
   * 5xx; failed at once on what retrying can't fix (a refused URL, another 4xx, the webhook
   * removed). The job row keeps the outcome; no channel's failure count is touched.
   */
  async sendQueuedSlackMessage(payload: SlackMessagePayload, signal: AbortSignal): Promise<void> {
    let webhook: string | null;
    try {
      webhook = await this.#deps.readSlackWebhook(payload.user_id);
    } catch (error) {
      if (error instanceof AppError) throw new PermanentJobError('The member no longer exists.');
      throw error;
    }
    if (!webhook) throw new PermanentJobError(NO_SLACK_WEBHOOK);
    const result = await sendWebhookJson(webhook, { text: payload.text }, this.#webhookOptions(signal));
    if (result.sent) return;
    const message = result.error ?? 'Slack could not be reached';
    throw result.retryable ? new Error(message) : new PermanentJobError(message);
  }

  #webhookOptions(signal?: AbortSignal): WebhookSendOptions {
    const { config, resolve } = this.#deps;
    return { allowedHosts: config.webhookAllowedHosts, timeoutMs: config.webhookTimeoutMs, resolve, signal };
  }
}
