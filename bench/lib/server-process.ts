import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { SERVER_NODE_FLAGS } from '../../server/node-flags.ts';

/**
 * The app as a member runs it, for benchmarks: `node server/main.ts` with the Node flags every
 * launcher passes (server/node-flags.ts), in its own process, so the client's work (parsing,
 * gunzip, counting lines) neither shares the server's event loop nor lands in its memory, and
 * the server's RSS is read from outside (`rssOf`). Options are the server's environment
 * variables; `BENCH_SERVER_NODE_ARGS` adds Node flags to it (for example
 * `--cpu-prof --cpu-prof-dir=/tmp/prof`, written when the process exits).
 */
export interface ServerProcess {
  base: string;
  pid: number;
  close(): Promise<void>;
}

const MAIN = join(import.meta.dirname, '..', '..', 'server', 'main.ts');

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

export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child: ChildProcess = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...nodeArgs, MAIN], {
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
