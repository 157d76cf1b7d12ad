import type { Commit } from '#shared/schemas/repositories.ts';
import { GitHubError, MESSAGES, rateLimitMessage } from './github-error.ts';
import { countFromLink } from './link-header.ts';
import type { QuotaBook } from './quota-book.ts';
import {
  historyOf,
  mapRestCommit,
  mapRestRelease,
  mapRestRepository,
  mapRestTag,
  type RestCommit,
  type RestRelease,
  type RestRepository,
  type RestTag,
} from './repository-mapper.ts';
import {
  CAPPED_CONTRIBUTORS,
  RELEASES_READ,
  type ReleaseInfo,
  type ReleaseRead,
  type RepositorySnapshot,
} from './repository-snapshot.ts';
import {
  EmptyRepository,
  headerString,
  type RestAnswer,
  type RestCaller,
  splitFullName,
  TooLargeToCount,
} from './rest-call.ts';
import type { PaceOption } from './transport.ts';

/** Stored per repository: GitHub's ETag of each list the sync reads, for conditional requests. */
export interface Etags {
  repo?: string;
  commits?: string;
  commitCount?: string;
  contributors?: string;
  /** The newest releases (`/releases?per_page=5`). */
  releases?: string;
  /** The newest tags, kept only while the project has no published release. */
  tags?: string;
}

/** A contributor count, or "unchanged" for a conditional read GitHub answered 304. */
export type ContributorCount =
  | { notModified?: undefined; contributors: number; contributorsCapped: boolean; etag?: string }
  | { notModified: true };

/** A request needs at most this many calls: repos/get, commits, commit count, contributors. */
export const FULL_FETCH_COST = 4;

type Names = { owner: string; repo: string };

/**
 * The REST reads (docs/architecture.md#what-one-repository-costs): a repository with its
 * commits, counts and releases, conditional on stored ETags; the newest commits; a contributor
 * count; the names of a user's stars or an owner's repositories.
 */
export class RestClient {
  readonly #rest: RestCaller;
  readonly #quotaBook: QuotaBook;

  constructor(rest: RestCaller, quotaBook: QuotaBook) {
    this.#rest = rest;
    this.#quotaBook = quotaBook;
  }

