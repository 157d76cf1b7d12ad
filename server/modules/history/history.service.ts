import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { BackfillResponse, HistoryState } from '#shared/schemas/history.ts';
import type { MetricPoint } from '#shared/schemas/repositories.ts';
import type { CatalogueChanges } from '../../changes/catalogue-changes.ts';
import type { Database, RepositoryRow } from '../../db/schema.ts';
import type { GitHubClient } from '../../github/github-client.ts';
import { GitHubError } from '../../github/github-error.ts';
import { PaceWait } from '../../github/pacer.ts';
import { QuotaBook } from '../../github/quota-book.ts';
import { jobKind } from '../../jobs/job-definition.ts';
import { countWaitingJobs } from '../../jobs/job-queue.queries.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { badRequest } from '../../lib/app-error.ts';
import { addMs, type Clock, isoNow, nowMs } from '../../lib/clock.ts';
import { resolveVisible, type Viewer } from '../../repository/access-policy.ts';
import { findRepositoryById, listAccessHolders } from '../../repository/repository.queries.ts';
import type { MeService } from '../me/me.service.ts';
import { recomputeGrowth } from './growth.queries.ts';
import * as queries from './history.queries.ts';
import { presentHistory } from './history-presenter.ts';
import { reconstructStarCounts } from './star-history.ts';

/** The engine's job: one run reads due histories until it must yield (history.jobs.ts). */
export const backfillJob = jobKind('history:backfill', z.object({}));
/** How long one run works before it hands over (within the job's deadline). */
export const BACKFILL_RUN_MS = 45_000;
/**
 * The backfill spends only while at least three quarters of the token's hourly quota is left:
 * imports and the scheduled sync (which may spend half) never find it used up by history.
 */
export const HISTORY_QUOTA_BUDGET = 0.25;
/** Share of the token's REST pace a minute the backfill may use; the rest stays free for others. */
export const HISTORY_PACE_SHARE = 0.5;
/** A member's call on this instance this recently means "busy": the backfill waits this long after the last one. */
export const HISTORY_QUIET_MS = 2000;
/** A repository whose history failed is tried again after 15 min, then 30, 60; after that on request. */
const RETRY_BASE_MS = 15 * 60_000;
const AUTOMATIC_TRIES = 3;
/** Without a token the engine looks again this much later (a token may have been added). */
const NO_TOKEN_RETRY_MS = 6 * 3600_000;
/** The lease on one repository's backfill: longer than reading its pages. */
const LEASE_MS = 5 * 60_000;
/** Repositories looked up per query of the run. */
const CANDIDATES = 20;

export const NO_TOKEN_MESSAGE =
  'Waiting for a GitHub token: GitHub gives the star history only to signed-in callers. Set GITHUB_TOKEN, or add your own token in Settings → GitHub Access.';

export interface HistoryDeps {
  db: Kysely<Database>;
  github: GitHubClient;
  /** Members' own GitHub tokens. */
  me: Pick<MeService, 'personalToken'>;
  jobs: JobQueue;
  clock: Clock;
  /** HISTORY_BACKFILL: backfill on add and sweep every repository once, unasked. */
  automatic: boolean;
  /** SYNC_SCHEDULE is on: repositories due for a refresh come before any history. */
  syncScheduled: boolean;
  /** HISTORY_QUIET_MS by default; tests shorten it. */
  quietMs?: number;
  log: FastifyBaseLogger;
}

export interface BackfillRunOptions {
  /** Names this run in the leases it takes. */
  owner: string;
  /** Epoch ms: no new repository after it. */
  deadline: number;
  /** How long after a member's last GitHub call the run may start a request (HISTORY_QUIET_MS). */
  quietMs?: number;
  /** Share of the hourly quota the run may leave spent (HISTORY_QUOTA_BUDGET). */
  budget?: number;
  /** Shutdown: the run stops before its next page; the repository keeps its place. */
  signal?: AbortSignal;
}

type RunState = BackfillRunOptions & { quietMs: number; budget: number };

