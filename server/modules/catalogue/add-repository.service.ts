import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { normalizeTags, tagsError } from '#shared/repository-input.ts';
import type { CatalogueChanges, ChangeBus } from '../../changes/catalogue-changes.ts';
import { inTransaction, isUniqueViolation } from '../../db/database.ts';
import type { Database, RepositoryRow } from '../../db/schema.ts';
import type { Etags, GitHubClient } from '../../github/github-client.ts';
import { GitHubError, MESSAGES } from '../../github/github-error.ts';
import { fetchRepositoriesWithGraphql } from '../../github/graphql-batch.ts';
import type { RepositorySnapshot } from '../../github/repository-snapshot.ts';
import { jobKind } from '../../jobs/job-definition.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { AppError, badRequest, conflict, notFound } from '../../lib/app-error.ts';
import { type Clock, isoNow } from '../../lib/clock.ts';
import { canSee, type Viewer, visibleNames } from '../../repository/access-policy.ts';
import * as queries from '../../repository/repository.queries.ts';
import { newRowFieldsOfSnapshot } from '../../repository/repository-presenter.ts';
import type { GitHubDataWriter } from '../sync/github-data-writer.service.ts';

type AddedChange = CatalogueChanges['repository.added'];

/** A line that waited for GitHub's pace: added in the background by its ETA (docs/product.md#github-pace). */
export const queuedAddJob = jobKind(
  'repositories:add-queued',
  z.object({
    user_id: z.number().int().positive(),
    full_name: z.string().min(3).max(201),
    tags: z.string().nullable(),
  }),
);

export interface RepositoryAdderDeps {
  db: Kysely<Database>;
  github: GitHubClient;
  jobs: JobQueue;
  clock: Clock;
  changes: ChangeBus;
  /** Writes GitHub's data to a row already catalogued; says when a new row is due. */
  writer: Pick<GitHubDataWriter, 'applySnapshot' | 'nextSyncAt'>;
  log: FastifyBaseLogger;
}

/** A name GitHub doesn't show this member, answered in the spelling they typed. */
export function notOnGitHub(fullName: string): AppError {
  return notFound(MESSAGES.notFound(fullName));
}

/**
 * The one way a repository joins the catalogue (docs/product.md#adding-repositories), shared by
 * every add path: one line, a batch or import line, a queued line. Hidden and missing names
 * cost and answer the same.
 */
export class RepositoryAdder {
  readonly #deps: RepositoryAdderDeps;

  constructor(deps: RepositoryAdderDeps) {
    this.#deps = deps;
  }

