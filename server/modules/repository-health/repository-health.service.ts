import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { NewEvent } from '#shared/schemas/activity.ts';
import type {
  HealthGrade,
  HealthOverrideBody,
  HealthSignal,
  RepositoryHealth,
} from '#shared/schemas/health.ts';
import type { CatalogueChanges } from '../../changes/catalogue-changes.ts';
import { inTransaction } from '../../db/database.ts';
import type { Database, RepositoryRow } from '../../db/schema.ts';
import type { GitHubClient } from '../../github/github-client.ts';
import { GitHubError } from '../../github/github-error.ts';
import { type GitHubHealth, HEALTH_BATCH_MAX, HEALTH_WINDOW_DAYS } from '../../github/health-query.ts';
import { paceEta } from '../../github/paced-work.ts';
import { jobKind } from '../../jobs/job-definition.ts';
import { addMs, type Clock, isoNow, nowMs } from '../../lib/clock.ts';
import { resolveVisible, type Viewer } from '../../repository/access-policy.ts';
import { findRepositoryById, findUsername, listAccessHolders } from '../../repository/repository.queries.ts';
import type { MeService } from '../me/me.service.ts';
import * as queries from './health.queries.ts';
import {
  assessHealth,
  FORMULA_VERSION,
  gradeDropped,
  type HealthInputs,
  isRankedGrade,
} from './health-formula.ts';
import { type GitHubRead, gatherInputs } from './health-inputs.ts';
import { rescoreOutdated } from './health-rescore.ts';

export const healthRefreshJob = jobKind('health:refresh', z.object({}));
export const healthRescoreJob = jobKind('health:rescore', z.object({}));

/** How long a health read stays fresh: GitHub's health query runs at least weekly per repository. */
export const HEALTH_INTERVAL_MS = 7 * 86_400_000;
/** A repository that changed on GitHub is read again, but not twice within this. */
const CHANGED_AGAIN_MS = 86_400_000;
/** A failed read is tried again after this, doubling with each failure (capped at the interval). */
const RETRY_BASE_MS = 3600_000;
/** Background work leaves three quarters of a token's hourly quota to members and the sync. */
const HEALTH_QUOTA_BUDGET = 0.25;
/** Points a full health query costs by GitHub's formula (15 requests × 25 repositories / 100). */
const QUERY_COST = 4;
/** Repositories a run considers at a time. */
const CANDIDATES = 100;
/** A member's update reads the health signals again only when the last read is older than this. */
const MANUAL_FRESH_MS = 3600_000;
/** How long a member's update waits for GitHub's pace to read the health signals too. */
const MANUAL_WAIT_MS = 2000;
/** How long a contributors list waits for a REST turn before the run yields to GitHub's pace. */
const SHARE_PACE_WAIT_MS = 5000;

export interface RepositoryHealthDeps {
  db: Kysely<Database>;
  github: GitHubClient;
  me: MeService;
  clock: Clock;
  /** Records activity events in the caller's transaction (the activity module's recorder). */
  recordEvents: (trx: Kysely<Database>, events: NewEvent[], now: string) => Promise<void>;
  /**
   * Runs after GitHub's health query answered for a batch of repositories, before they are
   * scored: the advisories module detects their packages and reads their advisories with the
   * same token.
   */
  afterReads?: (reads: Array<{ row: RepositoryRow; health: GitHubHealth }>, token: string) => Promise<void>;
}

export interface HealthRunOutcome {
  read: number;
  storedOnly: number;
  failed: number;
  /** Put back for this time (quota, pace or time ran out) with work left; null when done. */
  retryAt: Date | null;
}

/**
 * Health and its signals per repository (docs/health.md): assessed from stored data whenever the
 * catalogue changes it, and from GitHub's health query at least weekly (`refreshDue`, the
 * `health:refresh` job), within a quarter of a token's quota and GitHub's pace.
 */
export class RepositoryHealthService {
  readonly #deps: RepositoryHealthDeps;

