import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const projectRoot = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The commit the server runs: `GIT_COMMIT` when the deployment sets it, else `git rev-parse HEAD`, else the
 * value the web build wrote into `web/dist/build-info.json`, else null (unknown).
 */
export function resolveGitCommit(configured?: string): string | null {
  if (configured) return configured;
  return readGitHead() ?? readBuildInfo();
}

function readGitHead(): string | null {
  try {
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd: projectRoot,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 2000,
    }).trim();
    return /^[0-9a-f]{40}$/.test(commit) ? commit : null;
  } catch {
    return null;
  }
}

/** Written by `npm run build` for deployments that ship without a .git folder. */
function readBuildInfo(): string | null {
  try {
    const info = JSON.parse(readFileSync(`${projectRoot}web/dist/build-info.json`, 'utf8')) as {
      git_commit?: unknown;
    };
    return typeof info.git_commit === 'string' && /^[0-9a-f]{7,40}$/.test(info.git_commit)
      ? info.git_commit
      : null;
  } catch {
    return null;
  }
}
