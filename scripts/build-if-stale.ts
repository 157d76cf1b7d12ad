/**
 * `npm start` runs this first. Where the build tools are installed (a development checkout, or
 * `npm ci` without pruning), it builds the web app when web/dist is missing or older than any
 * source under web/ or shared/, so a fresh install or a `git pull` never serves a stale UI.
 * A production install (`npm run build`, then `npm prune --omit=dev`) has no build tools: it
 * serves the build it has, and says how to make one when there is none (docs/operations.md).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { run } from './lib/run.ts';

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'dist' || entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

const marker = 'web/dist/index.html';
// Vite is a development dependency: `npm prune --omit=dev` removes it.
const buildToolsInstalled = existsSync('node_modules/vite/package.json');

if (!buildToolsInstalled) {
  if (!existsSync(marker)) {
    console.error(
      'The web app is not built and the build tools are not installed (a production install).\n' +
        'Build before pruning: npm ci && npm run build && npm prune --omit=dev && npm start',
    );
    process.exit(1);
  }
} else {
  const builtAt = existsSync(marker) ? statSync(marker).mtimeMs : 0;
  const sourcesAt = Math.max(newestMtime('web'), newestMtime('shared'), statSync('vite.config.ts').mtimeMs);
  if (builtAt < sourcesAt) {
    console.log(builtAt ? 'Web app sources changed: rebuilding…' : 'Building the web app (first start)…');
    const code = await run('npm', ['run', '--silent', 'build']);
    if (code !== 0) process.exit(code);
  }
}
