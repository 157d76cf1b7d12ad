/**
 * The world the browser journeys run against: the built app on SQLite in a temporary
 * DATA_DIR, the GitHub double, and a real SMTP sink. A small control server on E2E_PORT + 1
 * lets the journeys read the received mail (GET /mails), find the double (GET /github) and
 * sign in as the instance's administrator (GET /admin), registered first so that every
 * journey's own accounts go through e-mail verification like real members. For the scale
 * journey it also fills the catalogue in bulk (POST /catalogue/seed) and empties it again
 * (POST /catalogue/clear); a retried journey removes what its failed try added (POST
 * /catalogue/remove?names=owner/name,…). The single sign-on journey's provider and instances are
 * e2e/serve-sso.ts's, on E2E_PORT + 3 and + 4.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { insertEvents } from '../server/modules/activity/events.queries.ts';
import { insertRepository, type NewRepository } from '../server/repository/repository.queries.ts';
import { rebuildDerivedTables } from '../server/repository/repository-labels.ts';
import { startGitHubDouble } from '../test/github-double/index.ts';
import { startSmtpSink } from '../test/helpers/smtp-sink.ts';
import { startSsoWorld } from './serve-sso.ts';

const port = Number(process.env.E2E_PORT ?? 4173);
const dataDir = mkdtempSync(join(tmpdir(), 'rt-e2e-'));
const github = await startGitHubDouble({ control: true });
const smtp = await startSmtpSink();

// Notification webhooks (e2e/notifications.spec.ts) reach this sink on E2E_PORT + 2, a listed host.
const notificationSink: { path: string; body: unknown }[] = [];
const sinkServer = createServer((request, response) => {
  let raw = '';
  request.on('data', (chunk) => {
    raw += chunk;
  });
  request.on('end', () => {
    try {
      notificationSink.push({ path: request.url ?? '/', body: JSON.parse(raw) });
    } catch {
      notificationSink.push({ path: request.url ?? '/', body: raw });
    }
    response.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => sinkServer.listen(port + 2, '127.0.0.1', resolve));

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
  // The notification journey's sink, and a dispatcher that looks for new events every 2 s.
  WEBHOOK_ALLOWED_HOSTS: `hooks.slack.com,discord.com,127.0.0.1:${port + 2}`,
  NOTIFICATION_SCHEDULE: '*/2 * * * * *',
  // The decisions journey proposes as a member and accepts as the admin.
  DECISIONS_BY: 'admins',
  // The public pages journey publishes a view and opens it without JavaScript; badges show a published ring.
  PUBLIC_PAGES: 'on',
  PUBLIC_BADGES: 'on',
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

/**
 * `count` public repositories added by `username`, named `{prefix}{n % 97}/repo-{n}` (n from `start`), written in
 * bulk and then indexed the way a restore is (one code path for the derived tables), so the
 * journey meets what a large team's catalogue gives the server.
 */
async function seedCatalogue(count: number, username: string, prefix: string, start = 0): Promise<number> {
  const user = await app.db
    .selectFrom('users')
    .select('id')
    .where('username', '=', username)
    .executeTakeFirst();
  if (!user) throw new Error(`no user ${username}`);
  const licenses = ['MIT', 'Apache-2.0', '', 'GPL-3.0'];
  const rows: NewRepository[] = Array.from({ length: count }, (_, n) => n + start).map((i) => ({
    full_name: `${prefix}${i % 97}/repo-${i}`,
    github_id: 900_000_000 + i,
    user_id: user.id,
    name: `repo-${i}`,
    description: `Synthetic repository number ${i} for the list's scale check`,
    url: `https://github.com/${prefix}${i % 97}/repo-${i}`,
    license: licenses[i % 4] ?? '',
    topics: 'scale,test',
    tags: `batch-${i % 50}`,
    notes: '',
    stars: (i * 7919) % 250_000,
    forks: i % 5000,
    issues: i % 300,
    commits: 1000 + i,
    contributors: i % 1200,
    contributors_capped: 0,
    language: 'TypeScript',
    archived: 0,
    private: 0,
    gone: 0,
    default_branch: 'main',
    last_commit: new Date(Date.UTC(2026, 0, 1) - i * 3_600_000).toISOString(),
    last_synced: '2026-08-20T10:00:00.000Z',
    etags: '{}',
    created_at: '2026-08-01T10:00:00.000Z',
    updated_at: '2026-08-20T10:00:00.000Z',
  }));
  for (let start = 0; start < rows.length; start += 500) {
    await app.db
      .insertInto('repositories')
      .values(rows.slice(start, start + 500))
      .execute();
  }
  await rebuildDerivedTables(app.db, app.clock.now());
  return count;
}

async function clearCatalogue(prefix: string): Promise<void> {
  await app.db.deleteFrom('repositories').where('full_name', 'like', `${prefix}%/repo-%`).execute();
  await rebuildDerivedTables(app.db, app.clock.now());
}

