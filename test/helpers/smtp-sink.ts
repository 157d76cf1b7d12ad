import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { WAIT_CEILING_MS } from './wait-ceiling.ts';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  subject: string;
  /** The first app link in the body (verification or reset), decoded from quoted-printable. */
  link: string | null;
}

/**
 * A real SMTP server on 127.0.0.1 that keeps what it receives, so tests exercise nodemailer's
 * SMTP path end to end. `SMTP_URL` for the app is `smtpUrl`.
 */
export async function startSmtpSink(): Promise<{
  smtpUrl: string;
  mails: ReceivedMail[];
  waitForMail(
    to: string,
    predicate?: (mail: ReceivedMail) => boolean,
    timeoutMs?: number,
  ): Promise<ReceivedMail>;
  close(): Promise<void>;
}> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const decoded = decodeQuotedPrintable(raw);
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw,
          subject: decoded.match(/^Subject: (.*)$/m)?.[1]?.trim() ?? '',
          link: appLinkInMail(raw),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    smtpUrl: `smtp://127.0.0.1:${port}`,
    mails,
    async waitForMail(to, predicate = () => true, timeoutMs = WAIT_CEILING_MS) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const found = [...mails]
          .reverse()
          .find((mail) => mail.to.includes(to.toLowerCase()) && predicate(mail));
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(
        `no mail to ${to} within ${timeoutMs} ms (received: ${mails.map((mail) => mail.subject).join(', ')})`,
      );
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A raw mail (SMTP data or an outbox `.eml` file) with its quoted-printable soft breaks undone. */
export function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** The first app link in a raw mail (verification or reset), or null. */
export function appLinkInMail(raw: string): string | null {
  return (
    decodeQuotedPrintable(raw).match(
      /https?:\/\/[^\s"<>]+#\/(?:verify-email|reset-password)\?token=[A-Za-z0-9_%-]+/,
    )?.[0] ?? null
  );
}
