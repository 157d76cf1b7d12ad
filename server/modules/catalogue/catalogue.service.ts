import type { Kysely } from 'kysely';
import { normalizeTags, tagsError, toFullName } from '#shared/repository-input.ts';
import {
  type AddNotification,
  BATCH_MAX_ITEMS,
  type BatchResultItem,
  INVALID_REPOSITORY_FORMAT,
  type QueuedResponse,
  type Repository,
} from '#shared/schemas/repositories.ts';
import type { CatalogueChanges, ChangeBus } from '../../changes/catalogue-changes.ts';
import type { AppConfig } from '../../config.ts';
import { inTransaction, isUniqueViolation } from '../../db/database.ts';
import type { Database, RepositoryRow } from '../../db/schema.ts';
import type { GitHubClient } from '../../github/github-client.ts';
import { GitHubError } from '../../github/github-error.ts';
import { paceEta, queuedAnswer } from '../../github/paced-work.ts';
import { PaceWait } from '../../github/pacer.ts';
import type { RepositorySnapshot } from '../../github/repository-snapshot.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../lib/app-error.ts';
import { type Clock, isoNow } from '../../lib/clock.ts';
import {
  findActiveViewer,
  findVisible,
  resolveVisible,
  type Viewer,
} from '../../repository/access-policy.ts';
import * as queries from '../../repository/repository.queries.ts';
import { presentSummary } from '../../repository/repository-presenter.ts';
import type { CatalogueQueryService } from '../catalogue-query/catalogue-query.service.ts';
import type { MeService } from '../me/me.service.ts';
import { addedSlackMessage, SLACK_MESSAGE_JOB } from '../messages/messages.jobs.ts';
import type { RepositoryAdder } from './add-repository.service.ts';
import { QueuePlan } from './queue-plan.ts';
import { deleteToTrash, findUndoable, purgeExpiredTrash, restoreDeleted } from './repository-trash.ts';

/** A line's own refusal as its result: already catalogued is skipped, anything else failed. */
function refusedItem(base: { index: number; input: string }, error: AppError | GitHubError): BatchResultItem {
  const skipped = error instanceof AppError && error.statusCode === 409;
  return { ...base, ok: false, status: skipped ? 'skipped' : 'failed', error: error.message };
}

const NOTHING_TO_RESTORE = 'Nothing to restore: the deletion can no longer be undone.';

export interface CatalogueDeps {
  db: Kysely<Database>;
  github: GitHubClient;
  adder: RepositoryAdder;
  /** The member's own GitHub token, Slack webhook and name. */
  me: Pick<MeService, 'personalToken' | 'readSlackWebhook' | 'getUser'>;
  /** The detail answer after an add, a restore or an edit. */
  catalogueQuery: Pick<CatalogueQueryService, 'present'>;
  changes: ChangeBus;
  /** Slack messages go out from the queue, after the answer. */
  jobs: JobQueue;
  clock: Clock;
  config: AppConfig;
}

export interface AddInput {
  url?: string;
  id?: string;
  tags?: string;
  notify_slack?: boolean;
}

/**
 * The team catalogue's writes (docs/product.md#roles-and-visibility): adding from GitHub (one
 * line, a batch, an import, a queued line), deleting and undoing it, tags and notes. Every
 * change is published on the catalogue bus; private repositories stay visible only to members
 * who proved access.
 */
export class CatalogueService {
  readonly #deps: CatalogueDeps;

