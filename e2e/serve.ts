/**
 * The world the browser journeys run against: the built app on SQLite in a temporary
 * DATA_DIR, the GitHub double, and a real SMTP sink. A small control server on E2E_PORT + 1
 * lets the journeys read the received mail (GET /mails), find the double (GET /github) and
 * sign in as the instance's administrator (GET /admin), registered first so that every
 * journey's own accounts go through e-mail verification like real members.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { startGitHubDouble } from '../test/github-double/index.ts';
import { startSmtpSink } from '../test/helpers/smtp-sink.ts';

const port = Number(process.env.E2E_PORT ?? 4173);
const dataDir = mkdtempSync(join(tmpdir(), 'rt-e2e-'));
const github = await startGitHubDouble({ control: true });
const smtp = await startSmtpSink();

const config = loadConfig({
  PORT: String(port),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  PUBLIC_URL: `http://127.0.0.1:${port}`,
  GITHUB_API_URL: github.url,
  SMTP_URL: smtp.smtpUrl,
  LOG_LEVEL: 'warn',
  SECRET_KEY: 'e2e-secret-key-0123456789abcdef0123456789abcdef',
  GIT_COMMIT: process.env.GIT_COMMIT ?? '',
  // Journeys send their own X-Forwarded-For, so each gets its own rate-limit counters.
  TRUST_PROXY: '127.0.0.1',
  SYNC_SCHEDULE: 'off',
  BACKUP_SCHEDULE: 'off',
});
// E2E_WEB_DIST serves another build (parallel runs on one machine); web/dist by default.
const app = await buildApp(config, { webDistDir: process.env.E2E_WEB_DIST });
await app.listen({ port, host: '127.0.0.1' });

const E2E_ADMIN = { email: 'e2e-admin@example.com', username: 'e2e_admin', password: 'E2eAdminPassw0rd' };
const registered = await app.inject({
  method: 'POST',
  url: '/auth/register',
  payload: { ...E2E_ADMIN, first_name: 'Erin', last_name: 'Admin' },
});
if (registered.statusCode !== 201) throw new Error(`could not register the e2e admin: ${registered.body}`);

const control = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://control');
  if (url.pathname === '/mails') {
    const to = url.searchParams.get('to')?.toLowerCase();
    const mails = smtp.mails.filter((mail) => !to || mail.to.includes(to));
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify(mails.map(({ to: recipients, subject, link }) => ({ to: recipients, subject, link }))),
    );
    return;
  }
  if (url.pathname === '/admin') {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(E2E_ADMIN));
    return;
  }
  if (url.pathname === '/github') {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ url: github.url }));
    return;
  }
  response.writeHead(404).end();
});
await new Promise<void>((resolve) => control.listen(port + 1, '127.0.0.1', resolve));

async function shutdown() {
  await app.close();
  control.close();
  await smtp.close();
  await github.close();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
