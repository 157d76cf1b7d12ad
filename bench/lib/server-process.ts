import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/**
 * The app as a member runs it, for benchmarks: `node <flags> server/main.ts` as the checkout's
 * `npm start` runs it (its Node flags too, server/node-flags.ts), in its own process, so the
 * client's work (parsing, gunzip, counting lines) neither shares the server's event loop nor
 * lands in its memory, and the server's RSS is read from outside (`rssOf`). Options are the
 * server's environment variables, and another checkout to run instead of this one (a side-by-
 * side comparison); `BENCH_SERVER_NODE_ARGS` adds Node flags to it (for example
 * `--cpu-prof --cpu-prof-dir=/tmp/prof`, written when the process exits).
 */
export interface ServerProcess {
  base: string;
  pid: number;
  close(): Promise<void>;
}

const PROJECT_ROOT = join(import.meta.dirname, '..', '..');

/** The Node flags a checkout's `npm start` passes (`exec node <flags> server/main.ts`). */
function startFlagsOf(root: string): string[] {
  const start: string = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.start;
  const words = start.split(/\s+/);
  return words.slice(words.indexOf('node') + 1, words.indexOf('server/main.ts'));
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function startServerProcess(
  env: Record<string, string>,
  root: string = PROJECT_ROOT,
): Promise<ServerProcess> {
  const port = await freePort();
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const main = join(root, 'server', 'main.ts');
  const child: ChildProcess = spawn(process.execPath, [...startFlagsOf(root), ...nodeArgs, main], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  const deadline = performance.now() + 60_000;
  for (;;) {
    const ready = await fetch(`${base}/health`)
      .then((response) => response.ok)
      .catch(() => false);
    if (ready) break;
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode} before listening`);
    if (performance.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('the server did not answer /health within 60 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    base,
    pid: child.pid ?? 0,
    async close() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
