/**
 * Records the commit the web build was made from, for deployments without a .git folder
 * (server/lib/git-commit.ts reads it).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

let gitCommit: string | null = process.env.GIT_COMMIT ?? null;
if (!gitCommit) {
  try {
    gitCommit = execFileSync('git', ['rev-parse', 'HEAD'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    gitCommit = null;
  }
}
writeFileSync(
  'web/dist/build-info.json',
  `${JSON.stringify({ git_commit: gitCommit, built_at: new Date().toISOString() })}\n`,
);
