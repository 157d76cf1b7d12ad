import type { Kysely } from 'kysely';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { PoolStats } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { GitHubClient } from '../../github/github-client.ts';
import { QuotaBook } from '../../github/quota-book.ts';
import type { JobRegistry } from '../../jobs/job-registry.ts';
import { type Clock, isoNow } from '../../lib/clock.ts';
import { countDueJobsByKind, countJobsByKindAndStatus, countSyncQueue } from './system.queries.ts';
import { PROBE_DEADLINE_MS } from './system.service.ts';

export interface OperationsMetricsDeps {
  registry: Registry;
  db: Kysely<Database>;
  clock: Clock;
  github: Pick<GitHubClient, 'sentRequests' | 'tokenStates'>;
  /** GITHUB_TOKEN, only to label its series `server` instead of by its hash. */
  serverToken: string | undefined;
  poolStats: () => PoolStats | null;
  /** Whether rate-limit counters are shared through Redis: `ok`, `degraded` or `disabled`. */
  redisStatus: () => 'ok' | 'degraded' | 'disabled';
  /** The job registry's schedules on this instance. */
  jobs: Pick<JobRegistry, 'nextRuns'>;
}

/**
 * The app's own series for `GET /metrics` (docs/operations.md#monitoring), read at each scrape:
 * GitHub requests and quota per token, the sync queue, the job queue, the database pool, and
 * whether the database and Redis answer. Tokens are labelled `server`, `anonymous` or by the
 * first 16 hex digits of their SHA-256 (as the admin overview shows them), never as themselves.
 * The queue series read the shared database, so every instance reports the same values:
 * aggregate them with `max`, not `sum`.
 */
export class OperationsMetrics {
  readonly #deps: OperationsMetricsDeps;
  readonly #serverKey: string | null;
  readonly #githubRequests: Counter<'token' | 'kind'>;
  readonly #quotaRemaining: Gauge<'token'>;
  readonly #quotaLimit: Gauge<'token'>;
  readonly #quotaReset: Gauge<'token'>;
  readonly #syncQueue: Gauge<'state'>;
  readonly #jobs: Gauge<'kind' | 'status'>;
  readonly #jobsDue: Gauge<'kind'>;
  readonly #nextRun: Gauge<'kind'>;
  /** Only on PostgreSQL: SQLite has no pool. */
  readonly #pool: Gauge<'state'> | null = null;
  readonly #poolMax: Gauge | null = null;
  readonly #databaseUp: Gauge;
  /** Only with REDIS_URL. */
  readonly #redisUp: Gauge | null = null;

