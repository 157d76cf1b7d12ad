import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { normalizeTags, toFullName } from '../../../shared/repository-input.ts';
import { DEFAULT_RELEASE_TRACKING } from '../../../shared/schemas/releases.ts';
import {
  type AddNotification,
  BATCH_MAX_ITEMS,
  type BatchResultItem,
  INVALID_REPOSITORY_FORMAT,
  type QueuedResponse,
  type Repository,
  type RepositorySummary,
} from '../../../shared/schemas/repositories.ts';
import type { AppConfig } from '../../config.ts';
import { isUniqueViolation } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { ContributorCount, Etags, GitHubClient } from '../../github/github-client.ts';
import { GitHubError, MESSAGES } from '../../github/github-error.ts';
import { fetchRepositoriesWithGraphql, GRAPHQL_BATCH_SIZE } from '../../github/graphql-batch.ts';
import { PaceWait } from '../../github/pacer.ts';
import type { RepositorySnapshot } from '../../github/repository-snapshot.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../lib/app-error.ts';
import { type Clock, isoNow } from '../../lib/clock.ts';
import { SLACK_MESSAGE_JOB, type SlackMessagePayload } from '../../notifications/slack-jobs.ts';
import { addedMessage } from '../../notifications/slack-notifier.ts';
import { recordAdded, recordGone, recordSnapshot } from '../activity/activity.service.ts';
import type { MeService } from '../me/me.service.ts';
import type { ReleasesService } from '../releases/releases.service.ts';
import {
  COUNT_CONTRIBUTORS_JOB,
  type CountContributorsPayload,
  paceEta,
  QUEUED_ADD_JOB,
  type QueuedAddPayload,
  QueuePlan,
} from './import.jobs.ts';
import { queuedAnswer } from '../sync/paced-work.ts';
import {
  newRowFieldsOfSnapshot,
  parseEtags,
  presentRepository,
  presentSummary,
  rowFieldsOfSnapshot,
} from '../../repository/repository-presenter.ts';
import type { RepositoryRow, Viewer } from '../../repository/repository.queries.ts';
import * as queries from '../../repository/repository.queries.ts';
import { inTransaction } from '../../repository/repository-labels.ts';
import { deleteToTrash, findUndoable, purgeExpiredTrash, restoreDeleted } from './repository-trash.ts';
import { scheduleAt } from '../sync/sync-state.queries.ts';

/**
 * What other modules may use of the repository module besides its services: the backup module
 * leaves the derived tables out of a backup and rebuilds them after a restore.
 */
export { isDerivedTable, rebuildDerivedTables } from '../../repository/repository-labels.ts';

export const REPOSITORY_NOT_FOUND = 'Repository not found in database';

export interface CatalogueDeps {
  db: Kysely<Database>;
  github: GitHubClient;
  /** The member's own GitHub token, Slack webhook and name. */
  me: Pick<MeService, 'readGitHubToken' | 'readSlackWebhook' | 'getUser'>;
  /** Slack messages go out from the queue, after the answer. */
  jobs: JobQueue;
  clock: Clock;
  config: AppConfig;
  log: FastifyBaseLogger;
  /** Star history (modules/history): told after each add commits, to load it in the background. */
  history?: { added(): Promise<void> };
  /** Releases (modules/releases): what a read learnt of them becomes versions in its transaction. */
  releases?: Pick<ReleasesService, 'record' | 'tracking'>;
}

export interface AddInput {
  url?: string;
  id?: string;
  tags?: string;
  notify_slack?: boolean;
}

/**
 * The team catalogue (docs/product.md#roles-and-visibility): reading it, adding from GitHub,
 * curation (tags, notes, comments, deletion), with private repositories visible only to members
 * who proved access. The sync and the versions services build on `resolve`, `present` and
 * `applySnapshot`.
 */
export class CatalogueService {
  readonly #deps: CatalogueDeps;

  constructor(deps: CatalogueDeps) {
    this.#deps = deps;
  }

