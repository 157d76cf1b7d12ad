/**
 * `npm run demo`: the whole app offline. Starts the GitHub test double (real ranking data),
 * the app pointed at it on a fresh temporary database, registers a demo admin through the API,
 * stores a personal token for it, and imports ~200 repositories through the batch call, so
 * every screen has something to show. Nothing is kept after Ctrl-C.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { listDoubleRepositories, startGitHubDouble } from '../test/github-double/index.ts';
import { run } from './lib/run.ts';

const port = Number(process.env.PORT ?? 3000);
const count = Number(process.env.DEMO_REPOSITORIES ?? 200);
const credentials = { email: 'demo@example.com', username: 'demo', password: 'DemoPassw0rd' };

const built = await run('node', ['scripts/build-if-stale.ts']);
if (built !== 0) process.exit(built);

const dataDir = mkdtempSync(join(tmpdir(), 'rt-demo-'));
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
    GITHUB_TOKEN: '',
    SMTP_URL: '',
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

const items = listDoubleRepositories()
  .filter((repository) => !repository.special)
  .slice(0, count)
  .map((repository) => ({ id: repository.fullName }));
const started = Date.now();
const result = await api<{ succeeded: number; failed: number }>(
  'POST',
  '/repositories/batch',
  { items, tags: 'demo' },
  session.access_token,
);

console.log(`
  Repository Tracker demo is running at ${base}

  Sign in as ${credentials.email} (or ${credentials.username}) with the password ${credentials.password}
  Imported ${result.succeeded} repositories (${result.failed} failed) in ${((Date.now() - started) / 1000).toFixed(1)} s from the GitHub double at ${github.url}
  Data lives in ${dataDir} and is removed when you stop the demo (Ctrl-C).
`);

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
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
