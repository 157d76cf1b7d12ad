import { parseArgs } from 'node:util';
import { SNAPSHOT_DATES, type SnapshotDate } from './ranking-snapshots.ts';
import { startGitHubDouble } from './server.ts';

/**
 * Runs the double as its own process, for `npm run demo` and Playwright's web server:
 *   node test/github-double/cli.ts --port 4010 [--snapshot 2026-08-22] [--latency 50]
 *     [--private-token TOKEN]... [--no-control]
 * Prints "GitHub double listening on URL" once ready (Playwright can wait for the port).
 * Control routes under /_double/ are on unless --no-control is given.
 */

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: process.env.GITHUB_DOUBLE_PORT ?? '0' },
    snapshot: { type: 'string', default: SNAPSHOT_DATES[0] },
    latency: { type: 'string', default: '0' },
    'private-token': { type: 'string', multiple: true, default: [] },
    'no-control': { type: 'boolean', default: false },
  },
});

const snapshot = SNAPSHOT_DATES.find((date) => date === values.snapshot);
if (!snapshot) {
  console.error(`--snapshot must be one of ${SNAPSHOT_DATES.join(', ')}`);
  process.exit(2);
}

const double = await startGitHubDouble({
  port: Number(values.port),
  latencyMs: Number(values.latency),
  snapshot: snapshot satisfies SnapshotDate,
  privateAccessTokens: values['private-token'],
  control: !values['no-control'],
});
console.log(`GitHub double listening on ${double.url} (snapshot ${double.snapshot})`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void double.close().then(() => process.exit(0));
  });
}
