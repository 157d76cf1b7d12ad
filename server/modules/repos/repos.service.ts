import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { normalizeTags, toFullName } from '../../../shared/repository-input.ts';
import {
  BATCH_MAX_ITEMS,
  type BatchResultItem,
  COMPARED_FIELDS,
  type Commit,
  type ComparedField,
  type CompareResponse,
  INVALID_REPOSITORY_FORMAT,
  type Repository,
  type RepositorySummary,
} from '../../../shared/schemas/repositories.ts';
import type { AppConfig } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import { type Etags, FULL_FETCH_COST, type GitHubClient } from '../../github/github-client.ts';
import { GitHubError } from '../../github/github-error.ts';
import { fetchRepositoriesWithGraphql, GRAPHQL_BATCH_SIZE } from '../../github/graphql-batch.ts';
import type { RepositorySnapshot } from '../../github/repository-snapshot.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import {
  addedMessage,
  type NotificationResult,
  sendSlackMessage,
} from '../../notifications/slack-notifier.ts';
import type { MeService } from '../me/me.service.ts';
import { presentRepository, presentSummary, rowFieldsOfSnapshot, snapshotOfRow } from './repo-presenter.ts';
import type { RepositoryRow, Viewer } from './repos.queries.ts';
import * as queries from './repos.queries.ts';

export const REPOSITORY_NOT_FOUND = 'Repository not found in database';
/** Stored commits younger than this are served without asking GitHub again. */
const COMMITS_FRESH_MS = 15 * 60 * 1000;

export interface ReposDeps {
  db: Kysely<Database>;
  github: GitHubClient;
  me: MeService;
  clock: Clock;
  config: AppConfig;
  log: FastifyBaseLogger;
}

export interface AddInput {
  url?: string;
  id?: string;
  tags?: string;
  notify_slack?: boolean;
}

/**
 * The team catalogue (DESIGN §1): adding from GitHub, syncing, curation, comments, versions
 * and history, with private repositories visible only to members who proved access.
 */
export class ReposService {
  readonly #deps: ReposDeps;

  constructor(deps: ReposDeps) {
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
    return this.#present(row.id);
  }

  async metrics(viewer: Viewer, fullName: string) {
    const row = await this.resolve(viewer, fullName);
    return queries.listMetrics(this.#deps.db, row.id);
  }

  async #present(id: number): Promise<Repository> {
    const { db } = this.#deps;
    const row = await queries.findRepositoryWithCounts(db, id);
    if (!row) throw notFound(REPOSITORY_NOT_FOUND);
    const [comments, versions] = await Promise.all([
      queries.listComments(db, id),
      queries.listVersions(db, id),
    ]);
    return presentRepository(row, { comments, versions });
  }

