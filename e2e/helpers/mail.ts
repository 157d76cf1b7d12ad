import { type APIRequestContext, expect } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 4173);
/** e2e/serve.ts's control server: GET /mails?to= lists what the SMTP sink received. */
export const CONTROL_URL = `http://127.0.0.1:${port + 1}`;

export interface ReceivedMail {
  to: string[];
  subject: string;
  link: string | null;
}

export async function listMails(request: APIRequestContext, to: string): Promise<ReceivedMail[]> {
  const response = await request.get(`${CONTROL_URL}/mails?to=${encodeURIComponent(to)}`);
  expect(response.ok()).toBe(true);
  return (await response.json()) as ReceivedMail[];
}

/**
 * Waits for the newest mail to `to` whose link leads to `kind` (#/verify-email or
 * #/reset-password) and returns that link, skipping the `skip` links already used.
 */
export async function waitForLink(
  request: APIRequestContext,
  to: string,
  kind: 'verify-email' | 'reset-password',
  skip: string[] = [],
): Promise<string> {
  let link: string | null = null;
  await expect
    .poll(
      async () => {
        const mails = await listMails(request, to);
        link =
          mails
            .map((mail) => mail.link)
            .filter((candidate): candidate is string => candidate?.includes(`#/${kind}?token=`) ?? false)
            .filter((candidate) => !skip.includes(candidate))
            .at(-1) ?? null;
        return link;
      },
      { message: `a ${kind} mail to ${to}`, timeout: 10_000 },
    )
    .not.toBeNull();
  return link as unknown as string;
}

/** The token of an e-mail link (`…/#/verify-email?token=…`). */
export function tokenOf(link: string): string {
  const token = new URL(link.replace('/#/', '/')).searchParams.get('token');
  if (!token) throw new Error(`no token in ${link}`);
  return token;
}