  /** The line waits for GitHub: added in the background by `eta`. */
  async queueLine(viewer: Viewer, fullName: string, tags: string | undefined, eta: Date): Promise<void> {
    await this.#deps.jobs.enqueue(
      queuedAddJob,
      { user_id: viewer.id, full_name: fullName, tags: tags ?? null },
      { runAt: eta },
    );
  }

  /** Repositories the token's next GraphQL query carries (learnt by the GitHub client). */
  windowSize(token: string): number {
    return this.#deps.github.graphqlBatchSize(token);
  }

  /**
   * Reads the next window of names not catalogued (or hidden) over GraphQL: one query of the
   * size the client learnt for this token (halved and retried inside when GitHub times out),
   * asking only for what the list row needs (`row` shape). Each query's answers land in `into`
   * as it returns, and `arrived` is told.
   */
  async prefetch(
    viewer: Viewer,
    token: string,
    upcoming: { fullName: string | null }[],
    into: Map<string, RepositorySnapshot | GitHubError>,
    examined: Set<string>,
    arrived: () => void = () => {},
  ): Promise<void> {
    const names: string[] = [];
    const size = this.windowSize(token);
    let next = 0;
    while (names.length < size && next < upcoming.length) {
      const candidates: string[] = [];
      for (; next < upcoming.length && names.length + candidates.length < size; next += 1) {
        const fullName = upcoming[next]?.fullName;
        const key = fullName?.toLowerCase();
        if (!fullName || !key || examined.has(key)) continue;
        examined.add(key);
        candidates.push(fullName);
      }
      // Catalogued and visible: answered from the database, no GitHub call needed. A hidden
      // one is looked up like a missing name, so the batch costs the same either way. One
      // lookup for the window, not one per name: see `visibleNames`.
      const visible = await visibleNames(this.#deps.db, viewer, candidates);
      names.push(...candidates.filter((fullName) => !visible.has(fullName.toLowerCase())));
    }
    if (names.length === 0) return;
    await fetchRepositoriesWithGraphql(this.#deps.github, token, names, {}, new Set(), {
      shape: 'row',
      onAnswers: (answers) => {
        for (const [fullName, result] of answers) into.set(fullName.toLowerCase(), result);
        arrived();
      },
    });
  }

  async addOne(
    viewer: Viewer,
    fullName: string,
    tags: string | undefined,
    personal: string | null,
    prefetched?: RepositorySnapshot | GitHubError,
    deadline?: number,
  ): Promise<RepositoryRow> {
    const { db, github } = this.#deps;
    const existing = await this.#refuseEarly(db, viewer, fullName, tags);
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
    const sameRepository = await this.#catalogued(db, fullName, snapshot, personal, existing);
    if (sameRepository) return this.#alreadyCatalogued(viewer, sameRepository, snapshot, etags);
    return this.#insert(viewer, fullName, tags, snapshot, etags);
  }

  /**
   * Lines whose GitHub answer is in hand (a batch's GraphQL window), added in one transaction:
   * one commit — one fsync on SQLite — per window instead of per line, which set the pace of a
   * 1,000-line import (docs/benchmarks.md). Each line is checked as `addOne` checks it, inside
   * the transaction, so a repository twice in one window is caught; its outcome, in order, is
   * its row or its own refusal. A line already catalogued (a grant or a refresh to write) goes
   * the one-line way after the commit, and so does the whole window when the database refuses a
   * row someone else added meanwhile.
   */
  async addGroup(
    viewer: Viewer,
    lines: readonly { fullName: string; snapshot: RepositorySnapshot }[],
    tags: string | undefined,
    personal: string | null,
  ): Promise<(RepositoryRow | AppError | GitHubError)[]> {
    const { db, changes } = this.#deps;
    let outcomes: (RepositoryRow | AppError | GitHubError | undefined)[] = [];
    let added: AddedChange[] = [];
    try {
      await inTransaction(db, async (trx) => {
        outcomes = lines.map(() => undefined);
        added = [];
        for (const [index, line] of lines.entries()) {
          try {
            const existing = await this.#refuseEarly(trx, viewer, line.fullName, tags);
            if (await this.#catalogued(trx, line.fullName, line.snapshot, personal, existing)) continue;
          } catch (error) {
            // The line's own refusal, found before it wrote anything.
            if (!(error instanceof AppError)) throw error;
            outcomes[index] = error;
            continue;
          }
          const change = await this.#insertRows(trx, viewer, line.fullName, tags, line.snapshot, {});
          added.push(change);
          outcomes[index] = change.repository;
        }
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      outcomes = lines.map(() => undefined);
      added = [];
    }
    for (const change of added) await changes.committed('repository.added', change);
    for (const [index, line] of lines.entries()) {
      if (outcomes[index] !== undefined) continue;
      try {
        outcomes[index] = await this.addOne(viewer, line.fullName, tags, personal, line.snapshot);
      } catch (error) {
        if (!(error instanceof AppError || error instanceof GitHubError)) throw error;
        outcomes[index] = error;
      }
    }
    return outcomes as (RepositoryRow | AppError | GitHubError)[];
  }

  /**
   * What refuses a line before GitHub is asked: its tags past the one rule (the same for every
   * name), or a repository this member already sees in the catalogue. The row under this name,
   * hidden from the member, when there is one.
   */
  async #refuseEarly(
    db: Kysely<Database>,
    viewer: Viewer,
    fullName: string,
    tags: string | undefined,
  ): Promise<RepositoryRow | undefined> {
    const tagsProblem = tagsError(normalizeTags(tags));
    if (tagsProblem) throw badRequest(tagsProblem, { tags: tagsProblem });
    const existing = await queries.findRepositoryByName(db, fullName);
    if (existing && (await canSee(db, viewer, existing)))
      throw conflict(`${existing.full_name} is already in the catalogue.`);
    return existing;
  }

  /**
   * After GitHub answered: the catalogued row this repository already is (by GitHub's id), or
   * null when it is new. A private one joins only through the member's own token; a hidden row
   * whose name GitHub now gives another repository (renamed or deleted, the name reused) can't
   * give up its name — both answered as a name GitHub doesn't know.
   */
  async #catalogued(
    db: Kysely<Database>,
    fullName: string,
    snapshot: RepositorySnapshot,
    personal: string | null,
    existing: RepositoryRow | undefined,
  ): Promise<RepositoryRow | null> {
    const token = this.#deps.github.tokenFor(personal);
    if (snapshot.private && (!personal || token !== personal)) throw notOnGitHub(fullName);
    const sameRepository =
      existing?.github_id === snapshot.githubId
        ? existing
        : await queries.findRepositoryByGithubId(db, snapshot.githubId);
    if (sameRepository) return sameRepository;
    if (existing) throw notOnGitHub(fullName);
    return null;
  }

  /**
   * One transaction for the row and everything that goes with it: one commit (one fsync on
   * SQLite) per line — a batch writes a window of lines per commit instead (`addGroup`).
   */
  async #insert(
    viewer: Viewer,
    fullName: string,
    tags: string | undefined,
    snapshot: RepositorySnapshot,
    etags: Etags,
  ): Promise<RepositoryRow> {
    const { db, changes } = this.#deps;
    let change: AddedChange;
    try {
      change = await inTransaction(db, (trx) =>
        this.#insertRows(trx, viewer, fullName, tags, snapshot, etags),
      );
    } catch (error) {
      // Two members adding the same repository at once: the second sees it as catalogued.
      if (isUniqueViolation(error)) throw conflict(`${snapshot.fullName} is already in the catalogue.`);
      throw error;
    }
    await changes.committed('repository.added', change);
    return change.repository;
  }

  /**
   * The row and everything that goes with it (its schedule, the member's access to a private
   * one, a former name, and what the `repository.added` listeners write), in the caller's
   * transaction.
   */
  async #insertRows(
    trx: Kysely<Database>,
    viewer: Viewer,
    fullName: string,
    tags: string | undefined,
    snapshot: RepositorySnapshot,
    etags: Etags,
  ): Promise<AddedChange> {
    const { changes, writer } = this.#deps;
    const now = isoNow(this.#deps.clock);
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
      writer.nextSyncAt(),
    );
    await queries.saveStoredCommits(trx, row.id, snapshot.recentCommits);
    if (snapshot.private) await queries.grantAccess(trx, row.id, viewer.id, now);
    // Added under a former name (GitHub answered 301): that name keeps resolving too.
    if (snapshot.fullName.toLowerCase() !== fullName.toLowerCase())
      await queries.addAlias(trx, row.id, fullName);
    const added = { repository: row, actor: viewer.id, snapshot };
    await changes.publish('repository.added', added, trx);
    return added;
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
    const { db, clock, writer } = this.#deps;
    let id = row.full_name;
    if (!(await canSee(db, viewer, row))) {
      if (snapshot.private) {
        await queries.grantAccess(db, row.id, viewer.id, isoNow(clock));
      } else if (await writer.applySnapshot(row, snapshot, Object.keys(etags).length > 0 ? etags : null)) {
        id = snapshot.fullName;
      }
    }
    throw conflict(`${id} is already in the catalogue.`);
  }
}