  constructor(deps: CatalogueDeps) {
    this.#deps = deps;
  }

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
    const personal = await this.#deps.me.personalToken(viewer.id);
    let row: RepositoryRow;
    try {
      row = await this.#deps.adder.addOne(viewer, fullName, input.tags, personal);
    } catch (error) {
      if (!(error instanceof PaceWait)) throw error;
      await this.#deps.adder.queueLine(viewer, fullName, input.tags, error.eta);
      return queuedAnswer(error.eta, `adding ${fullName}`);
    }
    const repository = await this.#deps.catalogueQuery.present(row.id);
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
    const { adder, db, clock } = this.#deps;
    const personal = await this.#deps.me.personalToken(viewer.id);
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
    /** Settles when a query of the read ahead returns (its rows are written at once). */
    let arrival = Promise.withResolvers<void>();
    const arrived = () => {
      arrival.resolve();
      arrival = Promise.withResolvers<void>();
    };
    /**
     * Lines GitHub has answered, waiting to be written together: one commit per window of a
     * query's answers, their results answered after it (docs/architecture.md#adding-repositories).
     */
    let group: { base: { index: number; input: string }; fullName: string; snapshot: RepositorySnapshot }[] =
      [];
    const writeGroup = async function* (): AsyncGenerator<BatchResultItem> {
      const lines = group;
      group = [];
      if (lines.length === 0) return;
      const outcomes = await adder.addGroup(viewer, lines, tags, personal);
      for (const [index, line] of lines.entries()) {
        const outcome = outcomes[index];
        yield outcome instanceof AppError || outcome instanceof GitHubError
          ? refusedItem(line.base, outcome)
          : addedItem(line.base, outcome as RepositoryRow);
      }
    };
    /** A line's new row as its result, and as one of the batch's additions to notify. */
    const addedItem = (base: { index: number; input: string }, row: RepositoryRow): BatchResultItem => {
      const repository = presentSummary(row);
      added.push({ id: repository.id, url: repository.url, stars: repository.stars });
      return { ...base, ok: true, status: 'added', repository };
    };
    /** GitHub's answer for a line, when it is in hand and a repository (not a refusal). */
    const answered = (fullName: string | null): RepositorySnapshot | null => {
      const answer = fullName ? prefetched.get(fullName.toLowerCase()) : undefined;
      return answer && !(answer instanceof GitHubError) ? answer : null;
    };
    for (const item of parsed) {
      const base = { index: item.index, input: item.input };
      // A line that can't join the window: the window's lines are answered first, in order.
      if (!token || queue || !item.fullName || !answered(item.fullName)) yield* writeGroup();
      if (!item.fullName) {
        yield { ...base, ok: false, status: 'failed', error: INVALID_REPOSITORY_FORMAT };
        continue;
      }
      try {
        if (queue) {
          // Already catalogued lines are still answered at once; the rest wait their turn.
          const visible = await findVisible(db, viewer, item.fullName);
          if (visible) throw conflict(`${visible.full_name} is already in the catalogue.`);
          const eta = queue.next();
          await adder.queueLine(viewer, item.fullName, tags, eta);
          yield { ...base, ok: false, status: 'queued', eta: eta.toISOString() };
          continue;
        }
        if (token) {
          const key = item.fullName.toLowerCase();
          if (!examined.has(key))
            await adder.prefetch(viewer, token, parsed.slice(item.index), prefetched, examined);
          else if (!prefetched.has(key)) {
            // Read ahead: its query is in flight (or failed: then this line meets the same).
            // Each query's rows are written as it returns, not when the whole window has.
            while (readingAhead && !prefetched.has(key)) await Promise.race([readAhead, arrival.promise]);
            const failure = await readAhead;
            if (failure && !prefetched.has(key)) throw failure;
          }
          // The next window's query runs while this window's rows are written.
          if (!readingAhead && examined.size - item.index < 2 * adder.windowSize(token)) {
            readingAhead = true;
            readAhead = adder
              .prefetch(viewer, token, parsed.slice(item.index + 1), prefetched, examined, arrived)
              .then(
                () => null,
                (error: unknown) => error,
              )
              .finally(() => {
                readingAhead = false;
              });
          }
        }
        const snapshot = token ? answered(item.fullName) : null;
        if (token && snapshot) {
          group.push({ base, fullName: item.fullName, snapshot });
          // Written when the window is full or the next line's answer is not in hand yet.
          const next = parsed[item.index + 1];
          if (group.length >= adder.windowSize(token) || !answered(next?.fullName ?? null))
            yield* writeGroup();
          continue;
        }
        const row = await adder.addOne(
          viewer,
          item.fullName,
          tags,
          personal,
          prefetched.get(item.fullName.toLowerCase()),
        );
        yield addedItem(base, row);
      } catch (error) {
        const waitUntil = paceEta(error, clock);
        if (waitUntil) {
          const quotaSpent = error instanceof GitHubError && error.kind === 'rate_limited';
          queue = new QueuePlan(waitUntil, this.#deps.github, token, quotaSpent);
          const eta = queue.next();
          await adder.queueLine(viewer, item.fullName, tags, eta);
          yield { ...base, ok: false, status: 'queued', eta: eta.toISOString() };
          continue;
        }
        // An item's own failure (its answer's message); anything else ends the batch.
        if (!(error instanceof AppError || error instanceof GitHubError)) throw error;
        yield refusedItem(base, error);
      }
    }
    yield* writeGroup();
    await readAhead;
    if (notifySlack && added.length > 0) await this.#notify(viewer, added);
  }

  /**
   * A queued line's turn (the queued-add job): added like a batch line, waiting for
   * the token's turn until `deadline`. Already catalogued or refused by GitHub: nothing to do.
   */
  async addQueuedLine(
    payload: { user_id: number; full_name: string; tags: string | null },
    deadline: number,
  ): Promise<'added' | 'skipped' | 'failed'> {
    const user = await findActiveViewer(this.#deps.db, payload.user_id);
    if (!user) return 'failed';
    const personal = await this.#deps.me.personalToken(user.id);
    try {
      await this.#deps.adder.addOne(
        user,
        payload.full_name,
        payload.tags ?? undefined,
        personal,
        undefined,
        deadline,
      );
      return 'added';
    } catch (error) {
      if (error instanceof AppError && error.statusCode === 409) return 'skipped';
      if (error instanceof AppError || (error instanceof GitHubError && error.kind === 'not_found'))
        return 'failed';
      throw error;
    }
  }

