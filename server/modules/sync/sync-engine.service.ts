import type { Kysely } from 'kysely';
import type { Database, RepositoryRow } from '../../db/schema.ts';
import { type Etags, FULL_FETCH_COST, type GitHubClient } from '../../github/github-client.ts';
import { GitHubError } from '../../github/github-error.ts';
import { fetchRepositoriesWithGraphql } from '../../github/graphql-batch.ts';
import { paceEta } from '../../github/paced-work.ts';
import type { RepositorySnapshot } from '../../github/repository-snapshot.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { addMs, type Clock, nowMs } from '../../lib/clock.ts';
import * as queries from '../../repository/repository.queries.ts';
import { parseEtags, snapshotOfRow } from '../../repository/repository-presenter.ts';
import type { MeService } from '../me/me.service.ts';
import type { ReleasesService } from '../releases/releases.service.ts';
import { countContributorsJob, type GitHubDataWriter } from './github-data-writer.service.ts';
import { deferDuePublic, failuresOf, finishAttempt, leaseDue, releaseLeases } from './sync-state.queries.ts';

export interface SyncEngineDeps {
  db: Kysely<Database>;
  github: GitHubClient;
  writer: GitHubDataWriter;
  me: Pick<MeService, 'personalToken'>;
  jobs: JobQueue;
  clock: Clock;
  /** SYNC_LEASE_SECONDS in ms: how long a run holds the rows it took. */
  leaseMs: number;
  /** Which repositories have only tags: their batch query reads tags instead of releases. */
  releases: Pick<ReleasesService, 'followingTags'>;
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
  /** Shutdown: no new lease after it; rows leased and not yet read are handed back, due now. */
  signal?: AbortSignal;
}

