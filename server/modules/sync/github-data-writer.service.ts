import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { CatalogueChanges, ChangeBus } from '../../changes/catalogue-changes.ts';
import { inTransaction } from '../../db/database.ts';
import type { Database, RepositoryRow } from '../../db/schema.ts';
import type { ContributorCount, Etags, GitHubClient } from '../../github/github-client.ts';
import { GitHubError } from '../../github/github-error.ts';
import type { RepositorySnapshot } from '../../github/repository-snapshot.ts';
import { jobKind } from '../../jobs/job-definition.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { addMs, type Clock, isoNow } from '../../lib/clock.ts';
import * as queries from '../../repository/repository.queries.ts';
import { parseEtags, rowFieldsOfSnapshot } from '../../repository/repository-presenter.ts';
import type { MeService } from '../me/me.service.ts';

/**
 * Counts a repository's contributors over REST (GraphQL has no count): after an add read over
 * GraphQL, and when the scheduled sync saw new commits (`recount`).
 */
export const countContributorsJob = jobKind(
  'repositories:count-contributors',
  z.object({
    repository_id: z.number().int().positive(),
    /** Whose token counts: the member who added it (the server token otherwise). */
    user_id: z.number().int().positive().nullable(),
    /** Count again though a count is stored (the scheduled sync saw new commits). */
    recount: z.boolean().optional(),
  }),
);

export interface GitHubDataWriterDeps {
  db: Kysely<Database>;
  github: GitHubClient;
  me: Pick<MeService, 'personalToken'>;
  jobs: JobQueue;
  clock: Clock;
  changes: ChangeBus;
  /** SYNC_INTERVAL_HOURS: how often each repository is due. */
  syncIntervalHours: number;
}

/**
 * Writes what GitHub said about a catalogued repository (docs/architecture.md#sync-engine): a
 * refresh, the row flagged gone, a contributor count. Each write is one transaction that
 * publishes `repository.synced` with the row before and after, so activity, releases and
 * history follow in the same commit.
 */
export class GitHubDataWriter {
  readonly #deps: GitHubDataWriterDeps;

  constructor(deps: GitHubDataWriterDeps) {
    this.#deps = deps;
  }

  get syncIntervalHours(): number {
    return this.#deps.syncIntervalHours;
  }

  /** When a repository synced now is due again. */
  nextSyncAt(): Date {
    return addMs(this.#deps.clock.now(), this.#deps.syncIntervalHours * 3600_000);
  }

  /**
   * Writes a snapshot, follows a rename and moves the schedule on. False (and the row marked
   * gone) when the name now belongs to another repository.
   */
  async applySnapshot(
    row: RepositoryRow,
    snapshot: RepositorySnapshot,
    etags: Etags | null,
  ): Promise<boolean> {
    if (snapshot.githubId !== row.github_id) {
      await this.markGone(row);
      return false;
    }
    const now = isoNow(this.#deps.clock);
    await this.#write(row, snapshot, async (trx) => {
      // Renamed or transferred: the id follows GitHub, the old name keeps resolving.
      if (snapshot.fullName !== row.full_name) await queries.addAlias(trx, row.id, row.full_name);
      const updated = await queries.updateRepository(trx, row.id, {
        ...rowFieldsOfSnapshot(snapshot),
        gone: 0,
        last_synced: now,
        // A GraphQL read has no ETags: keep the stored ones, they still describe the REST lists.
        ...(etags ? { etags: JSON.stringify(etags) } : {}),
        updated_at: now,
      });
      await queries.saveStoredCommits(trx, row.id, snapshot.recentCommits);
      await queries.scheduleAt(trx, row.id, this.nextSyncAt());
      return updated;
    });
    return true;
  }

  /** GitHub no longer has it (or no token reads it): the stored data stays, flagged gone. */
  async markGone(row: RepositoryRow): Promise<void> {
    const now = isoNow(this.#deps.clock);
    await this.#write(row, null, (trx) =>
      queries.updateRepository(trx, row.id, { gone: 1, updated_at: now }),
    );
  }

  /**
   * Fills a repository's contributor count (the count-contributors job): while it is pending,
   * or on `recount`. A recount asks with the stored ETag, so an unchanged list costs no quota.
   */
  async countContributors(repositoryId: number, userId: number | null, deadline: number, recount = false) {
    const { db, github, me, clock } = this.#deps;
    const row = await queries.findRepositoryById(db, repositoryId);
    if (!row || (row.contributors_pending !== 1 && !recount)) return;
    const personal = userId === null ? null : await me.personalToken(userId);
    const token = row.private === 1 ? personal : github.tokenFor(personal);
    const etags = parseEtags(row.etags);
    let counted: ContributorCount;
    try {
      counted = await github.contributorCount(row.full_name, token, {
        deadline,
        etag: row.contributors_pending === 1 ? undefined : etags.contributors,
      });
    } catch (error) {
      // Gone from GitHub (or no longer readable): nothing to count; the next sync says more.
      if (!(error instanceof GitHubError && error.kind === 'not_found')) throw error;
      counted = { contributors: 0, contributorsCapped: false };
    }
    if (counted.notModified) return;
    if (counted.etag) etags.contributors = counted.etag;
    await this.#write(row, null, (trx) =>
      queries.updateRepository(trx, row.id, {
        contributors: counted.contributors,
        contributors_capped: counted.contributorsCapped ? 1 : 0,
        contributors_pending: 0,
        etags: JSON.stringify(etags),
        updated_at: isoNow(clock),
      }),
    );
  }

  /** A new row read over GraphQL has no contributor count yet: it follows within the token's pace. */
  async countWhenPending(change: CatalogueChanges['repository.added'], trx: Kysely<Database>): Promise<void> {
    if (change.repository.contributors_pending !== 1) return;
    await this.#deps.jobs.enqueue(
      countContributorsJob,
      { repository_id: change.repository.id, user_id: change.actor },
      { db: trx },
    );
  }

  /** One write and its `repository.synced` change, in one transaction (the row read inside it). */
  async #write(
    row: RepositoryRow,
    snapshot: RepositorySnapshot | null,
    update: (trx: Kysely<Database>) => Promise<RepositoryRow>,
  ): Promise<void> {
    const { db, changes } = this.#deps;
    const change = await inTransaction(db, async (trx) => {
      const before = (await queries.findRepositoryById(trx, row.id)) ?? row;
      const after = await update(trx);
      const synced = { before, after, snapshot };
      await changes.publish('repository.synced', synced, trx);
      return synced;
    });
    await changes.committed('repository.synced', change);
  }
}
