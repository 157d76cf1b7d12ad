import { z } from 'zod';
import type { JobContext } from '../../jobs/job-definition.ts';
import { defineJob, type JobDefinition, jobKind } from '../../jobs/job-definition.ts';

/**
 * The outgoing messages' job kinds (docs/architecture.md#messages): every message the app sends
 * leaves from the job queue, after the answer, with the kind's retries. This file imports no
 * service, so any module may queue a message by its kind (the catalogue queues the add-time
 * Slack message here); the messages service queues the others and sends them all.
 */

/**
 * One mail to one address. The message holds one-time links, so it is queued sealed with
 * SECRET_KEY (MAIL_SEAL_CONTEXT): no address, link or token is readable in the job row.
 */
export const MAIL_JOB = jobKind('mail', z.object({ sealed: z.string().min(1) }));
export type MailPayload = z.output<typeof MAIL_JOB.payload>;

/** Additional data for sealed mail: a sealed value from another column or purpose won't open here. */
export const MAIL_SEAL_CONTEXT = 'job:mail';

/**
 * The Slack message after an add, to the member's own webhook. Only the member and the text are
 * queued: the webhook URL (a secret) stays sealed in the member's row and is read at send time,
 * so it never sits in the job table or its errors. It is no notification channel: its failures
 * never count toward a channel's automatic turning off.
 */
export const SLACK_MESSAGE_JOB = jobKind(
  'slack-message',
  z.object({ user_id: z.number().int().positive(), text: z.string().min(1) }),
);
export type SlackMessagePayload = z.output<typeof SLACK_MESSAGE_JOB.payload>;

/**
 * One notification delivery over its channel (a row of `notification_deliveries`): the row says
 * what and where; the channel's URL stays sealed in its own row.
 */
export const CHANNEL_DELIVERY_JOB = jobKind(
  'notifications:deliver',
  z.object({ delivery_id: z.number().int().positive() }),
);
export type ChannelDeliveryPayload = z.output<typeof CHANNEL_DELIVERY_JOB.payload>;

/**
 * The add-time Slack message, "Ada Lovelace added <…|facebook/react> (★ 230k) to …": one per
 * add, one summary per batch or import (docs/product.md#notifications).
 */
export function addedSlackMessage(
  userId: number,
  words: { appName: string; actor: string },
  repositories: { id: string; url: string; stars: number }[],
): SlackMessagePayload {
  const { appName, actor } = words;
  if (repositories.length === 1) {
    const [repository] = repositories;
    return {
      user_id: userId,
      text: `${actor} added <${repository?.url}|${repository?.id}> (★ ${repository?.stars}) to ${appName}.`,
    };
  }
  const lines = repositories
    .slice(0, 20)
    .map((repository) => `• <${repository.url}|${repository.id}> (★ ${repository.stars})`);
  const more = repositories.length > 20 ? `\n…and ${repositories.length - 20} more.` : '';
  return {
    user_id: userId,
    text: `${actor} added ${repositories.length} repositories to ${appName}:\n${lines.join('\n')}${more}`,
  };
}

/** What the message jobs run: the messages service sends; a delivery's attempt is the notifications'. */
export interface MessageJobDeps {
  senders: {
    sendQueuedMail(payload: MailPayload, signal: AbortSignal): Promise<void>;
    sendQueuedSlackMessage(payload: SlackMessagePayload, signal: AbortSignal): Promise<void>;
  };
  /** One attempt of a notification delivery (it records its outcome on the delivery and channel). */
  deliverToChannel(deliveryId: number, context: JobContext): Promise<void>;
  smtpTimeoutMs: number;
  webhookTimeoutMs: number;
}

/**
 * The outgoing-message jobs. Each transport's own deadline settles first; the queue's deadline
 * (one second longer) is the backstop. Retries are 10 s doubling.
 */
export function messageJobs(deps: MessageJobDeps): JobDefinition[] {
  return [
    defineJob({
      kind: MAIL_JOB,
      run: (payload, { signal }) => deps.senders.sendQueuedMail(payload, signal),
      // About 1.5 hours of retries; reset links live 1 hour, verification 24. Sensitive: the row
      // is deleted once sent, and its payload erased if every attempt failed.
      retry: { maxAttempts: 10, timeoutMs: deps.smtpTimeoutMs + 1000, sensitive: true },
    }),
    defineJob({
      kind: SLACK_MESSAGE_JOB,
      run: (payload, { signal }) => deps.senders.sendQueuedSlackMessage(payload, signal),
      // Six attempts over about five minutes.
      retry: { maxAttempts: 6, timeoutMs: deps.webhookTimeoutMs + 1000 },
    }),
    defineJob({
      kind: CHANNEL_DELIVERY_JOB,
      run: (payload, context) => deps.deliverToChannel(payload.delivery_id, context),
      // Until it is sent, fails for good, or its channel is turned off.
      retry: { maxAttempts: 8, timeoutMs: deps.webhookTimeoutMs + 1000 },
    }),
  ];
}