  /**
   * Reads a repository over REST. With `previous` (the stored snapshot and ETags), unchanged
   * lists answer 304 and their stored values are kept; an unchanged newest-commits list means
   * the commit and contributor counts can't have moved, so they are not asked again.
   */
  async fetchRepository(
    fullName: string,
    token: string | null,
    previous?: { snapshot: RepositorySnapshot; etags: Etags },
    options: { allowPrivate?: boolean; readReleases?: boolean } & PaceOption = {},
  ): Promise<{ snapshot: RepositorySnapshot; etags: Etags }> {
    const { deadline } = options;
    const resetAt = this.#quotaBook.shortfall(token, FULL_FETCH_COST);
    if (resetAt) throw new GitHubError('rate_limited', rateLimitMessage(resetAt, token !== null), resetAt);
    const [owner, repo] = splitFullName(fullName);
    const etags: Etags = { ...previous?.etags };

    const repoAnswer = await this.#rest.call<RestRepository>({
      token,
      route: 'GET /repos/{owner}/{repo}',
      params: { owner, repo },
      etag: previous ? etags.repo : undefined,
      subject: fullName,
      deadline,
    });
    let base: RepositorySnapshot;
    if (repoAnswer.status === 304 && previous) {
      base = previous.snapshot;
    } else {
      base = mapRestRepository(repoAnswer.data, previous?.snapshot);
      etags.repo = headerString(repoAnswer.headers.etag);
    }
    // A private repository read with a token that may not add it: stop before spending more.
    if (base.private && options.allowPrivate === false)
      throw new GitHubError('not_found', MESSAGES.notFound(fullName));
    // Follow a rename: the answer names the repository as GitHub spells it now.
    const [currentOwner, currentRepo] = splitFullName(base.fullName);
    const names = { owner: currentOwner, repo: currentRepo };
    const renamed =
      previous !== undefined && base.fullName.toLowerCase() !== previous.snapshot.fullName.toLowerCase();

    const recent = await this.#recentCommits(
      token,
      names,
      renamed ? undefined : previous ? etags.commits : undefined,
      fullName,
      10,
      deadline,
    );
    // Releases are read the first time, and then only when the repository or its newest commits
    // changed (publishing a release pushes its tag, which moves the repository's `pushed_at`):
    // an unchanged repository costs exactly what it did. An anonymous add reads none (the
    // import budget); its first sync does.
    const firstRead = etags.releases === undefined && etags.tags === undefined;
    const readReleases =
      options.readReleases ??
      (token === null && previous === undefined
        ? false
        : firstRead || repoAnswer.status !== 304 || recent.status !== 304);
    const releases = async () =>
      readReleases ? this.#readReleases(token, names, etags, base.url, fullName, deadline) : undefined;
    if (recent.status === 304 && previous) {
      const snapshot: RepositorySnapshot = { ...base, ...historyOf(previous.snapshot) };
      const read = await releases();
      return { snapshot: read ? { ...snapshot, releases: read } : snapshot, etags };
    }
    etags.commits = recent.etag;
    const history = {
      recentCommits: recent.commits,
      lastCommit: recent.commits[0]?.date ?? null,
      commits: recent.commits.length,
    };
    if (recent.hasMore) {
      const count = await this.#rest.call<unknown[]>({
        token,
        route: 'GET /repos/{owner}/{repo}/commits',
        params: { ...names, per_page: 1 },
        subject: fullName,
        deadline,
      });
      history.commits = countFromLink(headerString(count.headers.link), count.data.length);
    }
    const counted = await this.#contributorCount(token, names, fullName, deadline);
    if (counted.notModified) throw new Error('unconditional contributor count answered 304');
    const { contributors, contributorsCapped } = counted;
    if (counted.etag) etags.contributors = counted.etag;
    const snapshot: RepositorySnapshot = { ...base, ...history, contributors, contributorsCapped };
    const read = await releases();
    return { snapshot: read ? { ...snapshot, releases: read } : snapshot, etags };
  }

  /**
   * The newest releases, conditional on the stored ETag; the newest tags only for a project
   * with no published release (`etags.tags` is kept exactly while that is so). Both unchanged:
   * undefined, nothing to look at.
   */
  async #readReleases(
    token: string | null,
    names: Names,
    etags: Etags,
    repositoryUrl: string,
    fullName: string,
    deadline?: number,
  ): Promise<ReleaseRead | undefined> {
    let listed: RestAnswer<RestRelease[]>;
    try {
      listed = await this.#rest.call<RestRelease[]>({
        token,
        route: 'GET /repos/{owner}/{repo}/releases',
        params: { ...names, per_page: RELEASES_READ },
        etag: etags.releases,
        subject: fullName,
        deadline,
      });
    } catch (error) {
      // The repository was read: a refusal of its releases alone waits for the next sync.
      if (error instanceof GitHubError && (error.kind === 'forbidden' || error.kind === 'unreachable'))
        return undefined;
      throw error;
    }
    let releases: ReleaseInfo[] | null = null;
    if (listed.status !== 304) {
      etags.releases = headerString(listed.headers.etag);
      releases = (Array.isArray(listed.data) ? listed.data : []).map(mapRestRelease);
      if (releases.some((release) => !release.draft)) {
        delete etags.tags;
        return { releases, tags: null };
      }
    } else if (etags.tags === undefined) {
      return undefined;
    }
    // No published release: the project's tags stand in for them.
    const tagged = await this.#rest.call<RestTag[]>({
      token,
      route: 'GET /repos/{owner}/{repo}/tags',
      params: { ...names, per_page: RELEASES_READ },
      etag: etags.tags,
      subject: fullName,
      deadline,
    });
    if (tagged.status === 304) return releases ? { releases, tags: null } : undefined;
    // An empty list has no ETag worth keeping, but the mark says "follow tags" all the same.
    etags.tags = headerString(tagged.headers.etag) ?? '';
    const tags = (Array.isArray(tagged.data) ? tagged.data : []).map((tag) => mapRestTag(tag, repositoryUrl));
    return { releases: releases ?? [], tags };
  }

  /**
   * The full names of a user's stars, or of a user's or organisation's repositories, GitHub's
   * order, at most `max` (100 a page). An organisation name is tried first, then a user's.
   */
  async listRepositoryNames(
    source: 'starred' | 'owner',
    login: string,
    token: string | null,
    max: number,
  ): Promise<string[]> {
    const routes =
      source === 'starred'
        ? ['GET /users/{login}/starred']
        : ['GET /orgs/{login}/repos', 'GET /users/{login}/repos'];
    for (const [index, route] of routes.entries()) {
      try {
        return await this.#collectNames(route, login, token, max);
      } catch (error) {
        const lastTry = index === routes.length - 1;
        if (!(error instanceof GitHubError) || error.kind !== 'not_found' || lastTry) {
          if (error instanceof GitHubError && error.kind === 'not_found') {
            throw new GitHubError('not_found', `GitHub has no user or organisation named ${login}.`);
          }
          throw error;
        }
      }
    }
    return [];
  }

  async #collectNames(route: string, login: string, token: string | null, max: number): Promise<string[]> {
    const names: string[] = [];
    for (let page = 1; names.length < max; page++) {
      const answer = await this.#rest.call<{ full_name: string }[]>({
        token,
        route,
        params: { login, per_page: 100, page },
        subject: login,
      });
      names.push(...answer.data.map((repository) => repository.full_name));
      const last = countFromLink(headerString(answer.headers.link), page);
      if (page >= last || answer.data.length === 0) break;
    }
    return names.slice(0, max);
  }

  /** The newest commits of the default branch, for the detail screen (`?limit=10`). */
  async listCommits(fullName: string, token: string | null, limit: number): Promise<Commit[]> {
    const [owner, repo] = splitFullName(fullName);
    const recent = await this.#recentCommits(token, { owner, repo }, undefined, fullName, limit);
    return recent.commits;
  }

  async #recentCommits(
    token: string | null,
    names: Names,
    etag: string | undefined,
    fullName: string,
    limit = 10,
    deadline?: number,
  ): Promise<{ status: number; commits: Commit[]; hasMore: boolean; etag?: string }> {
    try {
      const answer = await this.#rest.call<RestCommit[]>({
        token,
        route: 'GET /repos/{owner}/{repo}/commits',
        params: { ...names, per_page: limit },
        etag,
        subject: fullName,
        deadline,
      });
      if (answer.status === 304) return { status: 304, commits: [], hasMore: false };
      return {
        status: answer.status,
        commits: answer.data.map(mapRestCommit),
        hasMore: Boolean(headerString(answer.headers.link)?.includes('rel="last"')),
        etag: headerString(answer.headers.etag),
      };
    } catch (error) {
      // An empty repository has no history: 409 "Git Repository is empty."
      if (error instanceof EmptyRepository) return { status: 200, commits: [], hasMore: false };
      throw error;
    }
  }

  /**
   * The contributor count alone (the engine fills it after a GraphQL read, which has none);
   * with the stored `etag` it is conditional, and an unchanged list answers `{ notModified: true }`.
   */
  contributorCount(
    fullName: string,
    token: string | null,
    options: PaceOption & { etag?: string } = {},
  ): Promise<ContributorCount> {
    const [owner, repo] = splitFullName(fullName);
    return this.#contributorCount(token, { owner, repo }, fullName, options.deadline, options.etag);
  }

  /**
   * The top contributor's share of the contributions on the first page of contributors (the 100
   * who contributed most, GitHub's order), for the health signals; conditional on the stored
   * `etag` (`{ notModified: true }`). Null when GitHub can't list them (an empty repository, or
   * one too large to list).
   */
  async topContributorShare(
    fullName: string,
    token: string | null,
    options: PaceOption & { etag?: string } = {},
  ): Promise<{ notModified: true } | { share: number | null; etag?: string }> {
    const [owner, repo] = splitFullName(fullName);
    try {
      const answer = await this.#rest.call<{ contributions?: number }[] | undefined>({
        token,
        route: 'GET /repos/{owner}/{repo}/contributors',
        params: { owner, repo, per_page: 100 },
        etag: options.etag,
        subject: fullName,
        deadline: options.deadline,
      });
      if (answer.status === 304) return { notModified: true };
      const etag = headerString(answer.headers.etag);
      const counts = Array.isArray(answer.data) ? answer.data.map((entry) => entry.contributions ?? 0) : [];
      const total = counts.reduce((sum, count) => sum + count, 0);
      return { share: total > 0 ? Math.max(...counts) / total : null, etag };
    } catch (error) {
      if (error instanceof TooLargeToCount || error instanceof EmptyRepository) return { share: null };
      throw error;
    }
  }

  async #contributorCount(
    token: string | null,
    names: Names,
    fullName: string,
    deadline?: number,
    etag?: string,
  ): Promise<ContributorCount> {
    try {
      const answer = await this.#rest.call<unknown[] | undefined>({
        token,
        route: 'GET /repos/{owner}/{repo}/contributors',
        params: { ...names, per_page: 1, anon: '1' },
        etag,
        subject: fullName,
        deadline,
      });
      if (answer.status === 304) return { notModified: true };
      const answeredEtag = headerString(answer.headers.etag);
      // 204 No Content: an empty repository has no contributors.
      if (answer.status === 204 || !Array.isArray(answer.data))
        return { contributors: 0, contributorsCapped: false, etag: answeredEtag };
      return {
        contributors: countFromLink(headerString(answer.headers.link), answer.data.length),
        contributorsCapped: false,
        etag: answeredEtag,
      };
    } catch (error) {
      if (error instanceof TooLargeToCount)
        return { contributors: CAPPED_CONTRIBUTORS, contributorsCapped: true };
      if (error instanceof EmptyRepository) return { contributors: 0, contributorsCapped: false };
      throw error;
    }
  }
}