  // ---- reading -------------------------------------------------------------------------------

  async list(viewer: Viewer): Promise<RepositorySummary[]> {
    return (await queries.listVisibleRepositories(this.#deps.db, viewer)).map(presentSummary);
  }

  async listAll(): Promise<RepositorySummary[]> {
    return (await queries.listAllRepositories(this.#deps.db)).map(presentSummary);
  }

  /** The repository if it exists and the viewer may see it; otherwise 404, as if it didn't exist. */
  async resolve(viewer: Viewer, fullName: string): Promise<RepositoryRow> {
    const row = await queries.findRepositoryByName(this.#deps.db, fullName);
    if (!row || !(await this.#canSee(row, viewer))) throw notFound(REPOSITORY_NOT_FOUND);
    return row;
  }

  async exists(viewer: Viewer, fullName: string): Promise<boolean> {
    const row = await queries.findRepositoryByName(this.#deps.db, fullName);
    return row !== undefined && (await this.#canSee(row, viewer));
  }

  async get(viewer: Viewer, fullName: string): Promise<Repository> {
    const row = await this.resolve(viewer, fullName);
    return this.present(row.id);
  }

  /** The detail answer: the row with its comments and versions. */
  async present(id: number): Promise<Repository> {
    const { db } = this.#deps;
    const row = await queries.findRepositoryWithCounts(db, id);
    if (!row) throw notFound(REPOSITORY_NOT_FOUND);
    const [comments, versions, releaseTracking] = await Promise.all([
      queries.listComments(db, id),
      queries.listVersions(db, id),
      this.#deps.releases?.tracking(id) ?? DEFAULT_RELEASE_TRACKING,
    ]);
    return presentRepository(row, { comments, versions, release_tracking: releaseTracking });
  }

  async #canSee(row: RepositoryRow, viewer: Viewer): Promise<boolean> {
    return (
      row.private === 0 || viewer.is_admin || (await queries.hasAccess(this.#deps.db, row.id, viewer.id))
    );
  }

  // ---- adding --------------------------------------------------------------------------------

  /**
   * POST /repositories/: one line, one Slack message. When the token's pace is spent for longer
   * than the call waits, the line is queued (docs/product.md#github-pace).
   */
  async add(
    viewer: Viewer,
    input: AddInput,
  ): Promise<{ repository: Repository; notification?: AddNotification } | QueuedResponse> {
    const fullName = toFullName(input);
    if (!fullName)
      throw badRequest(INVALID_REPOSITORY_FORMAT, {
        [input.url !== undefined ? 'url' : 'id']: INVALID_REPOSITORY_FORMAT,
      });
    const personal = await this.personalToken(viewer.id);
    let row: RepositoryRow;
    try {
      row = await this.#addOne(viewer, fullName, input.tags, personal);
    } catch (error) {
      if (!(error instanceof PaceWait)) throw error;
      await this.#queueLine(viewer, fullName, input.tags, error.eta);
      return queuedAnswer(error.eta, `adding ${fullName}`);
    }
    const repository = await this.present(row.id);
    if (!input.notify_slack) return { repository };
    const notification = await this.#notify(viewer, [
      { id: repository.id, url: repository.url, stars: repository.stars },
    ]);
    return { repository, notification };
  }

  /**
   * POST /repositories/batch: items one at a time, in order, each answered as soon as its row
   * exists (docs/product.md#batch-statuses). With a token the upcoming items are read 25 at a
   * time over GraphQL and contributor counts are left to the engine (`counting…`). Once GitHub's
   * pace or quota is spent for longer than the call waits, the remaining lines are queued with
   * an ETA instead of failing; only lines GitHub refuses (or malformed ones) fail.
   */
  async *addBatch(
    viewer: Viewer,
    items: ({ url: string } | { id: string })[],
    tags: string | undefined,
    notifySlack: boolean,
  ): AsyncGenerator<BatchResultItem> {
    const personal = await this.personalToken(viewer.id);
    const token = this.#deps.github.tokenFor(personal);
    const parsed = items.map((item, index) => ({
      index,
      input: 'url' in item ? item.url : item.id,
      fullName: toFullName(item),
    }));
    const prefetched = new Map<string, RepositorySnapshot | GitHubError>();
    const examined = new Set<string>();
    const added: { id: string; url: string; stars: number }[] = [];
    /** Set once GitHub can't take more now: later lines are queued from this time on. */
    let queue: QueuePlan | null = null;
    /** The next window's GraphQL read, started early; resolves to its failure, if any. */
    let readAhead: Promise<unknown> = Promise.resolve(null);
    let readingAhead = false;
    for (const item of parsed) {
      const base = { index: item.index, input: item.input };
      if (!item.fullName) {
        yield { ...base, ok: false, status: 'failed', error: INVALID_REPOSITORY_FORMAT };
        continue;
      }
      try {
        if (queue) {
          // Already catalogued lines are still answered at once; the rest wait their turn.
          const visible = await this.#visibleRow(viewer, item.fullName);
          if (visible) throw conflict(`${visible.full_name} is already in the catalogue.`);
          const eta = queue.next();
          await this.#queueLine(viewer, item.fullName, tags, eta);
          yield { ...base, ok: false, status: 'queued', eta: eta.toISOString() };
          continue;
        }
        if (token) {
          const key = item.fullName.toLowerCase();
          if (!examined.has(key))
            await this.#prefetch(viewer, token, parsed.slice(item.index), prefetched, examined);
          else if (!prefetched.has(key)) {
            // Read ahead: its query is in flight (or failed: then this line meets the same).
            const failure = await readAhead;
            if (failure && !prefetched.has(key)) throw failure;
          }
          // The next window's query runs while this window's rows are written.
          if (!readingAhead && examined.size - item.index < 2 * GRAPHQL_BATCH_SIZE) {
            readingAhead = true;
            readAhead = this.#prefetch(viewer, token, parsed.slice(item.index + 1), prefetched, examined)
              .then(
                () => null,
                (error: unknown) => error,
              )
              .finally(() => {
                readingAhead = false;
              });
          }
        }
        const row = await this.#addOne(
          viewer,
          item.fullName,
          tags,
          personal,
          prefetched.get(item.fullName.toLowerCase()),
        );
        const repository = presentSummary({ ...row, comment_count: 0, version_count: 0 });
        added.push({ id: repository.id, url: repository.url, stars: repository.stars });
        yield { ...base, ok: true, status: 'added', repository };
      } catch (error) {
        const waitUntil = paceEta(error);
        if (waitUntil) {
          const quotaSpent = error instanceof GitHubError && error.kind === 'rate_limited';
          queue = new QueuePlan(waitUntil, this.#deps.github, token, quotaSpent);
          const eta = queue.next();
          await this.#queueLine(viewer, item.fullName, tags, eta);
          yield { ...base, ok: false, status: 'queued', eta: eta.toISOString() };
          continue;
        }
        // An item's own failure (its answer's message); anything else ends the batch.
        if (!(error instanceof AppError || error instanceof GitHubError)) throw error;
        const skipped = error instanceof AppError && error.statusCode === 409;
        yield { ...base, ok: false, status: skipped ? 'skipped' : 'failed', error: error.message };
      }
    }
    await readAhead;
    if (notifySlack && added.length > 0) await this.#notify(viewer, added);
  }

  /** The line waits for GitHub: added in the background by `eta` (docs/product.md#github-pace). */
  async #queueLine(viewer: Viewer, fullName: string, tags: string | undefined, eta: Date) {
    const payload: QueuedAddPayload = { user_id: viewer.id, full_name: fullName, tags: tags ?? null };
    await this.#deps.jobs.enqueue(QUEUED_ADD_JOB, payload, { runAt: eta });
  }

  async #visibleRow(viewer: Viewer, fullName: string): Promise<RepositoryRow | null> {
    const row = await queries.findRepositoryByName(this.#deps.db, fullName);
    return row && (await this.#canSee(row, viewer)) ? row : null;
  }

  /**
   * A queued line's turn (the QUEUED_ADD_JOB handler): added like a batch line, waiting for
   * the token's turn until `deadline`. Already catalogued or refused by GitHub: nothing to do.
   */
  async addQueuedLine(payload: QueuedAddPayload, deadline: number): Promise<'added' | 'skipped' | 'failed'> {
    const user = await queries.findActiveViewer(this.#deps.db, payload.user_id);
    if (!user) return 'failed';
    const personal = await this.personalToken(user.id);
    try {
      await this.#addOne(user, payload.full_name, payload.tags ?? undefined, personal, undefined, deadline);
      return 'added';
    } catch (error) {
      if (error instanceof AppError && error.statusCode === 409) return 'skipped';
      if (error instanceof AppError || (error instanceof GitHubError && error.kind === 'not_found'))
        return 'failed';
      throw error;
    }
  }

  /**
   * Counts the contributors of a row read over GraphQL (the COUNT_CONTRIBUTORS_JOB handler),
   * with the token of the member who added it, within its pace.
   */
  /**
   * Fills a repository's contributor count (REST only, so after a GraphQL read): while it is
   * pending, or on `recount` when the scheduled sync saw new commits. A recount asks with the
   * stored ETag, so an unchanged list costs no quota.
   */
  async countContributors(
    repositoryId: number,
    userId: number | null,
    deadline: number,
    recount = false,
  ): Promise<void> {
    const { db, github, clock } = this.#deps;
    const row = await queries.findRepositoryById(db, repositoryId);
    if (!row || (row.contributors_pending !== 1 && !recount)) return;
    const personal = userId === null ? null : await this.personalToken(userId);
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
    const updated = await queries.updateRepository(db, row.id, {
      contributors: counted.contributors,
      contributors_capped: counted.contributorsCapped ? 1 : 0,
      contributors_pending: 0,
      etags: JSON.stringify(etags),
      updated_at: isoNow(clock),
    });
    await this.#recordMetrics(updated);
  }

  /** The names an import would add: a user's stars, or an owner's repositories (at most a batch). */
  async listImportNames(viewer: Viewer, source: 'starred' | 'owner', login: string): Promise<string[]> {
    const personal = await this.personalToken(viewer.id);
    return this.#deps.github.listRepositoryNames(
      source,
      login,
      this.#deps.github.tokenFor(personal),
      BATCH_MAX_ITEMS,
    );
  }

  /** Reads the next window of names not catalogued (or hidden) over GraphQL (one query per 25). */
  async #prefetch(
    viewer: Viewer,
    token: string,
    upcoming: { fullName: string | null }[],
    into: Map<string, RepositorySnapshot | GitHubError>,
    examined: Set<string>,
  ) {
    const names: string[] = [];
    for (const item of upcoming) {
      if (names.length >= GRAPHQL_BATCH_SIZE) break;
      const key = item.fullName?.toLowerCase();
      if (!item.fullName || !key || examined.has(key)) continue;
      examined.add(key);
      // Catalogued and visible: answered from the database, no GitHub call needed. A hidden
      // one is looked up like a missing name, so the batch costs the same either way.
      const row = await queries.findRepositoryByName(this.#deps.db, item.fullName);
      if (row && (await this.#canSee(row, viewer))) continue;
      names.push(item.fullName);
    }
    if (names.length === 0) return;
    const results = await fetchRepositoriesWithGraphql(this.#deps.github, token, names);
    for (const [fullName, result] of results) into.set(fullName.toLowerCase(), result);
  }

  async #addOne(
    viewer: Viewer,
    fullName: string,
    tags: string | undefined,
    personal: string | null,
    prefetched?: RepositorySnapshot | GitHubError,
    deadline?: number,
  ): Promise<RepositoryRow> {
    const { db, github } = this.#deps;
    const existing = await queries.findRepositoryByName(db, fullName);
    if (existing && (await this.#canSee(existing, viewer)))
      throw conflict(`${existing.full_name} is already in the catalogue.`);
    // Not catalogued, or private and hidden from this member: the same GitHub lookup either
    // way, so status, text (the name as typed) and GitHub calls can't tell a hidden repository
    // from a missing one (docs/product.md#private-repositories).
    const token = github.tokenFor(personal);
    let snapshot: RepositorySnapshot;
    let etags: Etags = {};
    // Not found: in the spelling of this item, not of an earlier one with the same name.
    if (prefetched instanceof GitHubError)
      throw prefetched.kind === 'not_found' ? notOnGitHub(fullName) : prefetched;
    if (prefetched) {
      snapshot = prefetched;
    } else {
      const fetched = await github.fetchRepository(fullName, token, undefined, {
        allowPrivate: personal !== null && token === personal,
        deadline,
      });
      snapshot = fetched.snapshot;
      etags = fetched.etags;
    }
    // A private repository joins the catalogue only through the member's own token
    // (docs/product.md#private-repositories).
    if (snapshot.private && (!personal || token !== personal)) throw notOnGitHub(fullName);
    const sameRepository =
      existing?.github_id === snapshot.githubId
        ? existing
        : await queries.findRepositoryByGithubId(db, snapshot.githubId);
    if (sameRepository) return this.#alreadyCatalogued(viewer, sameRepository, snapshot, etags);
    // The hidden row's name now belongs to another repository on GitHub (renamed or deleted,
    // the name reused): this one can't take the name; answered as a name GitHub doesn't know.
    if (existing) throw notOnGitHub(fullName);

    const now = isoNow(this.#deps.clock);
    // One transaction for the row and everything that goes with it: one commit (one fsync on
    // SQLite) per line, which sets the pace of a 1,000-line import (docs/benchmarks.md).
    try {
      const added = await inTransaction(db, async (trx) => {
        const row = await queries.insertRepository(
          trx,
          {
            ...newRowFieldsOfSnapshot(snapshot),
            user_id: viewer.id,
            tags: normalizeTags(tags),
            notes: '',
            gone: 0,
            last_synced: now,
            etags: JSON.stringify(etags),
            created_at: now,
            updated_at: now,
          },
          this.nextSyncAt(),
        );
        if (snapshot.private) await queries.grantAccess(trx, row.id, viewer.id, now);
        // Read over GraphQL: the contributor count follows within the token's pace.
        if (row.contributors_pending === 1) {
          const payload: CountContributorsPayload = { repository_id: row.id, user_id: viewer.id };
          await this.#deps.jobs.enqueue(COUNT_CONTRIBUTORS_JOB, payload, { db: trx });
        }
        // Added under a former name (GitHub answered 301): that name keeps resolving too.
        if (snapshot.fullName.toLowerCase() !== fullName.toLowerCase())
          await queries.addAlias(trx, row.id, fullName);
        await this.#recordMetrics(row, trx);
        // Releases (docs/product.md#releases): the first read takes the latest as a version.
        if (snapshot.releases) await this.#deps.releases?.record(trx, row, snapshot.releases, now);
        // Activity (docs/product.md#activity): every add path ends here, so each add is one event.
        await recordAdded(trx, row.id, viewer.id, now);
        return row;
      });
      await this.#historyAfterAdd();
      return added;
    } catch (error) {
      // Two members adding the same repository at once: the second sees it as catalogued.
      if (isUniqueViolation(error)) throw conflict(`${snapshot.fullName} is already in the catalogue.`);
      throw error;
    }
  }

  /**
   * 409 for a catalogued repository. GitHub has just shown it to this member (public, or private
   * through their own token), so a hidden one becomes visible to them first: a private one by
   * granting access, one that went public by storing what GitHub said.
   */
  async #alreadyCatalogued(
    viewer: Viewer,
    row: RepositoryRow,
    snapshot: RepositorySnapshot,
    etags: Etags,
  ): Promise<never> {
    let id = row.full_name;
    if (!(await this.#canSee(row, viewer))) {
      if (snapshot.private) {
        await queries.grantAccess(this.#deps.db, row.id, viewer.id, isoNow(this.#deps.clock));
      } else if (await this.applySnapshot(row, snapshot, Object.keys(etags).length > 0 ? etags : null)) {
        id = snapshot.fullName;
      }
    }
    throw conflict(`${id} is already in the catalogue.`);
  }

  // ---- what GitHub said ----------------------------------------------------------------------

  /**
   * Writes what GitHub said about a stored repository, follows a rename and records the day's
   * metrics. False (and the row marked gone) when the name now belongs to another repository.
   */
  async applySnapshot(
    row: RepositoryRow,
    snapshot: RepositorySnapshot,
    etags: Etags | null,
  ): Promise<boolean> {
    const { db, clock } = this.#deps;
    if (snapshot.githubId !== row.github_id) {
      await this.markGone(row);
      return false;
    }
    const now = isoNow(clock);
    // One commit for the row, its schedule and its day's metrics.
    await inTransaction(db, async (trx) => {
      // Activity (docs/product.md#activity): what changed against the row as stored now.
      await recordSnapshot(trx, (await queries.findRepositoryById(trx, row.id)) ?? row, snapshot, {
        now: clock.now(),
        staleAfterDays: this.#deps.config.staleAfterDays,
      });
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
      await scheduleAt(trx, row.id, this.nextSyncAt());
      await this.#recordMetrics(updated, trx);
      // Releases (docs/product.md#releases): new ones become versions in this same commit.
      if (snapshot.releases) await this.#deps.releases?.record(trx, updated, snapshot.releases, now);
    });
    return true;
  }

  /** SYNC_INTERVAL_HOURS: how often each repository is due. */
  get syncIntervalHours(): number {
    return this.#deps.config.syncIntervalHours;
  }

  /** When a repository synced now is due again. */
  nextSyncAt(): Date {
    return new Date(this.#deps.clock.now().getTime() + this.syncIntervalHours * 3600_000);
  }

  /** GitHub no longer has it (or no token reads it): the stored data stays, flagged gone. */
  async markGone(row: RepositoryRow): Promise<void> {
    const now = isoNow(this.#deps.clock);
    await inTransaction(this.#deps.db, async (trx) => {
      // Activity: a `gone` event the first time only (read inside the write's transaction).
      await recordGone(trx, (await queries.findRepositoryById(trx, row.id)) ?? row, now);
      await queries.updateRepository(trx, row.id, { gone: 1, updated_at: now });
    });
  }

  /**
   * Star history (docs/product.md#star-history): the row exists, so its backfill may start in
   * the background. It never fails or delays the add: a lost kick is made up by the engine's
   * sweep of repositories never backfilled.
   */
  async #historyAfterAdd(): Promise<void> {
    try {
      await this.#deps.history?.added();
    } catch (error) {
      this.#deps.log.error({ err: error }, 'could not start the star history backfill');
    }
  }

  async #recordMetrics(row: RepositoryRow, db: Kysely<Database> = this.#deps.db) {
    await queries.upsertDailyMetrics(db, {
      repository_id: row.id,
      day: isoNow(this.#deps.clock).slice(0, 10),
      stars: row.stars,
      forks: row.forks,
      issues: row.issues,
      commits: row.commits,
      contributors: row.contributors,
    });
  }

  /** The member's own GitHub token, or null (none stored, or sealed under another SECRET_KEY). */
  async personalToken(userId: number): Promise<string | null> {
    try {
      return await this.#deps.me.readGitHubToken(userId);
    } catch (error) {
      // A token sealed under another SECRET_KEY can't be read: act as if there were none.
      this.#deps.log.error({ err: error, user_id: userId }, 'stored GitHub token could not be decrypted');
      return null;
    }
  }

  /**
   * Every private repository the member proved access to stops being visible to them (their
   * token is gone); `db` is the caller's transaction.
   */
  async revokeAllAccess(userId: number, db: Kysely<Database> = this.#deps.db): Promise<void> {
    await queries.revokeAllAccess(db, userId);
  }

  // ---- curation ------------------------------------------------------------------------------

  async remove(viewer: Viewer, fullName: string): Promise<void> {
    const row = await this.resolve(viewer, fullName);
    if (!viewer.is_admin && row.user_id !== viewer.id) {
      throw forbidden('Only the member who added this repository or an administrator can delete it.');
    }
    const now = this.#deps.clock.now();
    await purgeExpiredTrash(this.#deps.db, now);
    // Soft for UNDO_DELETE_MS: `restore` puts it back with everything it had.
    await deleteToTrash(this.#deps.db, row.id, viewer.id, now);
  }

  /**
   * Undoes a deletion within UNDO_DELETE_MS (docs/product.md#undo-delete): the member who deleted
   * it, or an admin. The repository comes back with its tags, notes, comments, versions, history
   * and events, under its old id.
   */
  async restore(viewer: Viewer, fullName: string): Promise<Repository> {
    const { db, clock } = this.#deps;
    const now = clock.now();
    await purgeExpiredTrash(db, now);
    const trash = await findUndoable(db, fullName, now);
    if (!trash) throw notFound('Nothing to restore: the deletion can no longer be undone.');
    if (!viewer.is_admin && trash.deleted_by !== viewer.id) {
      throw forbidden('Only the member who deleted this repository, or an administrator, can restore it.');
    }
    if (await queries.findRepositoryByName(db, fullName)) {
      throw conflict(`${fullName} is in the catalogue again, so the deleted copy can't come back.`);
    }
    let id: number | null;
    try {
      id = await restoreDeleted(db, trash.id, now);
    } catch (error) {
      // Added again under another name, with the same GitHub id, meanwhile.
      if (isUniqueViolation(error))
        throw conflict(`${fullName} is in the catalogue again, so the deleted copy can't come back.`);
      throw error;
    }
    if (id === null) throw notFound('Nothing to restore: the deletion can no longer be undone.');
    return this.present(id);
  }

  async updateMetadata(
    viewer: Viewer,
    fullName: string,
    changes: { tags?: string; notes?: string },
  ): Promise<Repository> {
    const row = await this.resolve(viewer, fullName);
    await queries.updateRepository(this.#deps.db, row.id, {
      ...(changes.tags !== undefined ? { tags: normalizeTags(changes.tags) } : {}),
      ...(changes.notes !== undefined ? { notes: changes.notes } : {}),
      updated_at: isoNow(this.#deps.clock),
    });
    return this.present(row.id);
  }

  async addComment(viewer: Viewer, fullName: string, comment: string, author: string) {
    const row = await this.resolve(viewer, fullName);
    return queries.insertComment(this.#deps.db, {
      repository_id: row.id,
      user_id: viewer.id,
      author,
      comment,
      created_at: isoNow(this.#deps.clock),
    });
  }

  /**
   * Queues the Slack message; the answer never waits for Slack (issue 9, finding 4). The job
   * reads the webhook again when it runs and records the outcome in its row.
   */
  async #notify(
    viewer: Viewer,
    repositories: { id: string; url: string; stars: number }[],
  ): Promise<AddNotification> {
    let webhook: string | null;
    try {
      webhook = await this.#deps.me.readSlackWebhook(viewer.id);
    } catch {
      webhook = null;
    }
    if (!webhook) return { sent: false, error: 'No Slack webhook is configured in Settings.' };
    const user = await this.#deps.me.getUser(viewer.id);
    const payload: SlackMessagePayload = {
      user_id: viewer.id,
      text: addedMessage(this.#deps.config.appName, `${user.first_name} ${user.last_name}`, repositories),
    };
    await this.#deps.jobs.enqueue(SLACK_MESSAGE_JOB, payload);
    return { queued: true };
  }
}

/** A name GitHub doesn't show this member, answered in the spelling they typed. */
function notOnGitHub(fullName: string): AppError {
  return notFound(MESSAGES.notFound(fullName));
}
