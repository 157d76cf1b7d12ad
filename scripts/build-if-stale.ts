/**
 * `npm start` runs this first: builds the web app when web/dist is missing or older than any
 * source under web/ or shared/, so a fresh install or a `git pull` never serves a stale UI.
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
const builtAt = existsSync(marker) ? statSync(marker).mtimeMs : 0;
const sourcesAt = Math.max(newestMtime('web'), newestMtime('shared'), statSync('vite.config.ts').mtimeMs);
if (builtAt < sourcesAt) {
  console.log(builtAt ? 'Web app sources changed: rebuilding…' : 'Building the web app (first start)…');
  const code = await run('npm', ['run', '--silent', 'build']);
  if (code !== 0) process.exit(code);
}
