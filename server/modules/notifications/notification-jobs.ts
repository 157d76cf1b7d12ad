import type { FastifyBaseLogger } from 'fastify';
import type { JobQueue } from '../../jobs/job-queue.ts';
import {
  type DeliverPayload,
  type DigestPayload,
  NOTIFY_DELIVER_JOB,
  NOTIFY_DIGEST_JOB,
  NOTIFY_DISPATCH_JOB,
  type NotificationsService,
} from './notifications.service.ts';

/** How long one dispatcher run reads events before the next tick takes over (within its deadline). */
export const DISPATCH_RUN_MS = 45_000;

/**
 * The notification jobs (docs/architecture.md#notifications): the dispatcher run the schedule
 * enqueues, the digest run at DIGEST_HOUR, and one delivery per message, retried with back-off
 * (10 s doubling) until it is sent, fails for good, or its channel is turned off.
 */
export function registerNotificationJobs(
  jobs: JobQueue,
  notifications: NotificationsService,
  options: { webhookTimeoutMs: number; log: FastifyBaseLogger },
): void {
  jobs.register(
    NOTIFY_DISPATCH_JOB,
    async () => {
      const outcome = await notifications.dispatch({ deadline: Date.now() + DISPATCH_RUN_MS });
      if (outcome.events > 0)
        options.log.info({ job: NOTIFY_DISPATCH_JOB, ...outcome }, 'notifications dispatched');
    },
    // Not retried: the next tick reads on from the cursor.
    { maxAttempts: 1, timeoutMs: DISPATCH_RUN_MS + 15_000 },
  );
  jobs.register<DigestPayload>(
    NOTIFY_DIGEST_JOB,
    async (payload) => {
      const sent = await notifications.sendDigests(payload.cadences);
      options.log.info(
        { job: NOTIFY_DIGEST_JOB, cadences: payload.cadences, digests: sent },
        'digests queued',
      );
    },
    // Each rule's digest is taken in its own transaction, so a retry sends only what is left.
    { maxAttempts: 5, timeoutMs: 120_000 },
  );
  jobs.register<DeliverPayload>(
    NOTIFY_DELIVER_JOB,
    (payload, context) => notifications.deliver(payload.delivery_id, context),
    { maxAttempts: 8, timeoutMs: options.webhookTimeoutMs + 1000 },
  );
}
