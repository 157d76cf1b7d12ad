import { Cron } from 'croner';
import type { Kysely } from 'kysely';
import type { AdminSync } from '../../../shared/schemas/admin.ts';
import type { Commit, QueuedResponse, Repository } from '../../../shared/schemas/repositories.ts';
import type { Database } from '../../db/schema.ts';
import { type Etags, FULL_FETCH_COST, type GitHubClient } from '../../github/github-client.ts';
import { GitHubError } from '../../github/github-error.ts';
import { fetchRepositoriesWithGraphql, GRAPHQL_BATCH_SIZE } from '../../github/graphql-batch.ts';
import { PaceWait } from '../../github/pacer.ts';
import { QuotaBook } from '../../github/quota-book.ts';
import type { RepositorySnapshot } from '../../github/repository-snapshot.ts';
import { countPendingJobs } from '../../jobs/job-queue.queries.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { badRequest, notFound } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { ReleasesService } from '../releases/releases.service.ts';
import type { CatalogueService } from '../catalogue/catalogue.service.ts';
import { COUNT_CONTRIBUTORS_JOB, type CountContributorsPayload, paceEta } from '../catalogue/import.jobs.ts';
import { queuedAnswer } from './paced-work.ts';
import { parseEtags, snapshotOfRow } from '../../repository/repository-presenter.ts';
import type { RepositoryRow, Viewer } from '../../repository/repository.queries.ts';
import * as queries from '../../repository/repository.queries.ts';
import {
  deferDuePublic,
  failuresOf,
  finishAttempt,
  leaseDue,
  releaseLeases,
  scheduleAt,
  scheduleOverview,
} from './sync-state.queries.ts';

/** Stored commits younger than this are served without asking GitHub again. */
const COMMITS_FRESH_MS = 15 * 60 * 1000;

export interface RepositorySyncDeps {
  db: Kysely<Database>;
  github: GitHubClient;
  catalogue: CatalogueService;
  jobs: JobQueue;
  clock: Clock;
  /** SYNC_SCHEDULE: when the engine wakes (`off`: never on its own). */
  schedule: string;
  /** SYNC_LEASE_SECONDS in ms: how long a run holds the rows it took. */
  leaseMs: number;
  /** Which repositories have only tags: their batch query reads tags instead of releases. */
  releases?: Pick<ReleasesService, 'followingTags'>;
}

/** What one engine run did; `deferred` rows went back due later because GitHub's pace or quota said so. */
export interface SyncRunOutcome {
  synced: number;
  gone: number;
  failed: number;
  deferred: number;
  /** When the deferred rows are due again (the latest deferral), or null. */
  deferredUntil: Date | null;
  /** Contributor recounts queued because new commits arrived. */
  recounts: number;
}

export interface SyncRunOptions {
  /** Names this run in the leases it takes. */
  owner: string;
  /** Epoch ms: no new lease after it, and no wait for GitHub's pace beyond it. */
  deadline: number;
  /** Share of a token's hourly quota the run may leave spent (SYNC_QUOTA_BUDGET). */
  budget?: number;
}

/** Background work spends at most this share of a token's hourly quota; the rest is for members. */
export const SYNC_QUOTA_BUDGET = 0.5;
/**
 * Rows leased at a time for REST work (GraphQL leases a query's 25): one, because REST reads
 * them one by one and a row waiting behind others could outlive its lease.
 */
const REST_LEASE_SIZE = 1;
/** A failing repository is retried after 15 min, then 30, 60, … at most a week apart. */
const SYNC_RETRY_BASE_MS = 15 * 60_000;
const SYNC_RETRY_MAX_MS = 7 * 24 * 3600_000;

/** Failing repositories the admin overview lists. */
const RECENT_ERRORS = 20;
/** Members whose tokens the overview can name (the rest show as "unknown"). */
const TOKEN_HOLDERS_SHOWN = 500;

