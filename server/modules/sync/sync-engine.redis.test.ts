import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type GitHubDouble,
  listDoubleRepositories,
  startGitHubDouble,
} from '../../../test/github-double/index.ts';
import {
  createScratchDatabase,
  postgresReachable,
  type ScratchDatabase,
} from '../../../test/helpers/test-database.ts';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { openDatabase } from '../../db/database.ts';
import { PACE_WINDOW_S } from '../../github/pacer.ts';
import { insertRepository } from '../../repository/repository.queries.ts';

/**
 * Two instances of the app on one PostgreSQL database and one Redis (docs/architecture.md#sync-engine,
 * #github-pacing): they sync the same due repositories at the same moment, and
 *   - every repository is synced exactly once (row leases, FOR UPDATE SKIP LOCKED), by both
 *     instances between them;
 *   - they spend one GraphQL pace for the token between them: no window of the pace sees more
 *     queries than the pace allows, though either instance alone would have sent them all at once.
 * Runs in the Redis pass (TEST_REDIS_URL) when PostgreSQL answers too.
 */
const redisUrl = process.env.TEST_REDIS_URL;
const pgAvailable = redisUrl ? await postgresReachable() : false;
if (redisUrl && !pgAvailable) console.log('sync-engine.redis.test.ts: skipped, PostgreSQL is not reachable');

/** Points per minute: a tenth of it per 6-second window, so 4 queries per window. */
const GRAPHQL_PER_MINUTE = 40;
const PER_WINDOW = GRAPHQL_PER_MINUTE / (60 / PACE_WINDOW_S);
const REPOSITORIES = listDoubleRepositories()
  .filter((repository) => !repository.special && !repository.isPrivate)
  .slice(0, 150);

describe.skipIf(!redisUrl || !pgAvailable)('two instances on one PostgreSQL and Redis', () => {
  let database: ScratchDatabase;
  let github: GitHubDouble;
  const apps: FastifyInstance[] = [];
  const dirs: string[] = [];
  const closers: (() => Promise<void>)[] = [];
  // A token of this run only: its pace keys in the shared Redis are fresh.
  const token = `ghp_sharedPace${randomBytes(8).toString('hex')}`;

  beforeAll(async () => {
    github = await startGitHubDouble();
    database = await createScratchDatabase('postgres');
    for (let index = 0; index < 2; index += 1) {
      const dataDir = mkdtempSync(join(tmpdir(), 'rt-two-instances-'));
      dirs.push(dataDir);
      // Each instance has its own connection pool to the one database, as two servers would.
      const handle = index === 0 ? database.handle : openDatabase({ databaseUrl: database.url, dataDir });
      if (index > 0) closers.push(() => handle.close());
      const app = await buildApp(
        loadConfig({
          DATA_DIR: dataDir,
          DATABASE_URL: database.url,
          LOG_LEVEL: 'silent',
          SECRET_KEY: 'two-instances-secret-key-0123456789abcdef0123456789',
          SYNC_SCHEDULE: 'off',
          BACKUP_SCHEDULE: 'off',
          REDIS_URL: redisUrl ?? '',
          GITHUB_API_URL: github.url,
          GITHUB_TOKEN: token,
          GITHUB_GRAPHQL_POINTS_PER_MINUTE: String(GRAPHQL_PER_MINUTE),
          // Batches of 25 throughout (no growth after fast answers), so the queries are countable.
          GITHUB_GRAPHQL_BATCH_MAX: '25',
        }),
        { database: handle },
      );
      await app.ready();
      apps.push(app);
    }
    const now = new Date().toISOString();
    const db = apps[0]?.db;
    if (!db) throw new Error('no app');
    for (const repository of REPOSITORIES) {
      await insertRepository(
        db,
        {
          full_name: repository.fullName,
          github_id: repository.id,
          user_id: null,
          name: repository.fullName.split('/')[1] ?? repository.fullName,
          description: null,
          url: `https://github.com/${repository.fullName}`,
          license: '',
          topics: '',
          tags: '',
          notes: '',
          stars: repository.stars,
          forks: repository.forks,
          issues: repository.openIssuesCount,
          commits: repository.commits,
          contributors: repository.contributors,
          contributors_capped: 0,
          language: repository.language,
          archived: 0,
          private: 0,
          gone: 0,
          default_branch: 'main',
          last_commit: repository.lastCommitAt,
          last_synced: null,
          etags: '{}',
          created_at: now,
          updated_at: now,
        },
        new Date(Date.now() - 60_000),
      );
    }
  });

  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const close of closers) await close();
    await database?.dispose();
    await github?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('sync each due repository once between them, within one shared pace', async () => {
    const [a, b] = apps;
    if (!a || !b) throw new Error('two apps expected');
    const deadline = Date.now() + 40_000;
    const [first, second] = await Promise.all([
      a.services.sync.syncDue({ owner: 'instance-a', deadline }),
      b.services.sync.syncDue({ owner: 'instance-b', deadline }),
    ]);

    // Exactly once, by both between them.
    expect(first.synced + second.synced).toBe(REPOSITORIES.length);
    expect(first.synced).toBeGreaterThan(0);
    expect(second.synced).toBeGreaterThan(0);
    expect(first.failed + second.failed + first.deferred + second.deferred).toBe(0);
    const queries = github.requests.filter((request) => request.key === 'POST /graphql');
    expect(queries).toHaveLength(REPOSITORIES.length / 25);
    const aliases = queries.map((request) => request.aliases ?? 0);
    expect(aliases.reduce((sum: number, count) => sum + count, 0)).toBe(REPOSITORIES.length);
    const states = await a.db
      .selectFrom('repository_sync_state')
      .select(['last_result', 'leased_until'])
      .execute();
    expect(states.every((row) => row.last_result === 'ok' && row.leased_until === null)).toBe(true);

    // One pace: a window's share (4) leaves at once, the rest waits for the next window,
    // though each instance alone had the pace to send its share at once.
    const times = queries.map((request) => request.at).sort((x, y) => x - y);
    const firstAt = times[0] ?? 0;
    expect((times[PER_WINDOW] ?? 0) - firstAt).toBeGreaterThan((PACE_WINDOW_S - 2) * 1000);
    expect(github.counts.get('POST /graphql')).toBe(queries.length);
  }, 60_000);
});
