import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { AppConfig } from '../../config.ts';
import { type Clock, isoNow, systemClock } from '../../lib/clock.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** A mail transport: SMTP, the outbox, or a test's. Messages reach it through the mail job only. */
export interface Mailer {
  /** Settles within the transport's deadline; `signal` may end it sooner. */
  send(message: MailMessage, options?: { signal?: AbortSignal }): Promise<void>;
  close(): void;
}

/**
 * SMTP through nodemailer when `SMTP_URL` is set; otherwise each mail becomes an `.eml` file in
 * `DATA_DIR/outbox` and its path is logged, so a new instance works without a
 * mail server. The mail's link is never logged: it holds a one-time token (docs/security.md#c5).
 */
export function createMailer(config: AppConfig, log: FastifyBaseLogger, clock: Clock = systemClock): Mailer {
  const from = `"${config.appName.replaceAll('"', '')}" <${config.mailFrom}>`;
  if (config.smtpUrl) {
    const url = new URL(config.smtpUrl);
    const phaseTimeoutMs = config.smtpTimeoutMs > 10_000 ? 10_000 : config.smtpTimeoutMs + 1000;
    const transport = nodemailer.createTransport({
      host: url.hostname,
      port: url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587,
      secure: url.protocol === 'smtps:',
      auth: url.username
        ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) }
        : undefined,
      // The one overall deadline below is what bounds a server that drips a byte at a time (an
      // idle timer never fires on it). Per-phase limits cut a dead server short only when the
      // deadline is long; a phase timer as long as the deadline would race it and report less.
      connectionTimeout: phaseTimeoutMs,
      greetingTimeout: phaseTimeoutMs,
      socketTimeout: config.smtpTimeoutMs + 1000,
      socketCloseTimeout: 1000,
      // A server answering with endless lines is cut off here, well before memory matters.
      maxResponseSize: 64 * 1024,
    });
    return {
      async send(message, options = {}) {
        // One deadline for the whole delivery: nodemailer aborts the SMTP connection on it.
        const deadline = AbortSignal.timeout(config.smtpTimeoutMs);
        try {
          await transport.sendMail({
            from,
            to: message.to,
            subject: message.subject,
            text: message.text,
            html: message.html,
            signal: options.signal ? AbortSignal.any([deadline, options.signal]) : deadline,
          });
        } catch (error) {
          if (deadline.aborted)
            throw new Error(`the mail server did not finish within ${config.smtpTimeoutMs} ms`);
          throw error;
        }
      },
      close: () => transport.close(),
    };
  }
  const outbox = join(config.dataDir, 'outbox');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message) {
      const info = await transport.sendMail({
        from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
      mkdirSync(outbox, { recursive: true, mode: 0o700 });
      const file = join(outbox, `${isoNow(clock).replaceAll(':', '-')}-${randomUUID().slice(0, 8)}.eml`);
      writeFileSync(file, info.message as Buffer, { mode: 0o600 });
      log.info(
        { mail_to: message.to, subject: message.subject, file },
        'mail written to the outbox (SMTP_URL is not set)',
      );
    },
    close: () => transport.close(),
  };
}