type RunState = SyncRunOptions & { budget: number };

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

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The scheduled refresh (docs/architecture.md#sync-engine): leases due repositories and
 * refreshes them through the right token, writing what GitHub said with the GitHub data writer.
 */
export class SyncEngine {
  readonly #deps: SyncEngineDeps;

  constructor(deps: SyncEngineDeps) {
    this.#deps = deps;
  }

  /**
   * One run of the sync engine (docs/architecture.md#sync-engine): leases due repositories
   * and refreshes them until none is due, `deadline` (epoch ms) passes, or GitHub's pace or
   * quota says "later" (the rows are then handed back due at that time, not failed). Public
   * repositories go 25 to a GraphQL query through the server token, else one by one over REST
   * with their stored ETags; private ones through the token of a member who proved access.
   * Background work spends at most SYNC_QUOTA_BUDGET of a token's hourly quota.
   */
  async run(options: SyncRunOptions): Promise<SyncRunOutcome> {
    const run = { budget: SYNC_QUOTA_BUDGET, ...options };
    const outcome: SyncRunOutcome = {
      synced: 0,
      gone: 0,
      failed: 0,
      deferred: 0,
      deferredUntil: null,
      recounts: 0,
    };
    const { github } = this.#deps;
    const serverToken = github.tokenFor(null);
    const lanes: { private: boolean; size: number; work: (rows: RepositoryRow[]) => Promise<boolean> }[] = [
      serverToken
        ? {
            private: false,
            // As many as the token's next GraphQL query carries (learnt by the GitHub client).
            get size() {
              return github.graphqlBatchSize(serverToken);
            },
            work: (rows) => this.#syncGraphqlBatch(rows, serverToken, run, outcome),
          }
        : { private: false, size: REST_LEASE_SIZE, work: (rows) => this.#syncRestRows(rows, run, outcome) },
      { private: true, size: REST_LEASE_SIZE, work: (rows) => this.#syncPrivateRows(rows, run, outcome) },
    ];
    for (const lane of lanes) {
      const deferredBefore = outcome.deferred;
      while (nowMs(this.#deps.clock) < run.deadline && !run.signal?.aborted) {
        const now = this.#deps.clock.now();
        const rows = await leaseDue(this.#deps.db, {
          owner: run.owner,
          now,
          until: addMs(now, this.#deps.leaseMs),
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

  /** A GraphQL query's worth of public repositories (25 to 60); false when GitHub said "later". */
  async #syncGraphqlBatch(
    rows: RepositoryRow[],
    token: string,
    run: RunState,
    outcome: SyncRunOutcome,
  ): Promise<boolean> {
    const { github } = this.#deps;
    if (!github.canSpend(token, 1, run.budget))
      return this.#defer(rows, run.owner, github.quotaResetOf(token), outcome);
    let results: Map<string, RepositorySnapshot | GitHubError>;
    try {
      const followTags = await this.#deps.releases.followingTags(rows.map((row) => row.id));
      results = await fetchRepositoriesWithGraphql(
        github,
        token,
        rows.map((row) => row.full_name),
        { deadline: run.deadline },
        followTags,
      );
    } catch (error) {
      const eta = paceEta(error, this.#deps.clock);
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
  async #syncRestRows(rows: RepositoryRow[], run: RunState, outcome: SyncRunOutcome): Promise<boolean> {
    const { github } = this.#deps;
    for (const [index, row] of rows.entries()) {
      const rest = rows.slice(index);
      if (run.signal?.aborted) return this.#handBack(rest, run.owner);
      if (!github.canSpend(null, FULL_FETCH_COST, run.budget))
        return this.#defer(rest, run.owner, github.quotaResetOf(null), outcome);
      try {
        const fetched = await github.fetchRepository(
          row.full_name,
          null,
          await storedState(this.#deps.db, row),
          {
            deadline: run.deadline,
          },
        );
        await this.#record(row, run.owner, fetched.snapshot, outcome, fetched.etags);
      } catch (error) {
        const eta = paceEta(error, this.#deps.clock);
        if (eta) return this.#defer(rest, run.owner, eta, outcome);
        await this.#record(row, run.owner, error instanceof GitHubError ? error : errorText(error), outcome);
      }
    }
    return true;
  }

  async #syncPrivateRows(rows: RepositoryRow[], run: RunState, outcome: SyncRunOutcome): Promise<boolean> {
    for (const [index, row] of rows.entries()) {
      if (run.signal?.aborted) return this.#handBack(rows.slice(index), run.owner);
      try {
        await this.#syncPrivate(row, run, outcome);
      } catch (error) {
        const eta = paceEta(error, this.#deps.clock);
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
  async #syncPrivate(row: RepositoryRow, run: RunState, outcome: SyncRunOutcome) {
    const { db, github, me } = this.#deps;
    let tried = 0;
    let missing = 0;
    let lastError: GitHubError | string = 'No member with access has a GitHub token that reads it.';
    for (const userId of await queries.listAccessHolders(db, row.id, row.user_id)) {
      const token = await me.personalToken(userId);
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
        const fetched = await github.fetchRepository(row.full_name, token, await storedState(db, row), {
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
    const { db, writer, clock, jobs } = this.#deps;
    const at = clock.now();
    if (result instanceof GitHubError && result.kind === 'not_found') {
      await writer.markGone(row);
      outcome.gone += 1;
      await finishAttempt(db, row.id, {
        owner,
        result: 'gone',
        error: result.message,
        dueAt: writer.nextSyncAt(),
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
        dueAt: addMs(at, delay),
        at,
      });
      return;
    }
    if (!(await writer.applySnapshot(row, result, etags))) {
      // The name now belongs to a different repository: applySnapshot marked this one gone.
      outcome.gone += 1;
      await finishAttempt(db, row.id, {
        owner,
        result: 'gone',
        error: null,
        dueAt: writer.nextSyncAt(),
        at,
      });
      return;
    }
    outcome.synced += 1;
    const newCommits = result.commits !== row.commits || result.lastCommit !== row.last_commit;
    if (result.contributors === null && newCommits && row.contributors_pending !== 1) {
      await jobs.enqueue(countContributorsJob, { repository_id: row.id, user_id: null, recount: true });
      outcome.recounts += 1;
    }
    await finishAttempt(db, row.id, { owner, result: 'ok', error: null, dueAt: writer.nextSyncAt(), at });
  }

  /** Shutdown: leased rows not read yet go back due now for the next run, here or elsewhere. */
  async #handBack(rows: RepositoryRow[], owner: string): Promise<false> {
    await releaseLeases(
      this.#deps.db,
      owner,
      rows.map((row) => row.id),
      this.#deps.clock.now(),
    );
    return false;
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
}

/** What a conditional read compares against: the stored snapshot and GitHub's ETags for it. */
export async function storedState(
  db: Kysely<Database>,
  row: RepositoryRow,
): Promise<{ snapshot: RepositorySnapshot; etags: Etags }> {
  const commits = await queries.findStoredCommits(db, row.id);
  return { snapshot: snapshotOfRow(row, commits), etags: parseEtags(row.etags) };
}
