import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRegistration } from '../../../test/helpers/auth-factory.ts';
import { appLinkInMail } from '../../../test/helpers/smtp-sink.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

const logLines: string[] = [];
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp(
    { LOG_LEVEL: 'info', PUBLIC_URL: 'https://tracker.example.com' },
    { logStream: { write: (line) => void logLines.push(line) } },
  );
});

afterAll(async () => {
  await t?.close();
});

describe('without SMTP_URL', () => {
  it('writes each mail as an .eml file in DATA_DIR/outbox (0600) and logs its path, never its link', async () => {
    await t.app.inject({ method: 'POST', url: '/auth/register', payload: buildRegistration() }); // first account: admin, no mail
    const body = buildRegistration();
    const response = await t.app.inject({ method: 'POST', url: '/auth/register', payload: body });
    expect(response.json().message).toMatch(/check your email/);

    // Through the job queue: the file appears after the answer, and the queued copy is deleted.
    const outbox = join(t.dataDir, 'outbox');
    const emlFiles = () =>
      existsSync(outbox) ? readdirSync(outbox).filter((file) => file.endsWith('.eml')) : [];
    await expect.poll(emlFiles).toHaveLength(1);
    await expect.poll(() => t.app.db.selectFrom('jobs').selectAll().execute()).toEqual([]);
    const files = emlFiles();
    const file = join(outbox, files[0] ?? '');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const eml = readFileSync(file, 'utf8');
    expect(eml).toContain(`To: ${body.email}`);
    expect(eml).toMatch(/Subject: Verify your e-mail address/);

    const logged = logLines
      .map((line) => JSON.parse(line))
      .find((entry) => entry.msg?.startsWith('mail written to the outbox'));
    expect(logged.file).toBe(file);
    expect(JSON.stringify(logged)).not.toContain('token=');
    const link = appLinkInMail(eml);
    expect(link).toMatch(/^https:\/\/tracker\.example\.com\/#\/verify-email\?token=/);
    const token = new URL((link ?? '').replace('#/', '')).searchParams.get('token');
    const verified = await t.app.inject({ method: 'POST', url: '/auth/verify-email', payload: { token } });
    expect(verified.statusCode).toBe(200);
  });
});