/** The named repositories (`owner/*`: all of that owner's), gone with everything that hangs off them. */
async function removeRepositories(names: string[]): Promise<number> {
  if (names.length === 0 || !names.every((name) => /^[\w.-]+\/([\w.-]+|\*)$/.test(name))) {
    throw new Error('names: owner/name or owner/*, comma-separated');
  }
  const exact = names.filter((name) => !name.endsWith('/*'));
  const owners = names.filter((name) => name.endsWith('/*')).map((name) => name.slice(0, -1));
  const removed = await app.db
    .deleteFrom('repositories')
    .where((eb) =>
      eb.or([
        ...(exact.length > 0 ? [eb('full_name', 'in', exact)] : []),
        ...owners.map((owner) => eb('full_name', 'like', `${owner}%`)),
      ]),
    )
    .executeTakeFirst();
  await rebuildDerivedTables(app.db, app.clock.now());
  return Number(removed.numDeletedRows);
}

async function controlCatalogue(url: URL): Promise<unknown> {
  if (url.pathname === '/catalogue/remove') {
    return { removed: await removeRepositories((url.searchParams.get('names') ?? '').split(',')) };
  }
  const prefix = url.searchParams.get('prefix') ?? 'scale';
  if (!/^[a-z]+$/.test(prefix)) throw new Error('prefix: lower-case letters only');
  if (url.pathname === '/catalogue/seed') {
    const count = Number(url.searchParams.get('count') ?? 10_000);
    // `start` numbers the rows (and their GitHub ids) after another seed's, so two can coexist.
    const start = Number(url.searchParams.get('start') ?? 0);
    return { seeded: await seedCatalogue(count, url.searchParams.get('username') ?? '', prefix, start) };
  }
  await clearCatalogue(prefix);
  return { cleared: true };
}

/**
 * A release of `name` (created with `tags` when missing), recorded the way the sync engine
 * records one: for the notification journey's dispatcher to pick up.
 */
async function recordReleaseEvent(url: URL): Promise<unknown> {
  const name = url.searchParams.get('name') ?? '';
  if (!/^[a-z0-9-]+\/[a-z0-9.-]+$/.test(name)) throw new Error('name: owner/name in lower case');
  const now = new Date().toISOString();
  let repository = await app.db
    .selectFrom('repositories')
    .select('id')
    .where('full_name', '=', name)
    .executeTakeFirst();
  if (!repository) {
    repository = await insertRepository(
      app.db,
      {
        full_name: name,
        github_id: 950_000_000 + Math.floor(Math.random() * 1_000_000),
        user_id: null,
        name: name.split('/')[1] ?? name,
        description: 'A repository for the notification journey',
        url: `https://github.com/${name}`,
        license: 'MIT',
        topics: '',
        tags: url.searchParams.get('tags') ?? '',
        notes: '',
        stars: 1200,
        forks: 10,
        issues: 1,
        commits: 100,
        contributors: 3,
        contributors_capped: 0,
        language: 'TypeScript',
        archived: 0,
        private: 0,
        gone: 0,
        default_branch: 'main',
        last_commit: now,
        last_synced: now,
        etags: '{}',
        created_at: now,
        updated_at: now,
      },
      new Date(Date.now() + 86_400_000),
    );
  }
  const tag = url.searchParams.get('tag') ?? 'v1.0.0';
  await insertEvents(
    app.db,
    [
      {
        type: 'release_published',
        repository_id: repository.id,
        data: { tag, name: null, url: `https://github.com/${name}/releases/tag/${tag}`, prerelease: false },
      },
    ],
    now,
  );
  return { recorded: true };
}

const sso = await startSsoWorld(port, {
  smtpUrl: smtp.smtpUrl,
  githubUrl: github.url,
  webDistDir: process.env.E2E_WEB_DIST,
});

const control = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://control');
  if (sso.handle(request, response, url)) return;
  if (
    request.method === 'POST' &&
    (url.pathname === '/catalogue/seed' ||
      url.pathname === '/catalogue/clear' ||
      url.pathname === '/catalogue/remove')
  ) {
    controlCatalogue(url).then(
      (body) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      },
      (error: unknown) => {
        response.writeHead(500, { 'content-type': 'text/plain' });
        response.end(String(error));
      },
    );
    return;
  }
  if (request.method === 'POST' && url.pathname === '/notifications/event') {
    recordReleaseEvent(url).then(
      (body) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      },
      (error: unknown) => {
        response.writeHead(500, { 'content-type': 'text/plain' });
        response.end(String(error));
      },
    );
    return;
  }
  if (url.pathname === '/notifications/webhooks') {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ url: `http://127.0.0.1:${port + 2}`, received: notificationSink }));
    return;
  }
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
  await sso.close();
  control.close();
  sinkServer.close();
  await smtp.close();
  await github.close();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