  async #canSee(row: RepositoryRow, viewer: Viewer): Promise<boolean> {
    return (
      row.private === 0 || viewer.is_admin || (await queries.hasAccess(this.#deps.db, row.id, viewer.id))
    );
  }

  // ---- adding --------------------------------------------------------------------------------

  /** POST /repositories/: one line, one Slack message. */
  async add(
    viewer: Viewer,
    input: AddInput,
  ): Promise<{ repository: Repository; notification?: NotificationResult }> {
    const fullName = toFullName(input);
    if (!fullName)
      throw badRequest(INVALID_REPOSITORY_FORMAT, {
        [input.url !== undefined ? 'url' : 'id']: INVALID_REPOSITORY_FORMAT,
      });
    const personal = await this.#personalToken(viewer.id);
    const row = await this.#addOne(viewer, fullName, input.tags, personal);
    const repository = await this.#present(row.id);
    if (!input.notify_slack) return { repository };
    const notification = await this.#notify(viewer, [
      { id: repository.id, url: repository.url, stars: repository.stars },
    ]);
    return { repository, notification };
  }

  /**
   * POST /repositories/batch: items one at a time, in order, each answered as soon as it is
   * done. With a token the upcoming items are read 25 at a time over GraphQL first.
   */
  async *addBatch(
    viewer: Viewer,
    items: ({ url: string } | { id: string })[],
    tags: string | undefined,
    notifySlack: boolean,
  ): AsyncGenerator<BatchResultItem> {
    const personal = await this.#personalToken(viewer.id);
    const token = this.#deps.github.tokenFor(personal);
    const parsed = items.map((item, index) => ({
      index,
      input: 'url' in item ? item.url : item.id,
      fullName: toFullName(item),
    }));
    const prefetched = new Map<string, RepositorySnapshot | GitHubError>();
    const examined = new Set<string>();
    const added: { id: string; url: string; stars: number }[] = [];
    for (const item of parsed) {
      if (token && item.fullName && !examined.has(item.fullName.toLowerCase())) {
        await this.#prefetch(token, parsed.slice(item.index), prefetched, examined);
      }
      try {
        if (!item.fullName) throw badRequest(INVALID_REPOSITORY_FORMAT);
        const row = await this.#addOne(
          viewer,
          item.fullName,
          tags,
          personal,
          prefetched.get(item.fullName.toLowerCase()),
        );
        const repository = presentSummary({ ...row, comment_count: 0, version_count: 0 });
        added.push({ id: repository.id, url: repository.url, stars: repository.stars });
        yield { index: item.index, input: item.input, ok: true, repository };
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        yield { index: item.index, input: item.input, ok: false, error: error.message };
      }
    }
    if (notifySlack && added.length > 0) await this.#notify(viewer, added);
  }

  /** The names an import would add: a user's stars, or an owner's repositories (at most a batch). */
  async listImportNames(viewer: Viewer, source: 'starred' | 'owner', login: string): Promise<string[]> {
    const personal = await this.#personalToken(viewer.id);
    try {
      return await this.#deps.github.listRepositoryNames(
        source,
        login,
        this.#deps.github.tokenFor(personal),
        BATCH_MAX_ITEMS,
      );
    } catch (error) {
      throw error instanceof GitHubError ? toAppError(error) : error;
    }
  }

  /** Reads the next window of not-yet-catalogued names over GraphQL (one query per 25). */
  async #prefetch(
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
      // Already catalogued: answered from the database, no GitHub call needed.
      if (await queries.findRepositoryByName(this.#deps.db, item.fullName)) continue;
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
  ): Promise<RepositoryRow> {
    const { db, github } = this.#deps;
    const existing = await queries.findRepositoryByName(db, fullName);
    if (existing) return this.#alreadyCatalogued(viewer, existing, personal);

    const token = github.tokenFor(personal);
    let snapshot: RepositorySnapshot;
    let etags: Etags = {};
    if (prefetched instanceof GitHubError) throw toAppError(prefetched);
    if (prefetched) {
      snapshot = prefetched;
    } else {
      const fetched = await this.#fetch(fullName, token, {
        allowPrivate: personal !== null && token === personal,
      });
      snapshot = fetched.snapshot;
      etags = fetched.etags;
    }
    // A private repository joins the catalogue only through the member's own token (DESIGN §1).
    if (snapshot.private && (!personal || token !== personal)) throw notFound(notOnGitHub(fullName));
    const sameRepository = await queries.findRepositoryByGithubId(db, snapshot.githubId);
    if (sameRepository) return this.#alreadyCatalogued(viewer, sameRepository, personal);

    const now = this.#deps.clock.now().toISOString();
    let row: RepositoryRow;
    try {
      row = await queries.insertRepository(db, {
        ...rowFieldsOfSnapshot(snapshot),
        user_id: viewer.id,
        tags: normalizeTags(tags),
        notes: '',
        gone: 0,
        last_synced: now,
        etags: JSON.stringify(etags),
        created_at: now,
        updated_at: now,
      });
    } catch (error) {
      // Two members adding the same repository at once: the second sees it as catalogued.
      if (/unique|duplicate/i.test(String(error)))
        throw conflict(`${snapshot.fullName} is already in the catalogue.`);
      throw error;
    }
    if (snapshot.private) await queries.grantAccess(db, row.id, viewer.id, now);
    // Added under a former name (GitHub answered 301): that name keeps resolving too.
    if (snapshot.fullName.toLowerCase() !== fullName.toLowerCase())
      await queries.addAlias(db, row.id, fullName);
    await this.#recordMetrics(row);
    return row;
  }

  /** 409 for a visible repository; a hidden private one first checks the member's own token. */
  async #alreadyCatalogued(viewer: Viewer, row: RepositoryRow, personal: string | null): Promise<never> {
    if (await this.#canSee(row, viewer)) throw conflict(`${row.full_name} is already in the catalogue.`);
    if (!personal) throw notFound(notOnGitHub(row.full_name));
    const { snapshot } = await this.#fetch(row.full_name, personal);
    if (snapshot.githubId !== row.github_id) throw notFound(notOnGitHub(row.full_name));
    await queries.grantAccess(this.#deps.db, row.id, viewer.id, this.#deps.clock.now().toISOString());
    throw conflict(`${row.full_name} is already in the catalogue.`);
  }

  // ---- syncing -------------------------------------------------------------------------------

  /** PUT /repositories/{id}: refresh from GitHub; a failure keeps the stored data. */
  async sync(viewer: Viewer, fullName: string): Promise<Repository> {
    const row = await this.resolve(viewer, fullName);
    const personal = await this.#personalToken(viewer.id);
    if (row.private === 1 && !personal) {
      throw badRequest(
        'Syncing a private repository needs your own GitHub token: add it in Settings → GitHub Access.',
      );
    }
    const token = row.private === 1 ? personal : this.#deps.github.tokenFor(personal);
    let fetched: { snapshot: RepositorySnapshot; etags: Etags };
    try {
      fetched = await this.#deps.github.fetchRepository(row.full_name, token, {
        snapshot: snapshotOfRow(row),
        etags: parseEtags(row.etags),
      });
    } catch (error) {
      if (error instanceof GitHubError && error.kind === 'not_found') {
        await this.#markGone(row);
        throw notFound(
          `${row.full_name} no longer exists on GitHub, or can no longer be read. Its stored data is kept and marked as gone.`,
        );
      }
      throw error instanceof GitHubError ? toAppError(error) : error;
    }
    if (!(await this.#applySnapshot(row, fetched.snapshot, fetched.etags))) {
      throw notFound(
        `${row.full_name} now names a different repository on GitHub. The stored data is kept and marked as gone.`,
      );
    }
    return this.#present(row.id);
  }

  /**
   * Writes what GitHub said about a stored repository, follows a rename and records the day's
   * metrics. False (and the row marked gone) when the name now belongs to another repository.
   */
  async #applySnapshot(
    row: RepositoryRow,
    snapshot: RepositorySnapshot,
    etags: Etags | null,
  ): Promise<boolean> {
    const { db, clock } = this.#deps;
    if (snapshot.githubId !== row.github_id) {
      await this.#markGone(row);
      return false;
    }
    // Renamed or transferred: the id follows GitHub, the old name keeps resolving.
    if (snapshot.fullName !== row.full_name) await queries.addAlias(db, row.id, row.full_name);
    const now = clock.now().toISOString();
    const updated = await queries.updateRepository(db, row.id, {
      ...rowFieldsOfSnapshot(snapshot),
      gone: 0,
      last_synced: now,
      // A GraphQL read has no ETags: keep the stored ones, they still describe the REST lists.
      ...(etags ? { etags: JSON.stringify(etags) } : {}),
      updated_at: now,
    });
    await this.#recordMetrics(updated);
    return true;
  }

  async #markGone(row: RepositoryRow): Promise<void> {
    await queries.updateRepository(this.#deps.db, row.id, {
      gone: 1,
      updated_at: this.#deps.clock.now().toISOString(),
    });
  }

  /**
   * The scheduled refresh: every repository not synced since `cutoff`, oldest first, spending
   * at most `budget` of the shared quota. Public repositories go through the server token (25
   * per GraphQL query) or anonymously over REST with ETags; private ones through the token of
   * a member who proved access. Stops early, without failing, when the quota runs low.
   */
  async syncStale(cutoff: Date, budget = 0.5): Promise<{ synced: number; gone: number; skipped: number }> {
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
        await this.#syncOneScheduled(row, null, outcome);
      }
    }
    for (const row of rows.filter((candidate) => candidate.private === 1)) {
      const token = await this.#tokenWithAccess(row);
      if (!token || !github.canSpend(token, FULL_FETCH_COST, budget)) {
        outcome.skipped += 1;
        continue;
      }
      await this.#syncOneScheduled(row, token, outcome);
    }
    return outcome;
  }

  async #syncOneScheduled(
    row: RepositoryRow,
    token: string | null,
    outcome: { synced: number; gone: number; skipped: number },
  ) {
    try {
      const fetched = await this.#deps.github.fetchRepository(row.full_name, token, {
        snapshot: snapshotOfRow(row),
        etags: parseEtags(row.etags),
      });
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
    outcome: { synced: number; gone: number; skipped: number },
  ) {
    if (result instanceof GitHubError && result.kind === 'not_found') {
      await this.#markGone(row);
      outcome.gone += 1;
    } else if (result === null || result instanceof GitHubError) {
      outcome.skipped += 1;
    } else if (await this.#applySnapshot(row, result, etags)) {
      outcome.synced += 1;
    } else {
      outcome.gone += 1;
    }
  }

  /** The personal token of a member who proved access to a private repository (the adder first). */
  async #tokenWithAccess(row: RepositoryRow): Promise<string | null> {
    const members = await queries.listAccessHolders(this.#deps.db, row.id, row.user_id);
    for (const userId of members) {
      const token = await this.#personalToken(userId);
      if (token) return token;
    }
    return null;
  }

  async #fetch(fullName: string, token: string | null, options: { allowPrivate?: boolean } = {}) {
    try {
      return await this.#deps.github.fetchRepository(fullName, token, undefined, options);
    } catch (error) {
      throw error instanceof GitHubError ? toAppError(error) : error;
    }
  }

  async #recordMetrics(row: RepositoryRow) {
    await queries.upsertDailyMetrics(this.#deps.db, {
      repository_id: row.id,
      day: this.#deps.clock.now().toISOString().slice(0, 10),
      stars: row.stars,
      forks: row.forks,
      issues: row.issues,
      commits: row.commits,
      contributors: row.contributors,
    });
  }

  // ---- curation ------------------------------------------------------------------------------

  async remove(viewer: Viewer, fullName: string): Promise<void> {
    const row = await this.resolve(viewer, fullName);
    if (!viewer.is_admin && row.user_id !== viewer.id) {
      throw forbidden('Only the member who added this repository or an administrator can delete it.');
    }
    await queries.deleteRepository(this.#deps.db, row.id);
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
      updated_at: this.#deps.clock.now().toISOString(),
    });
    return this.#present(row.id);
  }

  async addComment(viewer: Viewer, fullName: string, comment: string, author: string) {
    const row = await this.resolve(viewer, fullName);
    return queries.insertComment(this.#deps.db, {
      repository_id: row.id,
      user_id: viewer.id,
      author,
      comment,
      created_at: this.#deps.clock.now().toISOString(),
    });
  }

  async addVersion(
    viewer: Viewer,
    fullName: string,
    version: { version_number: string; release_date: string | null; description: string | null },
  ) {
    const row = await this.resolve(viewer, fullName);
    return queries.insertVersion(this.#deps.db, {
      repository_id: row.id,
      user_id: viewer.id,
      ...version,
      snapshot: JSON.stringify(comparedValues(row)),
      created_at: this.#deps.clock.now().toISOString(),
    });
  }

  async listVersions(viewer: Viewer, fullName: string) {
    const row = await this.resolve(viewer, fullName);
    return queries.listVersions(this.#deps.db, row.id);
  }

  /** GET /api/compare-versions: the eight fields, '-old'/'+new' lines (SPEC §3). */
  async compareVersions(
    viewer: Viewer,
    fullName: string,
    firstId: number,
    secondId: number,
  ): Promise<CompareResponse> {
    if (firstId === secondId) throw badRequest('Please select two different versions to compare.');
    const row = await this.resolve(viewer, fullName);
    const [first, second] = await Promise.all([
      queries.findVersionSnapshot(this.#deps.db, row.id, firstId),
      queries.findVersionSnapshot(this.#deps.db, row.id, secondId),
    ]);
    if (!first || !second) throw notFound('Version not found for this repository');
    return { differences: compareSnapshots(JSON.parse(first.snapshot), JSON.parse(second.snapshot)) };
  }

  // ---- commits -------------------------------------------------------------------------------

  /** Recent commits: fresh stored ones as they are, else from GitHub (stored ones if it fails). */
  async commits(viewer: Viewer, fullName: string, limit: number): Promise<Commit[]> {
    const row = await this.resolve(viewer, fullName);
    const stored = JSON.parse(row.recent_commits) as Commit[];
    const age = row.last_synced
      ? this.#deps.clock.now().getTime() - Date.parse(row.last_synced)
      : Number.POSITIVE_INFINITY;
    if (age < COMMITS_FRESH_MS && (stored.length >= limit || stored.length < 10))
      return stored.slice(0, limit);
    const personal = await this.#personalToken(viewer.id);
    const token = row.private === 1 ? personal : this.#deps.github.tokenFor(personal);
    try {
      return await this.#deps.github.listCommits(row.full_name, token, limit);
    } catch (error) {
      if (stored.length > 0) return stored.slice(0, limit);
      throw error instanceof GitHubError ? toAppError(error) : error;
    }
  }

  // ---- helpers -------------------------------------------------------------------------------

  async #personalToken(userId: number): Promise<string | null> {
    try {
      return await this.#deps.me.readGitHubToken(userId);
    } catch (error) {
      // A token sealed under another SECRET_KEY can't be read: act as if there were none.
      this.#deps.log.error({ err: error, user_id: userId }, 'stored GitHub token could not be decrypted');
      return null;
    }
  }

  async #notify(
    viewer: Viewer,
    repositories: { id: string; url: string; stars: number }[],
  ): Promise<NotificationResult> {
    let webhook: string | null;
    try {
      webhook = await this.#deps.me.readSlackWebhook(viewer.id);
    } catch {
      webhook = null;
    }
    if (!webhook) return { sent: false, error: 'No Slack webhook is configured in Settings.' };
    const user = await this.#deps.me.getUser(viewer.id);
    const result = await sendSlackMessage(
      webhook,
      addedMessage(this.#deps.config.appName, `${user.first_name} ${user.last_name}`, repositories),
      this.#deps.config.webhookAllowedHosts,
    );
    if (!result.sent)
      this.#deps.log.warn({ user_id: viewer.id, error: result.error }, 'Slack notification failed');
    return result;
  }
}

function notOnGitHub(fullName: string): string {
  return `Repository ${fullName} was not found on GitHub (it may be private: add a personal GitHub token that can read it).`;
}

/** GitHub's failures as API errors the user can act on (DESIGN §3). */
export function toAppError(error: GitHubError): AppError {
  switch (error.kind) {
    case 'not_found':
      return notFound(error.message);
    case 'rate_limited': {
      const retryAfter = error.resetAt
        ? Math.max(1, Math.ceil((error.resetAt.getTime() - Date.now()) / 1000))
        : 60;
      return new AppError(429, 'rate_limited', error.message, { retryAfter });
    }
    case 'bad_credentials':
    case 'forbidden':
      return new AppError(400, 'bad_request', error.message);
    default:
      return new AppError(502, 'bad_gateway', error.message);
  }
}

function parseEtags(json: string): Etags {
  try {
    return JSON.parse(json) as Etags;
  } catch {
    return {};
  }
}

type Compared = Record<ComparedField, string | number | null>;

export function comparedValues(row: RepositoryRow): Compared {
  return {
    description: row.description,
    stars: row.stars,
    forks: row.forks,
    commits: row.commits,
    issues: row.issues,
    contributors: row.contributors_capped === 1 ? `${row.contributors}+` : row.contributors,
    license: row.license,
    topics: row.topics,
  };
}

/** Numbers and text: '-old', '+new'. Licence and topics: '-' removed and '+' added items. */
export function compareSnapshots(before: Compared, after: Compared): CompareResponse['differences'] {
  const differences = {} as CompareResponse['differences'];
  for (const field of COMPARED_FIELDS) {
    const old = before[field] ?? null;
    const next = after[field] ?? null;
    const changed = String(old ?? '') !== String(next ?? '');
    let diff: string[] = [];
    if (changed && field === 'topics') {
      const oldSet = splitList(old);
      const newSet = splitList(next);
      diff = [
        ...oldSet.filter((topic) => !newSet.includes(topic)).map((topic) => `-${topic}`),
        ...newSet.filter((topic) => !oldSet.includes(topic)).map((topic) => `+${topic}`),
      ];
    } else if (changed) {
      diff = [`-${old ?? ''}`, `+${next ?? ''}`];
    }
    differences[field] = { changed, diff, old, new: next };
  }
  return differences;
}

function splitList(value: string | number | null): string[] {
  return String(value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}
