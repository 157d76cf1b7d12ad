import { Cron } from 'croner';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { AdminSync } from '#shared/schemas/admin.ts';
import type { Commit, QueuedResponse, Repository } from '#shared/schemas/repositories.ts';
import type { Database } from '../../db/schema.ts';
import type { Etags, GitHubClient } from '../../github/github-client.ts';
import { GitHubError } from '../../github/github-error.ts';
import { queuedAnswer } from '../../github/paced-work.ts';
import { PaceWait } from '../../github/pacer.ts';
import { QuotaBook } from '../../github/quota-book.ts';
import type { RepositorySnapshot } from '../../github/repository-snapshot.ts';
import { jobKind } from '../../jobs/job-definition.ts';
import { countPendingJobs } from '../../jobs/job-queue.queries.ts';
import type { JobRegistry } from '../../jobs/job-registry.ts';
import { badRequest, notFound } from '../../lib/app-error.ts';
import { type Clock, nowMs, parseTime } from '../../lib/clock.ts';
import { resolveVisible, type Viewer } from '../../repository/access-policy.ts';
import * as queries from '../../repository/repository.queries.ts';
import { parseCommits } from '../../repository/repository-presenter.ts';
import type { CatalogueQueryService } from '../catalogue-query/catalogue-query.service.ts';
import type { MeService } from '../me/me.service.ts';
import type { GitHubDataWriter } from './github-data-writer.service.ts';
import {
  type SyncEngine,
  type SyncRunOptions,
  type SyncRunOutcome,
  storedState,
} from './sync-engine.service.ts';
import { scheduleOverview } from './sync-state.queries.ts';

/**
 * The sync engine's work item (docs/architecture.md#sync-engine): one run that leases due
 * repositories and refreshes them for up to SYNC_RUN_MS. SYNC_SCHEDULE's tick queues it
 * (sync.jobs.ts); it runs on the durable job queue, so a run cut short by a crash leaves its
 * rows due and their leases run out.
 */
export const syncDueJob = jobKind('repositories:sync-due', z.object({}));

/** Stored commits younger than this are served without asking GitHub again. */
const COMMITS_FRESH_MS = 15 * 60 * 1000;
/** Failing repositories the admin overview lists. */
const RECENT_ERRORS = 20;
/** Members whose tokens the overview can name (the rest show as "unknown"). */
const TOKEN_HOLDERS_SHOWN = 500;

export interface RepositorySyncDeps {
  db: Kysely<Database>;
  github: GitHubClient;
  writer: GitHubDataWriter;
  engine: SyncEngine;
  me: Pick<MeService, 'personalToken'>;
  /** The detail answer of an update. */
  catalogueQuery: Pick<CatalogueQueryService, 'present'>;
  clock: Clock;
  /** SYNC_SCHEDULE: when the engine wakes (null: never on its own). */
  schedule: string | null;
  /** Every kind of background work, for the admin's overview. */
  registry: Pick<JobRegistry, 'report'>;
  /** A member's update reads the repository's health signals too (the health module). */
  refreshHealth?: (repositoryId: number, token: string) => Promise<void>;
}

/** The engine's next wake-up under SYNC_SCHEDULE, or null when it is off. */
function nextRun(pattern: string | null, now: Date): string | null {
  if (pattern === null) return null;
  return new Cron(pattern, { paused: true }).nextRun(now)?.toISOString() ?? null;
}

/**
 * Refreshing catalogued repositories from GitHub: a member's "Update", the scheduled refresh
 * (docs/product.md#background-work), the admin's overview of it and the recent commits of the
 * detail screen.
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
  async update(viewer: Viewer, fullName: string): Promise<Repository | QueuedResponse> {
    const { writer, github, db, me } = this.#deps;
    const row = await resolveVisible(db, viewer, fullName);
    const personal = await me.personalToken(viewer.id);
    if (row.private === 1 && !personal) {
      throw badRequest(
        'Syncing a private repository needs your own GitHub token: add it in Settings → GitHub Access.',
      );
    }
    const token = row.private === 1 ? personal : github.tokenFor(personal);
    let fetched: { snapshot: RepositorySnapshot; etags: Etags };
    const stored = await storedState(db, row);
    try {
      fetched = await github.fetchRepository(row.full_name, token, stored);
    } catch (error) {
      if (error instanceof PaceWait) {
        await queries.scheduleAt(db, row.id, error.eta);
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
      await writer.markGone(row);
      throw notFound(
        `${row.full_name} no longer exists on GitHub, or can no longer be read. Its stored data is kept and marked as gone.`,
      );
    }
    if (!(await writer.applySnapshot(row, fetched.snapshot, fetched.etags))) {
      throw notFound(
        `${row.full_name} now names a different repository on GitHub. The stored data is kept and marked as gone.`,
      );
    }
    // Its health signals at once when GitHub had news (docs/health.md): an unchanged repository
    // costs a token nothing (ETags), and GraphQL has no conditional request.
    const changed = JSON.stringify(fetched.snapshot) !== JSON.stringify(stored.snapshot);
    if (token && changed) await this.#deps.refreshHealth?.(row.id, token);
    return this.#deps.catalogueQuery.present(row.id);
  }

  /** One run of the sync engine (the sync-due job; tests and the demo call it directly). */
  syncDue(options: SyncRunOptions): Promise<SyncRunOutcome> {
    return this.#deps.engine.run(options);
  }

  /**
   * GET /auth/admin/sync: what the engine has to do, the tokens it spends (quota as GitHub
   * last answered this instance, REST calls in the last minute, a secondary limit holding it)
   * and the repositories failing now.
   */
  async overview(): Promise<AdminSync> {
    const { db, github, me, writer, clock } = this.#deps;
    const now = clock.now();
    const schedule = await scheduleOverview(db, now, RECENT_ERRORS);
    const owners = new Map<string, { owner: string; lastFour: string | null }>([
      [QuotaBook.keyOf(null), { owner: 'anonymous', lastFour: null }],
    ]);
    const serverToken = github.tokenFor(null);
    if (serverToken)
      owners.set(QuotaBook.keyOf(serverToken), { owner: 'server', lastFour: serverToken.slice(-4) });
    for (const member of await queries.listTokenHolders(db, TOKEN_HOLDERS_SHOWN)) {
      const token = await me.personalToken(member.id);
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
      interval_hours: writer.syncIntervalHours,
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
      jobs: await this.#deps.registry.report(),
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
    const { db, github, me, clock } = this.#deps;
    const row = await resolveVisible(db, viewer, fullName);
    const stored = parseCommits(await queries.findStoredCommits(db, row.id));
    const age = row.last_synced
      ? nowMs(clock) - parseTime(row.last_synced).getTime()
      : Number.POSITIVE_INFINITY;
    if (age < COMMITS_FRESH_MS && (stored.length >= limit || stored.length < 10))
      return stored.slice(0, limit);
    const personal = await me.personalToken(viewer.id);
    const token = row.private === 1 ? personal : github.tokenFor(personal);
    try {
      return await github.listCommits(row.full_name, token, limit);
    } catch (error) {
      if (stored.length > 0) return stored.slice(0, limit);
      throw error;
    }
  }
}
