import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { AppConfig } from '../config.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The one link that matters in this mail; logged in outbox mode so an operator can act on it. */
  link?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/**
 * SMTP through nodemailer when `SMTP_URL` is set; otherwise each mail becomes an `.eml` file in
 * `DATA_DIR/outbox` and its link is logged (DESIGN §5), so a new instance works without a
 * mail server.
 */
export function createMailer(config: AppConfig, log: FastifyBaseLogger): Mailer {
  const from = `"${config.appName.replaceAll('"', '')}" <${config.mailFrom}>`;
  if (config.smtpUrl) {
    const url = new URL(config.smtpUrl);
    const transport = nodemailer.createTransport({
      host: url.hostname,
      port: url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587,
      secure: url.protocol === 'smtps:',
      auth: url.username
        ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) }
        : undefined,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
    return {
      async send(message) {
        await transport.sendMail({
          from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
        });
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
      const file = join(
        outbox,
        `${new Date().toISOString().replaceAll(':', '-')}-${randomUUID().slice(0, 8)}.eml`,
      );
      writeFileSync(file, info.message as Buffer, { mode: 0o600 });
      log.info(
        { mail_to: message.to, subject: message.subject, file, link: message.link },
        'mail written to the outbox (SMTP_URL is not set)',
      );
    },
    close: () => transport.close(),
  };
}