  constructor(deps: RepositoryHealthDeps) {
    this.#deps = deps;
  }

  /** `GET /repositories/{id}/health`: assessed from what is stored when GitHub was not read yet. */
  async health(viewer: Viewer, fullName: string): Promise<RepositoryHealth> {
    const { db } = this.#deps;
    const row = await resolveVisible(db, viewer, fullName);
    const stored = (await queries.findHealth(db, row.id)) ?? (await this.#assess(db, row, null));
    return this.#present(stored);
  }

  /** "Finished — stable, no activity expected": activity signals count as met (docs/health.md). */
  async setOverride(viewer: Viewer, fullName: string, body: HealthOverrideBody): Promise<RepositoryHealth> {
    const { db, clock } = this.#deps;
    const row = await resolveVisible(db, viewer, fullName);
    await this.#assess(db, row, null, {
      override_reason: body.reason.trim(),
      override_by: viewer.id,
      override_at: isoNow(clock),
    });
    return this.health(viewer, fullName);
  }

  async clearOverride(viewer: Viewer, fullName: string): Promise<RepositoryHealth> {
    const row = await resolveVisible(this.#deps.db, viewer, fullName);
    await this.#assess(this.#deps.db, row, null, {
      override_reason: null,
      override_by: null,
      override_at: null,
    });
    return this.health(viewer, fullName);
  }

  /** A new repository: assessed from what the add stored, its GitHub read due at once. */
  async added(change: CatalogueChanges['repository.added'], trx: Kysely<Database>): Promise<void> {
    await this.#assess(trx, change.repository, null);
  }

  /**
   * A sync: assessed again from the stored row; a new commit, an archiving or a licence change
   * makes GitHub's health query due (at most once a day).
   */
  async synced(change: CatalogueChanges['repository.synced'], trx: Kysely<Database>): Promise<void> {
    const { before, after } = change;
    const existing = await queries.findHealth(trx, after.id);
    await this.#assess(trx, after, null);
    if (!existing) return;
    if (
      before.last_commit !== after.last_commit ||
      before.archived !== after.archived ||
      before.license !== after.license
    ) {
      const now = this.#deps.clock.now();
      await queries.makeDue(trx, after.id, now.toISOString(), addMs(now, -CHANGED_AGAIN_MS).toISOString());
    }
  }

  /**
   * Scores every repository again whose health an older formula version scored (after an
   * upgrade), from its stored inputs: no GitHub call. A grade that falls is a `health_dropped`
   * event as any other. Returns how many were scored.
   */
  rescoreOutdated(options: {
    deadline: number;
    signal?: AbortSignal;
  }): Promise<{ rescored: number; done: boolean }> {
    return rescoreOutdated(this.#deps, options);
  }

  /**
   * A member's "Update from GitHub": the repository's health query and contributors list at
   * once, with the member's token, waiting at most MANUAL_WAIT_MS for GitHub's pace. Anything
   * GitHub can't answer now leaves the stored health as it was (the weekly read comes anyway).
   */
  async refreshOne(repositoryId: number, token: string): Promise<void> {
    const { db, github, clock } = this.#deps;
    const row = await findRepositoryById(db, repositoryId);
    if (!row) return;
    // Read in the last hour already: GraphQL has no conditional request, so not again now.
    const readAt = (await queries.findHealth(db, repositoryId))?.github_read_at;
    if (readAt && nowMs(clock) - Date.parse(readAt) < MANUAL_FRESH_MS) return;
    try {
      const since = addMs(clock.now(), -HEALTH_WINDOW_DAYS * 86_400_000);
      const deadline = nowMs(clock) + MANUAL_WAIT_MS;
      const answer = (await github.fetchHealth(token, [row.full_name], since, { deadline })).get(
        row.full_name,
      );
      if (!answer || answer instanceof GitHubError) return;
      const share = await this.#readShare(row, token).catch(() => undefined);
      const [read = row] = await this.#afterReads([{ row, health: answer }], token);
      await this.#assess(
        db,
        read,
        { health: answer, at: isoNow(clock), share },
        { due_at: this.#nextDue(), failures: 0 },
      );
    } catch (error) {
      if (paceEta(error, clock) || error instanceof GitHubError) return;
      throw error;
    }
  }

  /** Whether some repository's health was scored by an older formula version. */
  async hasOutdated(): Promise<boolean> {
    return (await queries.outdatedHealth(this.#deps.db, FORMULA_VERSION, 0, 1)).length > 0;
  }

  /** Whether a run has anything to do (the scheduled tick queues one only then). */
  async hasDueWork(): Promise<boolean> {
    return (await queries.dueForHealth(this.#deps.db, isoNow(this.#deps.clock), 1)).length > 0;
  }

  /**
   * One run: due repositories, grouped by the token that may read them, ≤ 25 a GraphQL query.
   * Without any token a repository is assessed from stored data alone (the GitHub-only signals
   * stay unknown). Quota and pace end the run with `retryAt`; nothing is failed for them.
   */
  async refreshDue(options: { deadline: number; signal?: AbortSignal }): Promise<HealthRunOutcome> {
    const { db, github, clock } = this.#deps;
    const outcome: HealthRunOutcome = { read: 0, storedOnly: 0, failed: 0, retryAt: null };
    const skip = new Set<number>();
    while (nowMs(clock) < options.deadline) {
      if (options.signal?.aborted) return { ...outcome, retryAt: clock.now() };
      const ids = (await queries.dueForHealth(db, isoNow(clock), CANDIDATES + skip.size)).filter(
        (id) => !skip.has(id),
      );
      if (ids.length === 0) return outcome;
      const byToken = new Map<string | null, RepositoryRow[]>();
      for (const id of ids) {
        skip.add(id);
        const row = await findRepositoryById(db, id);
        if (!row) continue;
        const token = await this.#tokenFor(row);
        byToken.set(token, [...(byToken.get(token) ?? []), row]);
      }
      for (const [token, rows] of byToken) {
        if (token === null) {
          for (const row of rows) await this.#assess(db, row, null, { due_at: this.#nextDue() });
          outcome.storedOnly += rows.length;
          continue;
        }
        const missed: RepositoryRow[] = [];
        const full: RepositoryRow[] = [];
        for (const row of rows) ((await this.#missedShare(row)) ? missed : full).push(row);
        for (const row of missed) {
          // Read by the health query a moment ago: the contributors list alone, not the query again.
          let share: GitHubRead['share'];
          try {
            share = await this.#readShare(row, token);
          } catch (error) {
            // GitHub's pace ends the run; any other failure keeps the share it had.
            const eta = paceEta(error, clock);
            if (eta) return { ...outcome, retryAt: eta };
          }
          await this.#assess(db, row, { at: isoNow(clock), share }, { due_at: this.#nextDue(), failures: 0 });
          outcome.read += 1;
        }
        for (let start = 0; start < full.length; start += HEALTH_BATCH_MAX) {
          if (nowMs(clock) >= options.deadline) return { ...outcome, retryAt: clock.now() };
          if (!github.canSpend(token, QUERY_COST, HEALTH_QUOTA_BUDGET))
            return { ...outcome, retryAt: github.quotaResetOf(token) };
          const batch = full.slice(start, start + HEALTH_BATCH_MAX);
          const since = addMs(clock.now(), -HEALTH_WINDOW_DAYS * 86_400_000);
          let answers: Map<string, GitHubHealth | GitHubError>;
          try {
            // Never wait for the pace: a turn not free now ends the run until then.
            answers = await github.fetchHealth(
              token,
              batch.map((row) => row.full_name),
              since,
              { deadline: nowMs(clock) },
            );
          } catch (error) {
            const eta = paceEta(error, clock);
            if (eta) return { ...outcome, retryAt: eta };
            if (error instanceof GitHubError && error.kind === 'rate_limited')
              return { ...outcome, retryAt: error.resetAt ?? github.quotaResetOf(token) };
            throw error;
          }
          const answered = batch.flatMap((row) => {
            const health = answers.get(row.full_name);
            return health && !(health instanceof GitHubError) ? [{ row, health }] : [];
          });
          const reread = new Map((await this.#afterReads(answered, token)).map((row) => [row.id, row]));
          let paceAt: Date | null = null;
          for (const row of batch) {
            const answer = answers.get(row.full_name);
            if (answer && !(answer instanceof GitHubError)) {
              // The contributor share is REST: once GitHub's pace says "later", the rest of the
              // batch keeps the share it had, and the run ends after storing what it read.
              const share = paceAt
                ? undefined
                : await this.#readShare(row, token).catch((error: unknown) => {
                    // GitHub's pace or quota ends the run; any other failure keeps the share it had.
                    paceAt = paceEta(error, clock);
                    return undefined;
                  });
              // Read without its share (GitHub's pace said "later"): due again when the pace frees.
              const dueAt = paceAt ? (paceAt as Date).toISOString() : this.#nextDue();
              await this.#assess(
                db,
                reread.get(row.id) ?? row,
                { health: answer, at: isoNow(clock), share },
                { due_at: dueAt, failures: 0 },
              );
              outcome.read += 1;
            } else {
              await this.#failed(row);
              outcome.failed += 1;
            }
          }
          if (paceAt) return { ...outcome, retryAt: paceAt };
        }
      }
    }
    return { ...outcome, retryAt: clock.now() };
  }

  /**
   * The contributors list, conditional on the ETag it was last read with. It waits for a REST
   * turn at most SHARE_PACE_WAIT_MS (GitHub's 900 a minute are one every 67 ms): the health
   * query's answer for the repository is in hand, and a later run would ask it again.
   */
  async #readShare(row: RepositoryRow, token: string): Promise<GitHubRead['share']> {
    const stored = await queries.findHealth(this.#deps.db, row.id);
    const etag = stored ? (JSON.parse(stored.inputs) as HealthInputs).topContributorShare?.etag : undefined;
    return this.#deps.github.topContributorShare(row.full_name, token, {
      deadline: nowMs(this.#deps.clock) + SHARE_PACE_WAIT_MS,
      etag,
    });
  }

  /**
   * Whether the repository's last health query (within a day) went without its contributors
   * list, which GitHub's pace kept for later: due for that list alone.
   */
  async #missedShare(row: RepositoryRow): Promise<boolean> {
    const stored = await queries.findHealth(this.#deps.db, row.id);
    const readAt = stored?.github_read_at;
    if (!stored || !readAt || nowMs(this.#deps.clock) - Date.parse(readAt) > CHANGED_AGAIN_MS) return false;
    const shareAt = (JSON.parse(stored.inputs) as HealthInputs).topContributorShare.at;
    return shareAt === null || shareAt < readAt;
  }

  /** The advisories' read (`afterReads`), and the rows again with the open advisories it counted. */
  async #afterReads(
    reads: Array<{ row: RepositoryRow; health: GitHubHealth }>,
    token: string,
  ): Promise<RepositoryRow[]> {
    if (!this.#deps.afterReads || reads.length === 0) return reads.map(({ row }) => row);
    await this.#deps.afterReads(reads, token);
    return Promise.all(
      reads.map(async ({ row }) => (await findRepositoryById(this.#deps.db, row.id)) ?? row),
    );
  }

  #nextDue(): string {
    return addMs(this.#deps.clock.now(), HEALTH_INTERVAL_MS).toISOString();
  }

  /** GitHub could not answer for it: assessed from stored data, tried again later. */
  async #failed(row: RepositoryRow): Promise<void> {
    const { db, clock } = this.#deps;
    const failures = ((await queries.findHealth(db, row.id))?.failures ?? 0) + 1;
    const wait = Math.min(HEALTH_INTERVAL_MS, RETRY_BASE_MS * 2 ** (failures - 1));
    await this.#assess(db, row, null, { due_at: addMs(clock.now(), wait).toISOString(), failures });
  }

  /**
   * Scores the repository again and stores it, with `changes` to the stored row (due date,
   * override), in one transaction with the `health_dropped` event when its grade fell.
   */
  async #assess(
    db: Kysely<Database>,
    row: RepositoryRow,
    github: GitHubRead | null,
    changes: Partial<queries.HealthRow> = {},
  ): Promise<queries.HealthRow> {
    return inTransaction(db, (trx) => this.#assessIn(trx, row, github, changes));
  }

  async #assessIn(
    db: Kysely<Database>,
    row: RepositoryRow,
    github: GitHubRead | null,
    changes: Partial<queries.HealthRow>,
  ): Promise<queries.HealthRow> {
    const now = this.#deps.clock.now();
    const existing = await queries.findHealth(db, row.id);
    const previous = existing ? (JSON.parse(existing.inputs) as HealthInputs) : null;
    const inputs = gatherInputs(row, await queries.storedReleaseDates(db, row.id), github, previous, now);
    const overrideReason =
      changes.override_reason !== undefined ? changes.override_reason : (existing?.override_reason ?? null);
    const result = assessHealth(inputs, now, overrideReason ? { reason: overrideReason } : null);
    const stored: queries.HealthRow = {
      repository_id: row.id,
      score: result.score,
      grade: result.grade,
      formula_version: FORMULA_VERSION,
      inputs: JSON.stringify(inputs),
      signals: JSON.stringify(result.signals),
      computed_at: now.toISOString(),
      github_read_at: github?.health ? github.at : (existing?.github_read_at ?? null),
      due_at: existing?.due_at ?? now.toISOString(),
      failures: existing?.failures ?? 0,
      override_reason: existing?.override_reason ?? null,
      override_by: existing?.override_by ?? null,
      override_at: existing?.override_at ?? null,
      ...changes,
    };
    await queries.saveHealth(db, stored);
    await this.#recorded(db, row.id, existing?.grade, stored);
    return stored;
  }

  /** The day's score on the metrics, and `health_dropped` when the grade fell. */
  async #recorded(
    db: Kysely<Database>,
    repositoryId: number,
    from: HealthGrade | undefined,
    now: Pick<queries.HealthRow, 'score' | 'grade' | 'computed_at'>,
  ): Promise<void> {
    await queries.recordDailyScore(db, repositoryId, now.computed_at.slice(0, 10), now.score);
    if (from && isRankedGrade(from) && gradeDropped(from, now.grade)) {
      await this.#deps.recordEvents(
        db,
        [
          {
            type: 'health_dropped',
            repository_id: repositoryId,
            data: { from, to: now.grade, score: now.score },
          },
        ],
        now.computed_at,
      );
    }
  }

  async #present(row: queries.HealthRow): Promise<RepositoryHealth> {
    const setBy =
      row.override_by === null ? null : (await findUsername(this.#deps.db, row.override_by)) || null;
    return {
      score: row.score,
      grade: row.grade,
      formula_version: row.formula_version,
      computed_at: row.computed_at,
      override: row.override_reason
        ? { reason: row.override_reason, set_by: setBy, set_at: row.override_at ?? row.computed_at }
        : null,
      signals: JSON.parse(row.signals) as HealthSignal[],
    };
  }

  /**
   * The token to read with, as everywhere (docs/architecture.md#which-token): the adder's own,
   * else the server's; a private repository only through a member who proved access.
   */
  async #tokenFor(row: RepositoryRow): Promise<string | null> {
    const { db, github, me } = this.#deps;
    if (row.private === 1) {
      for (const userId of await listAccessHolders(db, row.id, row.user_id)) {
        const personal = await me.personalToken(userId);
        if (personal) return personal;
      }
      return null;
    }
    return github.tokenFor(row.user_id === null ? null : await me.personalToken(row.user_id));
  }
}
