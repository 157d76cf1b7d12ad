import { readFileSync } from 'node:fs';

/** Latency of sequential requests (one at a time, keep-alive), as p50/p99 in milliseconds. */
export interface Latency {
  p50: number;
  p99: number;
  samples: number;
}

export function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * Calls `request(i)` `samples` times after `warmup` unmeasured calls; each call must read the
 * whole answer. Throws on a non-2xx answer, so a broken call never looks fast.
 */
export async function measureLatency(
  request: (i: number) => Promise<Response>,
  samples: number,
  warmup = Math.min(20, samples),
): Promise<Latency> {
  for (let i = 0; i < warmup; i++) await readOk(await request(i));
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    await readOk(await request(i));
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p99: percentile(times, 0.99), samples };
}

async function readOk(response: Response): Promise<void> {
  const body = await response.arrayBuffer();
  if (!response.ok)
    throw new Error(`${response.status} ${response.url}: ${new TextDecoder().decode(body).slice(0, 300)}`);
}

/**
 * The resident set of a process in bytes, read from outside it as `ps` or `top` would
 * (Linux's /proc); this process's own when no pid is given.
 */
export function rssOf(pid?: number): number {
  if (pid === undefined || pid === process.pid) return process.memoryUsage().rss;
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
  if (kib === undefined) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kib) * 1024;
}

/** Samples a process's RSS (this one's by default) every `everyMs` until stopped: the peak, for memory budgets. */
export function sampleRss(pid?: number, everyMs = 20): { stop(): number } {
  let peak = rssOf(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, rssOf(pid));
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, rssOf(pid));
    },
  };
}
