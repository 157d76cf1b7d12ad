import { type JobQueue, PermanentJobError } from '../jobs/job-queue.ts';
import { AppError } from '../lib/app-error.ts';
import type { Resolver } from '../lib/outbound-guard.ts';
import { sendSlackMessage } from './slack-notifier.ts';

export const SLACK_MESSAGE_JOB = 'slack-message';

/**
 * Only the member and the text are queued: the webhook URL (a secret) stays sealed in the
 * member's row and is read at send time, so it never sits in the job table or its errors.
 */
export interface SlackMessagePayload {
  user_id: number;
  text: string;
}

export interface SlackJobDeps {
  /** The member's decrypted webhook, or null when they have none. */
  readWebhook(userId: number): Promise<string | null>;
  allowedHosts: string[];
  timeoutMs: number;
  resolve?: Resolver;
}

/**
 * Sends queued Slack messages (issue 9, finding 4): retried with back-off on no answer, a
 * reset, a time-out, 429 or 5xx; failed at once on what retrying can't fix (a refused URL, other
 * 4xx, the webhook removed). The job row keeps the outcome: status, attempts and last error.
 */
export function registerSlackMessageJob(queue: JobQueue, deps: SlackJobDeps): void {
  queue.register<SlackMessagePayload>(
    SLACK_MESSAGE_JOB,
    async (payload, { signal }) => {
      let webhook: string | null;
      try {
        webhook = await deps.readWebhook(payload.user_id);
      } catch (error) {
        if (error instanceof AppError) throw new PermanentJobError('The member no longer exists.');
        throw error;
      }
      if (!webhook) throw new PermanentJobError('No Slack webhook is configured in Settings.');
      const result = await sendSlackMessage(webhook, payload.text, {
        allowedHosts: deps.allowedHosts,
        timeoutMs: deps.timeoutMs,
        resolve: deps.resolve,
        signal,
      });
      if (result.sent) return;
      const message = result.error ?? 'Slack could not be reached';
      throw result.retryable ? new Error(message) : new PermanentJobError(message);
    },
    // Six attempts over about five minutes (10 s doubling).
    { maxAttempts: 6, timeoutMs: deps.timeoutMs + 1000 },
  );
}
