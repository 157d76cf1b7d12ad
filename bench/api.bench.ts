/**
 * `npm run bench`: API throughput and latency on loopback with a realistic catalogue (every
 * repository of the ranking fixture, ~3,400 rows) on SQLite. Figures are printed with the
 * machine they were measured on and as ratios to `GET /health`, and written to bench/results/.
 * Not a test: nothing here passes or fails on speed.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { listDoubleRepositories, startGitHubDouble } from '../test/github-double/index.ts';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

const dataDir = mkdtempSync(join(tmpdir(), 'rt-bench-'));
const github = await startGitHubDouble();
const app = await buildApp(
  loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', GITHUB_API_URL: github.url, PORT: '0' }),
);
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

async function post<T>(path: string, body: object, token?: string): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return (await response.json()) as T;
}

await post('/auth/register', {
  email: 'bench@example.com',
  username: 'bench',
  first_name: 'Bench',
  last_name: 'Mark',
  password: 'BenchPassw0rd',
});
const { access_token: token } = await post<{ access_token: string }>('/auth/login', {
  email_or_username: 'bench',
  password: 'BenchPassw0rd',
});

// Seed the catalogue directly: the benchmark measures reading it, not GitHub.
const now = new Date().toISOString();
const repositories = listDoubleRepositories().filter((repository) => !repository.special);
for (let offset = 0; offset < repositories.length; offset += 200) {
  await app.db
    .insertInto('repositories')
    .values(
      repositories.slice(offset, offset + 200).map((repository) => ({
        full_name: repository.fullName,
        github_id: repository.id,
        user_id: 1,
        name: repository.fullName.split('/')[1] ?? repository.fullName,
        description: `Fixture repository ${repository.fullName}`,
        url: `https://github.com/${repository.fullName}`,
        license: repository.license ?? '',
        topics: '',
        tags: repository.language ? repository.language.toLowerCase() : '',
        notes: '',
        stars: repository.stars,
        forks: repository.forks,
        issues: repository.openIssuesCount,
        commits: repository.commits,
        contributors: repository.contributors,
        contributors_capped: 0 as const,
        language: repository.language,
        archived: 0 as const,
        private: 0 as const,
        gone: 0 as const,
        default_branch: 'main',
        last_commit: repository.lastCommitAt,
        last_synced: now,
        recent_commits: '[]',
        etags: '{}',
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
}

const headers = { authorization: `Bearer ${token}` };
const targets = [
  { name: 'GET /health', path: '/health', headers: {} },
  { name: 'GET /repositories/ (all rows)', path: '/repositories/', headers },
  {
    name: 'GET /repositories/{id}',
    path: `/repositories/${encodeURIComponent(repositories[0]?.fullName ?? '')}`,
    headers,
  },
  { name: 'GET /repositories/export (CSV)', path: '/repositories/export', headers },
];

const results = [];
for (const target of targets) {
  const result = await autocannon({
    url: `${base}${target.path}`,
    headers: target.headers,
    connections: CONNECTIONS,
    duration: DURATION_S,
  });
  results.push({
    name: target.name,
    requests_per_s: Math.round(result.requests.average),
    latency_p50_ms: result.latency.p50,
    latency_p99_ms: result.latency.p99,
    non_2xx: result.non2xx,
    errors: result.errors,
  });
}

const baseline = results[0]?.requests_per_s ?? 1;
const machine = {
  cpu: cpus()[0]?.model ?? 'unknown',
  cores: cpus().length,
  memory_gib: Math.round(totalmem() / 2 ** 30),
  node: process.version,
};
console.log(
  `\nMachine: ${machine.cpu}, ${machine.cores} cores, ${machine.memory_gib} GiB, Node ${machine.node}`,
);
console.log(
  `Catalogue: ${repositories.length} repositories on SQLite; ${CONNECTIONS} connections for ${DURATION_S} s each\n`,
);
console.log('| call | req/s | vs /health | p50 ms | p99 ms | non-2xx |');
console.log('|---|---|---|---|---|---|');
for (const row of results) {
  console.log(
    `| ${row.name} | ${row.requests_per_s} | ${(row.requests_per_s / baseline).toFixed(3)} | ${row.latency_p50_ms} | ${row.latency_p99_ms} | ${row.non_2xx} |`,
  );
}
const file = join('bench', 'results', `api-${now.slice(0, 10)}.json`);
writeFileSync(
  file,
  `${JSON.stringify({ measured_at: now, machine, repositories: repositories.length, connections: CONNECTIONS, duration_s: DURATION_S, results }, null, 2)}\n`,
);
console.log(`\nWritten to ${file}`);

await app.close();
await github.close();
rmSync(dataDir, { recursive: true, force: true });