/** The engine's next wake-up under SYNC_SCHEDULE, or null when it is off. */
function nextRun(pattern: string, now: Date): string | null {
  if (pattern.trim().toLowerCase() === 'off') return null;
  return new Cron(pattern.trim(), { paused: true }).nextRun(now)?.toISOString() ?? null;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Refreshing catalogued repositories from GitHub: a member's "Update", the scheduled refresh
 * (docs/product.md#background-work) and the recent commits of the detail screen.
 */
export class RepositorySyncService {
  readonly #deps: RepositorySyncDeps;

  constructor(deps: RepositorySyncDeps) {
    this.#deps = deps;
  }

  /**
   * PUT /repositories/{id}: refresh from GitHub; a failure keeps the stored data. When the
   * token's pace is spent for longer than the call waits, the engine does it by the ETA.
   */
  async sync(viewer: Viewer, fullName: string): Promise<Repository | QueuedResponse> {
    const { catalogue, github, db } = this.#deps;
    const row = await catalogue.resolve(viewer, fullName);
    const personal = await catalogue.personalToken(viewer.id);
    if (row.private === 1 && !personal) {
      throw badRequest(
        'Syncing a private repository needs your own GitHub token: add it in Settings → GitHub Access.',
      );
    }
    const token = row.private === 1 ? personal : github.tokenFor(personal);
    let fetched: { snapshot: RepositorySnapshot; etags: Etags };
    try {
      fetched = await github.fetchRepository(row.full_name, token, storedState(row));
    } catch (error) {
      if (error instanceof PaceWait) {
        await scheduleAt(db, row.id, error.eta);
        return queuedAnswer(error.eta, `the update of ${row.full_name}`);
      }
      if (!(error instanceof GitHubError && error.kind === 'not_found')) throw error;
      // The member's own token no longer reads this private repository: their visibility
      // ends (docs/product.md#private-repositories). Gone only when nobody else holds access.
      if (row.private === 1 && !viewer.is_admin) {
        await queries.revokeAccess(db, row.id, viewer.id);
        if ((await queries.listAccessHolders(db, row.id, null)).length > 0)
          throw notFound(
            `${row.full_name} can no longer be read with your GitHub token, so it is hidden from you now.`,
          );
      }
      await catalogue.markGone(row);
      throw notFound(
        `${row.full_name} no longer exists on GitHub, or can no longer be read. Its stored data is kept and marked as gone.`,
      );
    }
    if (!(await catalogue.applySnapshot(row, fetched.snapshot, fetched.etags))) {
      throw notFound(
        `${row.full_name} now names a different repository on GitHub. The stored data is kept and marked as gone.`,
      );
    }
    return catalogue.present(row.id);
  }

  /**
   * One run of the sync engine (docs/architecture.md#sync-engine): leases due repositories
   * and refreshes them until none is due, `deadline` (epoch ms) passes, or GitHub's pace or
   * quota says "later" (the rows are then handed back due at that time, not failed). Public
   * repositories go 25 to a GraphQL query through the server token, else one by one over REST
   * with their stored ETags; private ones through the token of a member who proved access.
   * Background work spends at most SYNC_QUOTA_BUDGET of a token's hourly quota.
   */
  async syncDue(options: SyncRunOptions): Promise<SyncRunOutcome> {
    const run = { budget: SYNC_QUOTA_BUDGET, ...options };
    const outcome: SyncRunOutcome = {
      synced: 0,
      gone: 0,
      failed: 0,
      deferred: 0,
      deferredUntil: null,
      recounts: 0,
    };
    const serverToken = this.#deps.github.tokenFor(null);
    const lanes: { private: boolean; size: number; work: (rows: RepositoryRow[]) => Promise<boolean> }[] = [
      serverToken
        ? {
            private: false,
            size: GRAPHQL_BATCH_SIZE,
            work: (rows) => this.#syncGraphqlBatch(rows, serverToken, run, outcome),
          }
        : { private: false, size: REST_LEASE_SIZE, work: (rows) => this.#syncRestRows(rows, run, outcome) },
      { private: true, size: REST_LEASE_SIZE, work: (rows) => this.#syncPrivateRows(rows, run, outcome) },
    ];
    for (const lane of lanes) {
      const deferredBefore = outcome.deferred;
      while (Date.now() < run.deadline) {
        const now = this.#deps.clock.now();
        const rows = await leaseDue(this.#deps.db, {
          owner: run.owner,
          now,
          until: new Date(now.getTime() + this.#deps.leaseMs),
          limit: lane.size,
          private: lane.private,
        });
        if (rows.length === 0) break;
        if (!(await lane.work(rows))) break;
      }
      // The shared token (or the anonymous quota) is used up: the rest of the public lane waits
      // for the same moment instead of staying due and being leased, one by one, at every tick.
      if (!lane.private && outcome.deferred > deferredBefore && outcome.deferredUntil) {
        outcome.deferred += await deferDuePublic(
          this.#deps.db,
          this.#deps.clock.now(),
          outcome.deferredUntil,
        );
      }
    }
    return outcome;
  }

  /** Up to 25 public repositories in one GraphQL query; false when GitHub said "later". */
  async #syncGraphqlBatch(
    rows: RepositoryRow[],
    token: string,
    run: Required<SyncRunOptions>,
    outcome: SyncRunOutcome,
  ): Promise<boolean> {
    const { github } = this.#deps;
    if (!github.canSpend(token, 1, run.budget))
      return this.#defer(rows, run.owner, github.quotaResetOf(token), outcome);
    let results: Map<string, RepositorySnapshot | GitHubError>;
    try {
      const followTags = (await this.#deps.releases?.followingTags(rows.map((row) => row.id))) ?? new Set();
      results = await fetchRepositoriesWithGraphql(
        github,
        token,
        rows.map((row) => row.full_name),
        { deadline: run.deadline },
        followTags,
      );
    } catch (error) {
      const eta = paceEta(error);
      if (eta) return this.#defer(rows, run.owner, eta, outcome);
      for (const row of rows) await this.#record(row, run.owner, errorText(error), outcome);
      return false;
    }
    for (const row of rows) {
      const result =
        results.get(row.full_name) ?? new GitHubError('unreachable', 'GitHub left it out of the answer');
      await this.#record(row, run.owner, result, outcome);
    }
    return true;
  }

  /** Public repositories over REST without a token, with their stored ETags. */
  async #syncRestRows(
    rows: RepositoryRow[],
    run: Required<SyncRunOptions>,
    outcome: SyncRunOutcome,
  ): Promise<boolean> {
    const { github } = this.#deps;
    for (const [index, row] of rows.entries()) {
      const rest = rows.slice(index);
      if (!github.canSpend(null, FULL_FETCH_COST, run.budget))
        return this.#defer(rest, run.owner, github.quotaResetOf(null), outcome);
      try {
        const fetched = await github.fetchRepository(row.full_name, null, storedState(row), {
          deadline: run.deadline,
        });
        await this.#record(row, run.owner, fetched.snapshot, outcome, fetched.etags);
      } catch (error) {
        const eta = paceEta(error);
        if (eta) return this.#defer(rest, run.owner, eta, outcome);
        await this.#record(row, run.owner, error instanceof GitHubError ? error : errorText(error), outcome);
      }
    }
    return true;
  }

  async #syncPrivateRows(
    rows: RepositoryRow[],
    run: Required<SyncRunOptions>,
    outcome: SyncRunOutcome,
  ): Promise<boolean> {
    for (const [index, row] of rows.entries()) {
      try {
        await this.#syncPrivate(row, run, outcome);
      } catch (error) {
        const eta = paceEta(error);
        if (eta) return this.#defer(rows.slice(index), run.owner, eta, outcome);
        await this.#record(row, run.owner, errorText(error), outcome);
      }
    }
    return true;
  }

  /**
   * A private repository through the token of a member who proved access (the adder first),
   * re-checking visibility on the way: a member without a token, or whose token no longer
   * reads it (404) or is refused (401), loses access and the next member's token is tried.
   * Gone only when every token tried answered 404; nobody able to read it is a failure.
   */
  async #syncPrivate(row: RepositoryRow, run: Required<SyncRunOptions>, outcome: SyncRunOutcome) {
    const { db, github, catalogue } = this.#deps;
    let tried = 0;
    let missing = 0;
    let lastError: GitHubError | string = 'No member with access has a GitHub token that reads it.';
    for (const userId of await queries.listAccessHolders(db, row.id, row.user_id)) {
      const token = await catalogue.personalToken(userId);
      if (!token) {
        await queries.revokeAccess(db, row.id, userId);
        continue;
      }
      if (!github.canSpend(token, FULL_FETCH_COST, run.budget)) {
        lastError = 'Every token with access has spent its share of the hourly quota.';
        continue;
      }
      tried += 1;
      try {
        const fetched = await github.fetchRepository(row.full_name, token, storedState(row), {
          deadline: run.deadline,
        });
        await this.#record(row, run.owner, fetched.snapshot, outcome, fetched.etags);
        return;
      } catch (error) {
        if (!(error instanceof GitHubError)) throw error;
        lastError = error;
        if (error.kind !== 'not_found' && error.kind !== 'bad_credentials') break;
        if (error.kind === 'not_found') missing += 1;
        await queries.revokeAccess(db, row.id, userId);
      }
    }
    const gone = tried > 0 && missing === tried;
    await this.#record(
      row,
      run.owner,
      gone ? new GitHubError('not_found', `${row.full_name} is gone`) : lastError,
      outcome,
    );
  }

  /**
   * Applies one repository's result and hands its row back: due again a sync interval later,
   * or, after a failure, sooner but backing off (SYNC_RETRY_BASE_MS doubling per consecutive
   * failure, at most a week). New commits since the last sync mean the contributor count may
   * have moved too: it is recounted within the pace (conditionally, so an unchanged list is free).
   */
  async #record(
    row: RepositoryRow,
    owner: string,
    result: RepositorySnapshot | GitHubError | string,
    outcome: SyncRunOutcome,
    etags: Etags | null = null,
  ): Promise<void> {
    const { db, catalogue, clock, jobs } = this.#deps;
    const at = clock.now();
    if (result instanceof GitHubError && result.kind === 'not_found') {
      await catalogue.markGone(row);
      outcome.gone += 1;
      await finishAttempt(db, row.id, {
        owner,
        result: 'gone',
        error: result.message,
        dueAt: catalogue.nextSyncAt(),
        at,
      });
      return;
    }
    if (typeof result === 'string' || result instanceof GitHubError) {
      const failures = (await failuresOf(db, row.id)) + 1;
      const delay = Math.min(SYNC_RETRY_BASE_MS * 2 ** (failures - 1), SYNC_RETRY_MAX_MS);
      outcome.failed += 1;
      await finishAttempt(db, row.id, {
        owner,
        result: 'failed',
        error: typeof result === 'string' ? result : result.message,
        dueAt: new Date(at.getTime() + delay),
        at,
      });
      return;
    }
    if (!(await catalogue.applySnapshot(row, result, etags))) {
      // The name now belongs to a different repository: applySnapshot marked this one gone.
      outcome.gone += 1;
      await finishAttempt(db, row.id, {
        owner,
        result: 'gone',
        error: null,
        dueAt: catalogue.nextSyncAt(),
        at,
      });
      return;
    }
    outcome.synced += 1;
    const newCommits = result.commits !== row.commits || result.lastCommit !== row.last_commit;
    if (result.contributors === null && newCommits && row.contributors_pending !== 1) {
      const payload: CountContributorsPayload = { repository_id: row.id, user_id: null, recount: true };
      await jobs.enqueue(COUNT_CONTRIBUTORS_JOB, payload);
      outcome.recounts += 1;
    }
    await finishAttempt(db, row.id, { owner, result: 'ok', error: null, dueAt: catalogue.nextSyncAt(), at });
  }

  /** GitHub said "later": the rows go back due at `eta`, leases cleared, nothing failed. */
  async #defer(rows: RepositoryRow[], owner: string, eta: Date, outcome: SyncRunOutcome): Promise<false> {
    outcome.deferredUntil = eta;
    await releaseLeases(
      this.#deps.db,
      owner,
      rows.map((row) => row.id),
      eta,
    );
    outcome.deferred += rows.length;
    return false;
  }

  /**
   * GET /auth/admin/sync: what the engine has to do, the tokens it spends (quota as GitHub
   * last answered this instance, REST calls in the last minute, a secondary limit holding it)
   * and the repositories failing now.
   */
  async overview(): Promise<AdminSync> {
    const { db, github, catalogue, clock } = this.#deps;
    const now = clock.now();
    const schedule = await scheduleOverview(db, now, RECENT_ERRORS);
    const owners = new Map<string, { owner: string; lastFour: string | null }>([
      [QuotaBook.keyOf(null), { owner: 'anonymous', lastFour: null }],
    ]);
    const serverToken = github.tokenFor(null);
    if (serverToken)
      owners.set(QuotaBook.keyOf(serverToken), { owner: 'server', lastFour: serverToken.slice(-4) });
    for (const member of await queries.listTokenHolders(db, TOKEN_HOLDERS_SHOWN)) {
      const token = await catalogue.personalToken(member.id);
      if (token) owners.set(QuotaBook.keyOf(token), { owner: member.username, lastFour: token.slice(-4) });
    }
    const states = new Map(github.tokenStates().map((state) => [state.key, state]));
    // The server token is shown before GitHub first answered it; others once they were used.
    const keys = [...owners.keys()].filter((key) => states.has(key) || owners.get(key)?.owner === 'server');
    return {
      queued: schedule.queued,
      running: schedule.running,
      jobs_waiting: await countPendingJobs(db),
      next_run_at: nextRun(this.#deps.schedule, now),
      interval_hours: catalogue.syncIntervalHours,
      tokens: keys.map((key) => {
        const state = states.get(key);
        const who = owners.get(key) ?? { owner: 'unknown', lastFour: null };
        return {
          owner: who.owner,
          last_four: who.lastFour,
          remaining: state?.remaining ?? null,
          limit: state?.limit ?? null,
          reset_at: state?.resetAt?.toISOString() ?? null,
          rest_per_min: state?.restPerMinute ?? 0,
          paused_until: state?.pausedUntil?.toISOString() ?? null,
        };
      }),
      recent_errors: schedule.errors.map((row) => ({
        repository_id: row.full_name,
        full_name: row.full_name,
        error: row.last_error ?? 'failed',
        failures: row.failures,
        at: row.last_attempt_at ?? now.toISOString(),
        next_due_at: row.due_at,
      })),
    };
  }

  /** Recent commits: fresh stored ones as they are, else from GitHub (stored ones if it fails). */
  async commits(viewer: Viewer, fullName: string, limit: number): Promise<Commit[]> {
    const { catalogue, github, clock } = this.#deps;
    const row = await catalogue.resolve(viewer, fullName);
    const stored = JSON.parse(row.recent_commits) as Commit[];
    const age = row.last_synced
      ? clock.now().getTime() - Date.parse(row.last_synced)
      : Number.POSITIVE_INFINITY;
    if (age < COMMITS_FRESH_MS && (stored.length >= limit || stored.length < 10))
      return stored.slice(0, limit);
    const personal = await catalogue.personalToken(viewer.id);
    const token = row.private === 1 ? personal : github.tokenFor(personal);
    try {
      return await github.listCommits(row.full_name, token, limit);
    } catch (error) {
      if (stored.length > 0) return stored.slice(0, limit);
      throw error;
    }
  }
}

/** What a conditional read compares against: the stored snapshot and GitHub's ETags for it. */
function storedState(row: RepositoryRow): { snapshot: RepositorySnapshot; etags: Etags } {
  return { snapshot: snapshotOfRow(row), etags: parseEtags(row.etags) };
}