/** What made a run stop before its work was done, and when to try again. */
export type YieldReason = 'interactive' | 'jobs' | 'sync' | 'pace' | 'quota' | 'shutdown';

export interface BackfillRunOutcome {
  done: number;
  unavailable: number;
  failed: number;
  /** Repositories with no token to read them with (waiting, not failed). */
  waiting: number;
  yielded: YieldReason | null;
  /** When the run should be tried again (null: nothing left to do now). */
  retryAt: Date | null;
}

/** The run must stop: something more urgent, or GitHub's pace or quota says "later". */
class Yield extends Error {
  readonly reason: YieldReason;
  readonly at: Date;
  constructor(reason: YieldReason, at: Date) {
    super(`star history yields (${reason})`);
    this.reason = reason;
    this.at = at;
  }
}

/**
 * Full star history (docs/product.md#star-history): GitHub's weekly star history read once per
 * repository and stored as star counts in `repository_metrics`, as the engine's lowest-priority
 * work (docs/architecture.md#star-history-backfill), plus the metrics answer and the
 * "Backfill history" action.
 */
export class HistoryService {
  readonly #deps: HistoryDeps;

  constructor(deps: HistoryDeps) {
    this.#deps = deps;
  }

  /** GET /repositories/{id}/metrics: every stored day (backfilled ones with nulls) and the backfill state. */
  async metrics(
    viewer: Viewer,
    fullName: string,
  ): Promise<{ metrics: MetricPoint[]; history: HistoryState }> {
    const { db } = this.#deps;
    const row = await resolveVisible(db, viewer, fullName);
    const [metrics, history] = await Promise.all([
      queries.listMetrics(db, row.id),
      queries.findHistory(db, row.id),
    ]);
    return { metrics, history: presentHistory(history, this.#deps.automatic) };
  }

  /**
   * POST /repositories/{id}/history/backfill: the history is (re)loaded from GitHub by the
   * engine as soon as it has nothing more urgent, with this member's token if they have one.
   */
  async requestBackfill(viewer: Viewer, fullName: string): Promise<BackfillResponse> {
    const { db, clock } = this.#deps;
    const row = await resolveVisible(db, viewer, fullName);
    if (row.gone === 1)
      throw badRequest(`${row.full_name} is gone from GitHub, so its star history can't be loaded.`);
    if (!(await this.#tokenFor(row, viewer.id)))
      throw badRequest(
        row.private === 1
          ? 'Loading the star history of a private repository needs your own GitHub token: add it in Settings → GitHub Access.'
          : 'Loading the star history needs a GitHub token: add yours in Settings → GitHub Access (or ask an administrator to set GITHUB_TOKEN).',
      );
    await queries.requestBackfill(db, row.id, viewer.id, clock.now().toISOString());
    await this.kick();
    return {
      queued: true,
      message: `The star history of ${row.full_name} will be loaded from GitHub shortly.`,
      history: presentHistory(await queries.findHistory(db, row.id), this.#deps.automatic),
    };
  }

  /** A repository was just added (after its commit): its history follows in the background (HISTORY_BACKFILL on). */
  async added(): Promise<void> {
    if (this.#deps.automatic) await this.kick();
  }

  /**
   * The day's metrics of a repository just added or refreshed, in the change's transaction:
   * one row per repository and day, the last write of the day winning, and the repository's
   * 7- and 30-day growth recomputed from them (growth.queries.ts).
   */
  async recordDay(
    change: CatalogueChanges['repository.added'] | CatalogueChanges['repository.synced'],
    trx: Kysely<Database>,
  ): Promise<void> {
    const row = 'repository' in change ? change.repository : change.after;
    if (row.gone === 1) return;
    await queries.upsertDailyMetrics(trx, {
      repository_id: row.id,
      day: isoNow(this.#deps.clock).slice(0, 10),
      stars: row.stars,
      forks: row.forks,
      issues: row.issues,
      commits: row.commits,
      contributors: row.contributors,
    });
    await recomputeGrowth(trx, row.id);
  }

  /** Starts a run unless one is already waiting for a worker. */
  async kick(): Promise<void> {
    const { db, jobs, clock } = this.#deps;
    if ((await countWaitingJobs(db, backfillJob.name, clock.now())) > 0) return;
    await jobs.enqueue(backfillJob, {});
  }

  /** Whether a run has anything to do (the scheduled tick starts one only then). */
  async hasDueWork(): Promise<boolean> {
    const ids = await queries.dueRepositories(this.#deps.db, {
      now: this.#deps.clock.now().toISOString(),
      sweep: this.#deps.automatic,
      limit: 1,
      skip: [],
    });
    return ids.length > 0;
  }

  /**
   * One run (the backfill job): takes due repositories one at a time — members'
   * requests first, then (HISTORY_BACKFILL on) every repository never backfilled — and reads
   * each one's history page by page. Before every page it yields when anything more urgent is
   * there: a member's GitHub call on this instance in the last `quietMs`, another job due or
   * running, repositories due for the scheduled sync, more than half the token's REST pace
   * used in the last minute, or less than three quarters of its hourly quota left. It never
   * waits for GitHub's pace: a turn not free now ends the run until then. A yielded
   * repository keeps its place; nothing is failed for pacing.
   */
  async backfillDue(options: BackfillRunOptions): Promise<BackfillRunOutcome> {
    const { db, clock } = this.#deps;
    const run = { quietMs: this.#deps.quietMs ?? HISTORY_QUIET_MS, budget: HISTORY_QUOTA_BUDGET, ...options };
    const outcome: BackfillRunOutcome = {
      done: 0,
      unavailable: 0,
      failed: 0,
      waiting: 0,
      yielded: null,
      retryAt: null,
    };
    const skip: number[] = [];
    try {
      while (nowMs(clock) < run.deadline) {
        this.#checkStopping(run);
        await this.#checkUrgency(run.quietMs);
        const ids = await queries.dueRepositories(db, {
          now: clock.now().toISOString(),
          sweep: this.#deps.automatic,
          limit: CANDIDATES,
          skip,
        });
        if (ids.length === 0) return outcome;
        for (const id of ids) {
          if (nowMs(clock) >= run.deadline) break;
          this.#checkStopping(run);
          skip.push(id);
          await this.#backfillOne(id, run, outcome);
        }
      }
      // Out of time with work left: the next run goes on at once.
      outcome.retryAt = clock.now();
    } catch (error) {
      if (!(error instanceof Yield)) throw error;
      outcome.yielded = error.reason;
      outcome.retryAt = error.at;
    }
    return outcome;
  }

  async #backfillOne(id: number, run: RunState, outcome: BackfillRunOutcome) {
    const { db, github, clock, log } = this.#deps;
    const now = clock.now();
    const leased = await queries.leaseHistory(db, id, {
      owner: run.owner,
      now: now.toISOString(),
      until: addMs(now, LEASE_MS).toISOString(),
    });
    if (!leased) return;
    const row = await findRepositoryById(db, id);
    const history = await queries.findHistory(db, id);
    if (!row) return;
    const finish = (changes: Omit<Parameters<typeof queries.finishHistory>[3], 'updated_at'>) =>
      queries.finishHistory(db, id, run.owner, { ...changes, updated_at: clock.now().toISOString() });

    const token = await this.#tokenFor(row, history?.requested_by ?? null);
    if (!token) {
      outcome.waiting += 1;
      await finish({
        status: history?.status === 'done' ? 'done' : 'pending',
        due_at: addMs(now, NO_TOKEN_RETRY_MS).toISOString(),
        message: NO_TOKEN_MESSAGE,
      });
      return;
    }
    try {
      const read = await github.starHistory(row.full_name, token, {
        // Never wait for the pace: a turn that isn't free now ends the run (PaceWait).
        deadline: nowMs(clock),
        beforePage: async () => {
          this.#checkStopping(run);
          await this.#checkUrgency(run.quietMs);
          this.#checkToken(token, run.budget);
        },
      });
      if (!read.available) {
        outcome.unavailable += 1;
        await finish({
          status: 'unavailable',
          due_at: null,
          failures: 0,
          message: `GitHub has no star history for this repository (it answered ${read.status}).`,
        });
        return;
      }
      // Counted back from the stars the catalogue shows now, so the curve ends where the header is.
      const counts = reconstructStarCounts(read.weeks, row.stars, now.toISOString().slice(0, 10));
      // Deleted while GitHub was read: nothing to store, and its history row went with it.
      if (!(await queries.replaceBackfilledRows(db, id, counts))) return;
      outcome.done += 1;
      await finish({
        status: 'done',
        due_at: null,
        failures: 0,
        message: null,
        backfilled_at: clock.now().toISOString(),
      });
    } catch (error) {
      const later = this.#laterFor(error, token);
      if (later) {
        // Not this repository's fault: it keeps its place and the run stops.
        await finish({});
        throw later;
      }
      const failures = (history?.failures ?? 0) + 1;
      outcome.failed += 1;
      log.warn({ repository_id: id, err: error }, 'star history backfill failed');
      await finish({
        status: 'failed',
        failures,
        due_at:
          failures < AUTOMATIC_TRIES ? addMs(now, RETRY_BASE_MS * 2 ** (failures - 1)).toISOString() : null,
        message: error instanceof GitHubError ? error.message : 'The star history could not be read.',
      });
    }
  }

  /** Pacing and quota turn into "later", never into a failure. */
  #laterFor(error: unknown, token: string): Yield | null {
    if (error instanceof Yield) return error;
    if (error instanceof PaceWait) return new Yield('pace', error.eta);
    if (error instanceof GitHubError && error.kind === 'rate_limited')
      return new Yield('quota', error.resetAt ?? this.#deps.github.quotaResetOf(token));
    return null;
  }

  /** Shutdown comes first: the run is put back for now, for the next start. */
  #checkStopping(run: RunState): void {
    if (run.signal?.aborted) throw new Yield('shutdown', this.#deps.clock.now());
  }

  /** Anything more urgent than the history: members' calls, other jobs, due syncs. */
  async #checkUrgency(quietMs: number): Promise<void> {
    const { db, github, clock } = this.#deps;
    const now = clock.now();
    const idle = github.interactive.idleMs();
    if (idle < quietMs) throw new Yield('interactive', addMs(now, quietMs - idle));
    const at = now.toISOString();
    if (await queries.otherJobsDue(db, backfillJob.name, at))
      throw new Yield('jobs', addMs(now, Math.max(quietMs, 250)));
    if (this.#deps.syncScheduled && (await queries.syncDue(db, at)))
      throw new Yield('sync', addMs(now, 60_000));
  }

  /** The token's share for history: half its REST pace a minute, a quarter of its hourly quota. */
  #checkToken(token: string, budget: number): void {
    const { github, clock } = this.#deps;
    const now = clock.now();
    if (!github.canSpend(token, 1, budget)) throw new Yield('quota', github.quotaResetOf(token));
    const key = QuotaBook.keyOf(token);
    if (github.pacer.restLastMinute(key) >= github.pace.restPerMinute * HISTORY_PACE_SHARE)
      throw new Yield('pace', addMs(now, 6000));
  }

  /**
   * The token to read with, as everywhere (docs/architecture.md#which-token): the acting
   * member's own (who asked, else who added it), else the server's; never anonymous. A
   * private repository only through the token of a member who proved access.
   */
  async #tokenFor(row: RepositoryRow, actor: number | null): Promise<string | null> {
    const { db, github, me } = this.#deps;
    if (row.private === 1) {
      for (const userId of await listAccessHolders(db, row.id, actor ?? row.user_id)) {
        const personal = await me.personalToken(userId);
        if (personal) return personal;
      }
      return null;
    }
    const member = actor ?? row.user_id;
    const personal = member === null ? null : await me.personalToken(member);
    return github.tokenFor(personal);
  }
}
