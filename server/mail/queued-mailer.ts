import type { JobQueue } from '../jobs/job-queue.ts';
import { PermanentJobError } from '../jobs/job-queue.ts';
import type { SecretBox } from '../lib/secret-box.ts';
import type { Mailer, MailMessage } from './mailer.ts';

export const MAIL_JOB = 'mail';
/** Additional data for sealed mail: a sealed value from another column or purpose won't open here. */
const MAIL_CONTEXT = 'job:mail';

/**
 * Mail leaves after the answer (issue 9, finding 5): `send` only stores the message in the job
 * queue, so a request that mails answers as fast as one that doesn't, whatever the mail server
 * does. The message holds one-time links, so it is stored sealed with SECRET_KEY, the row is
 * deleted once the transport accepted it, and its payload erased if every attempt failed.
 * Works the same with SMTP and with the outbox transport.
 */
export function createQueuedMailer(
  queue: JobQueue,
  transport: Mailer,
  box: SecretBox,
  options: { timeoutMs: number; maxAttempts?: number },
): Mailer {
  queue.register<{ sealed: string }>(
    MAIL_JOB,
    async (payload, { signal }) => {
      let message: MailMessage;
      try {
        message = JSON.parse(box.open(payload.sealed, MAIL_CONTEXT)) as MailMessage;
      } catch {
        // Sealed under another SECRET_KEY (or damaged): no retry can open it.
        throw new PermanentJobError('the queued message cannot be decrypted with this SECRET_KEY');
      }
      await transport.send(message, { signal });
    },
    {
      // About 1.5 hours of retries (10 s doubling); reset links live 1 hour, verification 24.
      maxAttempts: options.maxAttempts ?? 10,
      // The transport's own deadline settles first; this one is the queue's backstop.
      timeoutMs: options.timeoutMs + 1000,
      sensitive: true,
    },
  );
  return {
    async send(message) {
      await queue.enqueue(MAIL_JOB, { sealed: box.seal(JSON.stringify(message), MAIL_CONTEXT) });
    },
    close: () => transport.close(),
  };
}
