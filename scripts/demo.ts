/**
 * `npm run demo`: the whole app offline. Starts the GitHub test double (real ranking data),
 * the app pointed at it on a fresh temporary database, registers a demo admin through the API,
 * stores a personal token for it, and imports ~200 repositories through the batch call. Then a
 * year passes on the double (the later ranking snapshot, a few new releases, a new security
 * advisory, a library that stopped being maintained) and the sync engine and the health and
 * advisory reads run once, so the activity feed, the versions, the health grades and the charts
 * have something to show; a small technology radar is decided before and after the year, with
 * an edition each time (scripts/lib/demo-radar.ts); a local
 * webhook receiver stands in for Slack and prints what the notifications send. Nothing is kept
 * after Ctrl-C.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { FADING_REPOSITORY, listDoubleRepositories, startGitHubDouble } from '../test/github-double/index.ts';
import { moveRadarAfter, seedRadarBefore } from './lib/demo-radar.ts';
import { run } from './lib/run.ts';

const port = Number(process.env.PORT ?? 3000);
const count = Number(process.env.DEMO_REPOSITORIES ?? 200);
const credentials = { email: 'demo@example.com', username: 'demo', password: 'DemoPassw0rd' };

const built = await run('node', ['scripts/build-if-stale.ts']);
if (built !== 0) process.exit(built);

const dataDir = mkdtempSync(join(tmpdir(), 'rt-demo-'));

// A local stand-in for Slack: notifications land here and are printed (listed in the demo's
// allowed webhook hosts, since it is on loopback).
const receiverPort = port + 2;
const received: string[] = [];
const receiver = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk) => {
    body += chunk;
  });
  request.on('end', () => {
    try {
      const text = (JSON.parse(body) as { text?: string }).text ?? body;
      received.push(text);
      console.log(`  [webhook] ${text.split('\n')[0]}`);
    } catch {
      console.log(`  [webhook] ${body.slice(0, 200)}`);
    }
    response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
});
await new Promise<void>((resolve) => receiver.listen(receiverPort, '127.0.0.1', resolve));
const webhookUrl = `http://127.0.0.1:${receiverPort}/services/demo`;
// The star history of every imported repository is read in the background right after the
// import (one request per 100 weeks): a quota and pace wide enough that it is done in about a minute.
const github = await startGitHubDouble({ control: true, quota: { token: 100_000 }, secondary: false });
const app = await buildApp(
  loadConfig({
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    GITHUB_API_URL: github.url,
    GITHUB_GRAPHQL_URL: '',
    // The double accepts any token: with a server token the sync engine reads in GraphQL batches.
    GITHUB_TOKEN: 'ghp_demoServerTokenForTheGitHubDouble01',
    SMTP_URL: '',
    WEBHOOK_ALLOWED_HOSTS: `hooks.slack.com,discord.com,127.0.0.1:${receiverPort}`,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    HISTORY_BACKFILL: 'on',
  }),
  { githubPace: { restPerMinute: 4000 } },
);
await app.listen({ port, host: process.env.HOST ?? '127.0.0.1' });
const base = `http://127.0.0.1:${port}`;

async function api<T>(method: string, path: string, body?: object, token?: string): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

await api('POST', '/auth/register', { ...credentials, first_name: 'Demo', last_name: 'Admin' });
const session = await api<{ access_token: string }>('POST', '/auth/login', {
  email_or_username: credentials.email,
  password: credentials.password,
  remember_me: true,
});
// The double accepts any token: with one, imports take the GraphQL path, 25 repositories a query,
// and the star history (read with a token only) is backfilled with the adder's token.
await api(
  'PUT',
  '/auth/me/github-token',
  { token: 'ghp_demoTokenForTheGitHubDouble0001' },
  session.access_token,
);

// The repositories the double has security advisories for, and one that stops being maintained
// during the demo's year, come first: the Health & security tab has something to show.
const FEATURED = ['expressjs/express', 'django/django', 'tokio-rs/tokio', 'lodash/lodash', FADING_REPOSITORY];
const items = [
  ...FEATURED,
  ...listDoubleRepositories()
    .filter((repository) => !repository.special && !FEATURED.includes(repository.fullName))
    .map((repository) => repository.fullName),
]
  .slice(0, count)
  .map((id) => ({ id }));
const started = Date.now();
const result = await api<{ succeeded: number; failed: number }>(
  'POST',
  '/repositories/batch',
  { items, tags: 'demo' },
  session.access_token,
);

// Every repository's health and advisories read once (the first read of advisories is not news).
await readHealth();
const asAdmin = <T>(method: string, path: string, body?: object) =>
  api<T>(method, path, body, session.access_token);
const imported = new Set(items.map(({ id }) => id));
// The team's radar as it stood before the year: its first edition.
await seedRadarBefore(asAdmin, imported);

// A year passes on GitHub: the later ranking snapshot and a few new releases; one engine run
// turns them into events (descriptions, topics, star milestones, releases), release versions
// and a second day of metrics.
await api('PUT', '/auth/me/slack-webhook', { url: webhookUrl }, session.access_token);
const channel = await api<{ id: number }>(
  'POST',
  '/auth/me/notifications/channels',
  { kind: 'slack', name: 'Demo receiver' },
  session.access_token,
).catch(() => null);
if (channel) {
  await api(
    'POST',
    '/auth/me/notifications/rules',
    {
      channel_id: channel.id,
      event_types: [
        'release_published',
        'star_milestone',
        'archived',
        'license_changed',
        'health_dropped',
        'advisory_published',
      ],
      min_severity: 'medium',
      tags: null,
      cadence: 'instant',
    },
    session.access_token,
  ).catch((error: Error) => console.log(`  (no notification rule: ${error.message})`));
}
github.setSnapshot('2026-08-22');
// The fading library publishes nothing: it stopped being maintained.
const releasing = items.filter(({ id }) => id !== FADING_REPOSITORY).slice(0, 12);
for (const [index, { id }] of releasing.entries()) {
  github.releases.publish(id, {
    tag: `v${2026 + index}.11.0`,
    name: `Demo release ${index + 1}`,
    body: 'Faster, smaller.',
  });
}
await app.db
  .updateTable('repository_sync_state')
  .set({ due_at: new Date(0).toISOString() })
  .execute();
github.addAdvisory({
  summary: 'Express query parser lets a crafted query string exhaust memory',
  severity: 'high',
  vulnerabilities: [
    // No fix yet: open whatever release is tracked.
    { ecosystem: 'npm', package: 'express', vulnerableVersionRange: '<= 5.1.0', firstPatchedVersion: null },
  ],
});
const year = await app.services.sync.syncDue({ owner: 'demo', deadline: Date.now() + 120_000, budget: 1 });
// Health read again after the year, and the daily advisory read. (The app runs on today's clock
// and the double's snapshots are dated 2025-08 and 2026-08, so the fading library is quiet by
// today's date at both reads: it shows at risk, without the fall a clock at the snapshot dates
// sees, which server/modules/repository-health/health-drop.test.ts covers.)
await app.db
  .updateTable('repository_health')
  .set({ due_at: new Date(0).toISOString() })
  .execute();
await readHealth();
// The quarter's moves and the second edition; adopted repositories the year put at risk are flagged.
const blips = await moveRadarAfter(asAdmin, imported, new Date().toISOString().slice(0, 10));
const events = await app.db
  .selectFrom('repository_events')
  .select(({ fn }) => fn.countAll<number>().as('count'))
  .executeTakeFirst();

// A member who still has to confirm the address: the mail waits in the outbox folder.
const member = { email: 'member@example.com', username: 'member', password: 'MemberPassw0rd' };
await api('POST', '/auth/register', { ...member, first_name: 'Demo', last_name: 'Member' });
const outbox = join(dataDir, 'outbox');
let verifyLink = '(the mail is still being written)';
for (let tries = 0; tries < 20; tries += 1) {
  const files = (() => {
    try {
      return readdirSync(outbox).filter((name) => name.endsWith('.eml'));
    } catch {
      return [];
    }
  })();
  const mail = files
    .map((name) => readFileSync(join(outbox, name), 'utf8'))
    .find((text) => text.includes('verify-email'));
  const link = mail
    ?.replace(/=\r?\n/g, '')
    .replace(/=3D/g, '=')
    .match(/https?:\/\/\S*verify-email\S*token=[\w-]+/)?.[0];
  if (link) {
    verifyLink = link;
    break;
  }
  await new Promise((resolve) => setTimeout(resolve, 250));
}

console.log(`
  Repository Tracker demo is running at ${base}

  Sign in as ${credentials.email} (or ${credentials.username}) with the password ${credentials.password}
  Imported ${result.succeeded} repositories (${result.failed} failed) in ${((Date.now() - started) / 1000).toFixed(1)} s from the GitHub double at ${github.url}
  A year passed on the GitHub double: ${year.synced} repositories updated, ${events?.count ?? 0} events in the Activity feed (#/activity)
  The team's radar has ${blips} blips and two editions, 2026 Q3 and 2026 Q4, to compare (#/radar)
  Notifications go to a local webhook receiver at ${webhookUrl}: its messages are printed here
  Mail is not sent: it is written to ${outbox} (open a .eml file to read it)
  ${member.email} / ${member.password} still has to confirm the address: ${verifyLink}
  Data lives in ${dataDir} and is removed when you stop the demo (Ctrl-C).
`);

/** GitHub's health query and advisory reads for every due repository, as the scheduled jobs run them. */
async function readHealth() {
  for (let runs = 0; runs < 20; runs++) {
    const outcome = await app.services.health.refreshDue({ deadline: Date.now() + 60_000 });
    if (!outcome.retryAt) break;
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, (outcome.retryAt?.getTime() ?? 0) - Date.now())),
    );
  }
  for (let runs = 0; runs < 20; runs++) {
    const retryAt = await app.services.advisories.refreshListed({ deadline: Date.now() + 60_000 });
    if (!retryAt) break;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, retryAt.getTime() - Date.now())));
  }
}

/** The year of star history the charts show: reported once the background backfill is done. */
async function reportHistory() {
  const deadline = Date.now() + 10 * 60_000;
  while (Date.now() < deadline) {
    const rows = await app.db.selectFrom('repository_history').select('status').execute();
    const done = rows.filter((row) => row.status !== 'pending').length;
    if (rows.length >= result.succeeded && done === rows.length) {
      console.log(
        `  Star history loaded from the GitHub double for ${done} repositories: the detail charts show years of it.`,
      );
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}
console.log('  Loading each repository’s star history in the background…');
void reportHistory().catch(() => {});

async function stop() {
  await app.close();
  await github.close();
  receiver.close();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
