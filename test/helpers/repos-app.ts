import type { BuildOptions } from '../../server/app.ts';
import { type GitHubDouble, startGitHubDouble } from '../github-double/index.ts';
import { createTestApp, type TestApp } from './test-app.ts';

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
    { resolve: async () => ['34.235.1.2'], githubTimeoutMs: 1500, ...buildOptions },
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