  constructor(deps: OperationsMetricsDeps) {
    this.#deps = deps;
    this.#serverKey = deps.serverToken ? QuotaBook.keyOf(deps.serverToken) : null;
    const registers = [deps.registry];
    this.#githubRequests = new Counter({
      name: 'repo_tracker_github_requests_total',
      help: 'Requests this instance sent to GitHub, by token and kind (rest or graphql), retries included',
      labelNames: ['token', 'kind'],
      registers,
    });
    this.#quotaRemaining = new Gauge({
      name: 'repo_tracker_github_quota_remaining',
      help: 'Requests left in the hour, per token, as GitHub last said',
      labelNames: ['token'],
      registers,
    });
    this.#quotaLimit = new Gauge({
      name: 'repo_tracker_github_quota_limit',
      help: 'Requests allowed in the hour, per token, as GitHub last said',
      labelNames: ['token'],
      registers,
    });
    this.#quotaReset = new Gauge({
      name: 'repo_tracker_github_quota_reset_timestamp_seconds',
      help: 'When the hourly quota resets, per token (Unix time)',
      labelNames: ['token'],
      registers,
    });
    // Labelled, so that a scrape the database didn't answer leaves the series out instead of
    // showing an empty queue (prom-client always shows an unlabelled gauge).
    this.#syncQueue = new Gauge({
      name: 'repo_tracker_sync_queue',
      help: 'The sync engine: repositories due for a refresh and not yet taken (due), and those a run holds (running)',
      labelNames: ['state'],
      registers,
    });
    this.#jobs = new Gauge({
      name: 'repo_tracker_jobs',
      help: 'Jobs in the durable queue by kind and status (pending, succeeded, failed; finished ones kept 14 days)',
      labelNames: ['kind', 'status'],
      registers,
    });
    this.#jobsDue = new Gauge({
      name: 'repo_tracker_jobs_due',
      help: 'Jobs due now and waiting for a worker, by kind',
      labelNames: ['kind'],
      registers,
    });
    this.#nextRun = new Gauge({
      name: 'repo_tracker_job_next_run_timestamp_seconds',
      help: 'When each scheduled kind of background work next ticks on this instance (Unix time)',
      labelNames: ['kind'],
      registers,
    });
    if (deps.poolStats()) {
      this.#pool = new Gauge({
        name: 'repo_tracker_db_pool_connections',
        help: 'PostgreSQL connections of this instance: total open, idle, and queries waiting for one',
        labelNames: ['state'],
        registers,
      });
      this.#poolMax = new Gauge({
        name: 'repo_tracker_db_pool_max',
        help: 'The most PostgreSQL connections this instance opens (DATABASE_POOL_MAX)',
        registers,
      });
    }
    this.#databaseUp = new Gauge({
      name: 'repo_tracker_database_up',
      help: '1 when the database answered this scrape, else 0',
      registers,
    });
    if (deps.redisStatus() !== 'disabled') {
      this.#redisUp = new Gauge({
        name: 'repo_tracker_redis_up',
        help: '1 when rate limits and the GitHub pace are shared through Redis, 0 while it is unreachable',
        registers,
      });
    }
  }

  #label(key: string): string {
    return key === this.#serverKey ? 'server' : key;
  }

  /** Sets every series to the state of now; the database part within PROBE_DEADLINE_MS or not at all. */
  async refresh(): Promise<void> {
    const { github, poolStats, redisStatus } = this.#deps;
    this.#githubRequests.reset();
    for (const { key, kind, count } of github.sentRequests()) {
      this.#githubRequests.inc({ token: this.#label(key), kind }, count);
    }
    this.#quotaRemaining.reset();
    this.#quotaLimit.reset();
    this.#quotaReset.reset();
    for (const state of github.tokenStates()) {
      if (state.remaining === null) continue;
      const token = this.#label(state.key);
      this.#quotaRemaining.set({ token }, state.remaining);
      if (state.limit !== null) this.#quotaLimit.set({ token }, state.limit);
      if (state.resetAt) this.#quotaReset.set({ token }, Math.floor(state.resetAt.getTime() / 1000));
    }
    const pool = poolStats();
    if (pool && this.#pool && this.#poolMax) {
      this.#pool.set({ state: 'total' }, pool.total);
      this.#pool.set({ state: 'idle' }, pool.idle);
      this.#pool.set({ state: 'waiting' }, pool.waiting);
      this.#poolMax.set(pool.max);
    }
    this.#redisUp?.set(redisStatus() === 'ok' ? 1 : 0);
    this.#nextRun.reset();
    for (const { kind, at } of this.#deps.jobs.nextRuns())
      this.#nextRun.set({ kind }, Math.floor(at.getTime() / 1000));
    await this.#refreshQueues();
  }

  async #refreshQueues(): Promise<void> {
    const { db, clock } = this.#deps;
    this.#syncQueue.reset();
    this.#jobs.reset();
    this.#jobsDue.reset();
    const now = isoNow(clock);
    let timer: NodeJS.Timeout | undefined;
    try {
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('metrics queries timed out')), PROBE_DEADLINE_MS);
      });
      const [jobs, due, sync] = await Promise.race([
        Promise.all([countJobsByKindAndStatus(db), countDueJobsByKind(db, now), countSyncQueue(db, now)]),
        deadline,
      ]);
      for (const row of jobs) this.#jobs.set({ kind: row.kind, status: row.status }, Number(row.count));
      for (const row of due) this.#jobsDue.set({ kind: row.kind }, Number(row.count));
      this.#syncQueue.set({ state: 'due' }, sync.due);
      this.#syncQueue.set({ state: 'running' }, sync.leased);
      this.#databaseUp.set(1);
    } catch {
      // The scrape still answers: the database series are left out and `database_up` says why.
      this.#databaseUp.set(0);
    } finally {
      clearTimeout(timer);
    }
  }
}
