import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { RecordedRequest } from '../../test/github-double/request-log.ts';
import { type GitHubDoubleOptions, startGitHubDouble } from '../../test/github-double/server.ts';

/**
 * The GitHub double on its own thread, for benchmarks: GitHub is not in the app's process, so
 * its work (GraphQL execution, JSON) must not queue behind the app's on one event loop. The
 * main thread drives it with the few calls the benchmarks need.
 */
type Call =
  | { id: number; method: 'requests' }
  | { id: number; method: 'resetCounts' }
  | { id: number; method: 'setSnapshot'; snapshot: '2025-08-01' | '2026-08-22' }
  | { id: number; method: 'quota'; token?: string; resource?: 'core' | 'graphql' }
  | { id: number; method: 'secondary' }
  | { id: number; method: 'close' };

export interface RemoteDouble {
  url: string;
  requests(): Promise<RecordedRequest[]>;
  resetCounts(): Promise<void>;
  setSnapshot(snapshot: '2025-08-01' | '2026-08-22'): Promise<void>;
  quota(
    token?: string,
    resource?: 'core' | 'graphql',
  ): Promise<{ used: number; remaining: number; limit: number }>;
  /** Secondary-limit refusals sent, and the peak REST points any token spent in a minute. */
  secondary(token: string): Promise<{ rejections: number; peakRest: number }>;
  close(): Promise<void>;
}

export async function startDoubleThread(options: GitHubDoubleOptions): Promise<RemoteDouble> {
  const worker = new Worker(new URL(import.meta.url), { workerData: options });
  const url = await new Promise<string>((resolve, reject) => {
    worker.once('message', (message: { url: string }) => resolve(message.url));
    worker.once('error', reject);
  });
  let next = 0;
  const pending = new Map<number, (value: unknown) => void>();
  worker.on('message', (message: { id: number; value: unknown }) => {
    pending.get(message.id)?.(message.value);
    pending.delete(message.id);
  });
  const call = <T>(request: Record<string, unknown>): Promise<T> =>
    new Promise((resolve) => {
      next += 1;
      pending.set(next, resolve as (value: unknown) => void);
      worker.postMessage({ id: next, ...request });
    });
  return {
    url,
    requests: () => call({ method: 'requests' }),
    resetCounts: () => call({ method: 'resetCounts' }),
    setSnapshot: (snapshot) => call({ method: 'setSnapshot', snapshot }),
    quota: (token, resource) => call({ method: 'quota', token, resource }),
    secondary: (token) => call({ method: 'secondary', token }),
    async close() {
      await call({ method: 'close' });
      await worker.terminate();
    },
  };
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  const double = await startGitHubDouble(workerData as GitHubDoubleOptions);
  port.postMessage({ url: double.url });
  port.on('message', async (message: Call & { token?: string }) => {
    const answer = (value: unknown) => port.postMessage({ id: message.id, value });
    switch (message.method) {
      case 'requests':
        return answer([...double.requests]);
      case 'resetCounts':
        double.resetCounts();
        return answer(null);
      case 'setSnapshot':
        double.setSnapshot(message.snapshot);
        return answer(null);
      case 'quota':
        return answer(double.quota(message.token, message.resource));
      case 'secondary':
        return answer({
          rejections: double.secondary.rejections(),
          peakRest: double.secondary.peakPointsInWindow('rest', message.token),
        });
      case 'close':
        await double.close();
        return answer(null);
    }
  });
}
