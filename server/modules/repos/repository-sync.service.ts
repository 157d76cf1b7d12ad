import type { Kysely } from 'kysely';
import type { Commit, QueuedResponse, Repository } from '../../../shared/schemas/repositories.ts';
import type { Database } from '../../db/schema.ts';
import { type Etags, FULL_FETCH_COST, type GitHubClient } from '../../github/github-client.ts';
import { GitHubError } from '../../github/github-error.ts';
import { fetchRepositoriesWithGraphql, GRAPHQL_BATCH_SIZE } from '../../github/graphql-batch.ts';
import { PaceWait } from '../../github/pacer.ts';
import type { RepositorySnapshot } from '../../github/repository-snapshot.ts';
import { badRequest, notFound } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { CatalogueService } from './catalogue.service.ts';
import { dueAt, queuedAnswer } from './paced-work.ts';
import { snapshotOfRow } from './repo-presenter.ts';
import type { RepositoryRow, Viewer } from './repos.queries.ts';
import * as queries from './repos.queries.ts';

/** Stored commits younger than this are served without asking GitHub again. */
const COMMITS_FRESH_MS = 15 * 60 * 1000;

export interface RepositorySyncDeps {
  db: Kysely<Database>;
  github: GitHubClient;
  catalogue: CatalogueService;
  clock: Clock;
}

type SyncOutcome = { synced: number; gone: number; skipped: number };

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
        await dueAt(db, row.id, error.eta);
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
   * The scheduled refresh: every repository not synced since `cutoff`, oldest first, spending
   * at most `budget` of the shared quota. Public repositories go through the server token (25
   * per GraphQL query) or anonymously over REST with ETags; private ones through the token of
   * a member who proved access. Stops early, without failing, when the quota runs low.
   */
  async syncStale(cutoff: Date, budget = 0.5): Promise<SyncOutcome> {
    const { db, github } = this.#deps;
    const rows = await queries.listStaleRepositories(db, cutoff.toISOString());
    const outcome = { synced: 0, gone: 0, skipped: 0 };
    const serverToken = github.tokenFor(null);
    const publicRows = rows.filter((row) => row.private === 0);
    if (serverToken) {
      for (let start = 0; start < publicRows.length; start += GRAPHQL_BATCH_SIZE) {
        const chunk = publicRows.slice(start, start + GRAPHQL_BATCH_SIZE);
        if (!github.canSpend(serverToken, chunk.length, budget)) {
          outcome.skipped += publicRows.length - start;
          break;
        }
        const results = await fetchRepositoriesWithGraphql(
          github,
          serverToken,
          chunk.map((row) => row.full_name),
        );
        for (const row of chunk)
          await this.#applyScheduled(row, results.get(row.full_name) ?? null, null, outcome);
      }
    } else {
      for (const [index, row] of publicRows.entries()) {
        if (!github.canSpend(null, FULL_FETCH_COST, budget)) {
          outcome.skipped += publicRows.length - index;
          break;
        }
        await this.#syncOneScheduled(row, outcome);
      }
    }
    for (const row of rows.filter((candidate) => candidate.private === 1))
      await this.#syncPrivateScheduled(row, budget, outcome);
    return outcome;
  }

  /**
   * A private repository through the token of a member who proved access (the adder first),
   * re-checking visibility on the way: a member without a token, or whose token no longer
   * reads it (404) or is refused (401), loses access and the next member's token is tried.
   * Marked gone only when every token tried answered 404.
   */
  async #syncPrivateScheduled(row: RepositoryRow, budget: number, outcome: SyncOutcome) {
    const { db, github, catalogue } = this.#deps;
    let tried = 0;
    let missing = 0;
    for (const userId of await queries.listAccessHolders(db, row.id, row.user_id)) {
      const token = await catalogue.personalToken(userId);
      if (!token) {
        await queries.revokeAccess(db, row.id, userId);
        continue;
      }
      if (!github.canSpend(token, FULL_FETCH_COST, budget)) continue;
      tried += 1;
      try {
        const fetched = await github.fetchRepository(row.full_name, token, storedState(row));
        await this.#applyScheduled(row, fetched.snapshot, fetched.etags, outcome);
        return;
      } catch (error) {
        if (!(error instanceof GitHubError)) throw error;
        if (error.kind !== 'not_found' && error.kind !== 'bad_credentials') break;
        if (error.kind === 'not_found') missing += 1;
        await queries.revokeAccess(db, row.id, userId);
      }
    }
    if (tried > 0 && missing === tried) {
      await catalogue.markGone(row);
      outcome.gone += 1;
    } else {
      outcome.skipped += 1;
    }
  }

  /** A public repository over REST, anonymously (no server token), with its stored ETags. */
  async #syncOneScheduled(row: RepositoryRow, outcome: SyncOutcome) {
    try {
      const fetched = await this.#deps.github.fetchRepository(row.full_name, null, storedState(row));
      await this.#applyScheduled(row, fetched.snapshot, fetched.etags, outcome);
    } catch (error) {
      if (!(error instanceof GitHubError)) throw error;
      await this.#applyScheduled(row, error, null, outcome);
    }
  }

  async #applyScheduled(
    row: RepositoryRow,
    result: RepositorySnapshot | GitHubError | null,
    etags: Etags | null,
    outcome: SyncOutcome,
  ) {
    if (result instanceof GitHubError && result.kind === 'not_found') {
      await this.#deps.catalogue.markGone(row);
      outcome.gone += 1;
    } else if (result === null || result instanceof GitHubError) {
      outcome.skipped += 1;
    } else if (await this.#deps.catalogue.applySnapshot(row, result, etags)) {
      outcome.synced += 1;
    } else {
      outcome.gone += 1;
    }
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

function parseEtags(json: string): Etags {
  try {
    return JSON.parse(json) as Etags;
  } catch {
    return {};
  }
}
