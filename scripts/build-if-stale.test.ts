import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * `npm start`'s stale-build check on a production install (docs/operations.md#production-install):
 * a pruned install has no Vite, so it must serve the build it has, or stop with the commands
 * that make one; it must never try to build. (With the tools, the development path, it is
 * exercised by every `npm start` in development and by the README's commands.)
 */
const script = fileURLToPath(new URL('./build-if-stale.ts', import.meta.url));
const dirs: string[] = [];

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A checkout as `npm prune --omit=dev` leaves it: sources, but no node_modules/vite. */
function prunedInstall(options: { built: boolean }): string {
  const dir = mkdtempSync(join(tmpdir(), 'rt-pruned-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'web/features'), { recursive: true });
  mkdirSync(join(dir, 'shared'), { recursive: true });
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  writeFileSync(join(dir, 'vite.config.ts'), 'export default {};\n');
  writeFileSync(join(dir, 'shared/constants.ts'), 'export const A = 1;\n');
  writeFileSync(join(dir, 'web/features/screen.tsx'), 'export const B = 2;\n');
  if (options.built) {
    mkdirSync(join(dir, 'web/dist'), { recursive: true });
    writeFileSync(join(dir, 'web/dist/index.html'), '<!doctype html>\n');
    // Older than every source: with build tools this would rebuild.
    const past = new Date(Date.now() - 3600_000);
    utimesSync(join(dir, 'web/dist/index.html'), past, past);
  }
  return dir;
}

const runIn = (cwd: string) =>
  spawnSync(process.execPath, [script], {
    cwd,
    encoding: 'utf8',
    // No npm on the PATH: a build attempt would fail loudly instead of passing unnoticed.
    env: { PATH: '/nonexistent' },
  });

describe('build-if-stale on a production install', () => {
  it('serves the existing build without building, even when sources look newer', () => {
    const result = runIn(prunedInstall({ built: true }));
    expect(result.status).toBe(0);
    expect(`${result.stdout}${result.stderr}`).toBe('');
  });

  it('stops with the commands that make a build when there is none', () => {
    const result = runIn(prunedInstall({ built: false }));
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('The web app is not built and the build tools are not installed');
    expect(result.stderr).toContain('npm ci && npm run build && npm prune --omit=dev && npm start');
  });
});