  /** The names an import would add: a user's stars, or an owner's repositories (at most a batch). */
  async listImportNames(viewer: Viewer, source: 'starred' | 'owner', login: string): Promise<string[]> {
    const personal = await this.#deps.me.personalToken(viewer.id);
    return this.#deps.github.listRepositoryNames(
      source,
      login,
      this.#deps.github.tokenFor(personal),
      BATCH_MAX_ITEMS,
    );
  }

  async remove(viewer: Viewer, fullName: string): Promise<void> {
    const row = await resolveVisible(this.#deps.db, viewer, fullName);
    if (!viewer.is_admin && row.user_id !== viewer.id) {
      throw forbidden('Only the member who added this repository or an administrator can delete it.');
    }
    const { db, clock, changes } = this.#deps;
    const now = clock.now();
    await purgeExpiredTrash(db, now);
    // Soft for UNDO_DELETE_MS: `restore` puts it back with everything it had.
    let deleted: CatalogueChanges['repository.deleted'] | undefined;
    await deleteToTrash(db, row.id, viewer.id, now, async (trx, repository) => {
      deleted = { repository, actor: viewer.id };
      await changes.publish('repository.deleted', deleted, trx);
    });
    if (deleted) await changes.committed('repository.deleted', deleted);
  }

  /**
   * Undoes a deletion within UNDO_DELETE_MS (docs/product.md#undo-delete): the member who deleted
   * it, or an admin. The repository comes back with its tags, notes, comments, versions, history
   * and events, under its old id. A deletion the caller can't undo (another member's, of a
   * private repository they never saw or a public one alike) answers as a name never deleted:
   * the same status, text and query (issue 22, item 4).
   */
  async restore(viewer: Viewer, fullName: string): Promise<Repository> {
    const { db, clock, changes } = this.#deps;
    const now = clock.now();
    await purgeExpiredTrash(db, now);
    const trash = await findUndoable(db, fullName, now, viewer.is_admin ? null : viewer.id);
    if (!trash) throw notFound(NOTHING_TO_RESTORE);
    if (await queries.findRepositoryByName(db, fullName)) {
      throw conflict(`${fullName} is in the catalogue again, so the deleted copy can't come back.`);
    }
    let id: number | null;
    let restored: CatalogueChanges['repository.restored'] | undefined;
    try {
      id = await restoreDeleted(db, trash.id, now, async (trx, repository) => {
        restored = { repository, actor: viewer.id };
        await changes.publish('repository.restored', restored, trx);
      });
    } catch (error) {
      // Added again under another name, with the same GitHub id, meanwhile.
      if (isUniqueViolation(error))
        throw conflict(`${fullName} is in the catalogue again, so the deleted copy can't come back.`);
      throw error;
    }
    if (id === null) throw notFound(NOTHING_TO_RESTORE);
    if (restored) await changes.committed('repository.restored', restored);
    return this.#deps.catalogueQuery.present(id);
  }

  async updateMetadata(
    viewer: Viewer,
    fullName: string,
    changes: { tags?: string; notes?: string },
  ): Promise<Repository> {
    const row = await resolveVisible(this.#deps.db, viewer, fullName);
    await this.edit(viewer, row, {
      ...(changes.tags !== undefined ? { tags: normalizeTags(changes.tags) } : {}),
      ...(changes.notes !== undefined ? { notes: changes.notes } : {}),
    });
    return this.#deps.catalogueQuery.present(row.id);
  }

  /**
   * Writes a member's change of tags or notes and publishes `repository.updated` with the row
   * before and after, in one transaction (the metadata form and the bulk tag actions). Tags are
   * the normalised result of the change: refused when they break the one tags rule (a bulk add
   * onto a repository that is nearly full), so no path stores more than the form may.
   */
  async edit(
    viewer: Viewer,
    row: RepositoryRow,
    fields: { tags?: string; notes?: string },
  ): Promise<RepositoryRow> {
    const { db, clock, changes } = this.#deps;
    // Only a change that grows them: tags stored over the limit before the rule existed can
    // still be shortened (removed in bulk) on the way back under it.
    const tagsProblem =
      fields.tags === undefined || fields.tags.length <= row.tags.length ? null : tagsError(fields.tags);
    if (tagsProblem) throw badRequest(tagsProblem, { tags: tagsProblem });
    const change = await inTransaction(db, async (trx) => {
      const before = (await queries.findRepositoryById(trx, row.id)) ?? row;
      const after = await queries.updateRepository(trx, row.id, { ...fields, updated_at: isoNow(clock) });
      const updated: CatalogueChanges['repository.updated'] = {
        before,
        after,
        actor: viewer.id,
        fields: (['tags', 'notes'] as const).filter((field) => fields[field] !== undefined),
      };
      await changes.publish('repository.updated', updated, trx);
      return updated;
    });
    await changes.committed('repository.updated', change);
    return change.after;
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
    const words = { appName: this.#deps.config.appName, actor: `${user.first_name} ${user.last_name}` };
    await this.#deps.jobs.enqueue(SLACK_MESSAGE_JOB, addedSlackMessage(viewer.id, words, repositories));
    return { queued: true };
  }
}
