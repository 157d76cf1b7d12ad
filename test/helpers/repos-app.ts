import type { BuildOptions } from '../../server/app.ts';
import { type GitHubDouble, startGitHubDouble } from '../github-double/index.ts';
import { createTestApp, type TestApp } from './test-app.ts';

/**
 * How long the app waits for the double before giving up (GITHUB_TIMEOUT_MS is 10 s in
 * production). Short enough that a test of a hanging GitHub ends soon, long enough that a busy
 * machine's slow answer is not taken for a hang (1.5 s failed syncs under load).
 */
export const TEST_GITHUB_TIMEOUT_MS = 5000;

/**
 * The app pointed at a fresh GitHub double, for repository tests. `env` adds configuration
 * (e.g. GITHUB_TOKEN); the double is closed with the app.
 */
export async function createReposTestApp(
  env: Record<string, string> = {},
  doubleOptions: Parameters<typeof startGitHubDouble>[0] = {},
  buildOptions: BuildOptions = {},
): Promise<TestApp & { github: GitHubDouble }> {
  const github = await startGitHubDouble(doubleOptions);
  const t = await createTestApp(
    { GITHUB_API_URL: github.url, WEBHOOK_ALLOWED_HOSTS: 'hooks.slack.com,127.0.0.1', ...env },
    { resolve: async () => ['34.235.1.2'], githubTimeoutMs: TEST_GITHUB_TIMEOUT_MS, ...buildOptions },
  );
  return {
    ...t,
    github,
    async close() {
      await t.close();
      await github.close();
    },
  };
}

/** `/repositories/{id}` with the id URL-encoded, as the API expects. */
export const repoPath = (fullName: string, suffix = '') =>
  `/repositories/${encodeURIComponent(fullName)}${suffix}`;

/**
 * Makes every repository due now and runs the sync engine once, as a tick's run does
 * (`budget` 1: the test may spend the whole quota).
 */
export async function syncEverythingNow(app: TestApp['app'], budget = 1) {
  await app.db.updateTable('repository_sync_state').set({ due_at: '1970-01-01T00:00:00.000Z' }).execute();
  return app.services.sync.syncDue({ owner: 'test-run', deadline: Date.now() + 60_000, budget });
}
