import type { Commit } from '#shared/schemas/repositories.ts';
import type { ReleaseInfo, ReleaseRead, RepositorySnapshot } from './repository-snapshot.ts';

/**
 * The one place GitHub's shapes become the catalogue's: REST's repos/get, commits, releases
 * and tags, and the GraphQL batch's repository, each to a `RepositorySnapshot` (or its
 * `ReleaseRead`), so both API paths give the same values.
 */

/** The fields of GitHub's repos/get the catalogue reads. */
export interface RestRepository {
  id: number;
  name: string;
  full_name: string;
  private: boolean;
  html_url: string;
  description: string | null;
  stargazers_count: number;
  forks_count: number;
  open_issues_count: number;
  language: string | null;
  archived: boolean;
  default_branch: string;
  topics?: string[];
  license: { spdx_id?: string | null; name?: string | null } | null;
}

/** The fields of GitHub's release object (repos/list-releases) the catalogue reads. */
export interface RestRelease {
  tag_name: string;
  name: string | null;
  body?: string | null;
  draft: boolean;
  prerelease: boolean;
  published_at: string | null;
  html_url: string;
}

/** GitHub's tag object (repos/list-tags): a name and its commit, no date. */
export interface RestTag {
  name: string;
  commit: { sha: string };
}

export interface RestCommit {
  sha: string;
  commit: {
    author: { name?: string; date?: string } | null;
    committer: { date?: string } | null;
    message: string;
  };
  author: { login?: string } | null;
}

/** The batch query's `ReleaseFields` (graphql-batch.ts). */
export interface GraphqlRelease {
  tagName: string;
  name: string | null;
  description: string | null;
  publishedAt: string | null;
  isPrerelease: boolean;
  isDraft: boolean;
  url: string;
}

/** The batch query's answer per repository: `RepoFields` and `RepoReleases` or `RepoTags`. */
export interface GraphqlRepository {
  databaseId: number;
  nameWithOwner: string;
  name: string;
  description: string | null;
  url: string;
  isPrivate: boolean;
  isArchived: boolean;
  primaryLanguage: { name: string } | null;
  licenseInfo: { spdxId: string | null; name: string | null } | null;
  repositoryTopics: { nodes: { topic: { name: string } }[] };
  stargazerCount: number;
  forkCount: number;
  issues: { totalCount: number };
  pullRequests: { totalCount: number };
  defaultBranchRef: {
    name: string;
    target: {
      history?: {
        totalCount: number;
        nodes: {
          oid: string;
          message: string;
          committedDate: string;
          author: { name: string | null; user: { login: string } | null } | null;
        }[];
      };
    } | null;
  } | null;
  releases?: { nodes: (GraphqlRelease | null)[] } | null;
  latestRelease?: GraphqlRelease | null;
  refs?: {
    nodes: ({
      name: string;
      target: { committedDate?: string; tagger?: { date: string | null } | null } | null;
    } | null)[];
  } | null;
}

/**
 * A REST repository; its commit and contributor counts and commits are not in repos/get, so
 * they come from `previous` (the stored snapshot) until read.
 */
export function mapRestRepository(data: RestRepository, previous?: RepositorySnapshot): RepositorySnapshot {
  return {
    fullName: data.full_name,
    githubId: data.id,
    name: data.name,
    description: data.description,
    url: data.html_url,
    license: licenseLabel(data.license),
    topics: data.topics ?? [],
    stars: data.stargazers_count,
    forks: data.forks_count,
    issues: data.open_issues_count,
    language: data.language,
    archived: data.archived,
    private: data.private,
    defaultBranch: data.default_branch ?? null,
    commits: previous?.commits ?? 0,
    contributors: previous?.contributors ?? 0,
    contributorsCapped: previous?.contributorsCapped ?? false,
    lastCommit: previous?.lastCommit ?? null,
    recentCommits: previous?.recentCommits ?? [],
  };
}

/** The commit history part of a snapshot, kept as is when GitHub says the commits are unchanged. */
export function historyOf(snapshot: RepositorySnapshot) {
  const { commits, contributors, contributorsCapped, lastCommit, recentCommits } = snapshot;
  return { commits, contributors, contributorsCapped, lastCommit, recentCommits };
}

export function mapRestRelease(release: RestRelease): ReleaseInfo {
  return {
    tag: release.tag_name,
    name: release.name || null,
    notes: release.body ?? null,
    publishedAt: release.draft ? null : release.published_at,
    prerelease: release.prerelease,
    draft: release.draft,
    url: webUrl(release.html_url),
  };
}

/** REST tags have no date: each stands in for a release without one. */
export function mapRestTag(tag: RestTag, repositoryUrl: string): ReleaseInfo {
  return tagInfo(tag.name, null, repositoryUrl);
}

export function mapRestCommit(commit: RestCommit): Commit {
  return {
    sha: commit.sha,
    date: commit.commit.committer?.date ?? commit.commit.author?.date ?? '',
    author: commit.commit.author?.name || commit.author?.login || 'Unknown',
    message: commit.commit.message,
  };
}

export function mapGraphqlRepository(data: GraphqlRepository): RepositorySnapshot {
  const history = data.defaultBranchRef?.target?.history;
  const recentCommits = (history?.nodes ?? []).map((node) => ({
    sha: node.oid,
    date: node.committedDate,
    author: node.author?.name || node.author?.user?.login || 'Unknown',
    message: node.message,
  }));
  const snapshot: RepositorySnapshot = {
    fullName: data.nameWithOwner,
    githubId: data.databaseId,
    name: data.name,
    description: data.description,
    url: data.url,
    license: licenseLabel(
      data.licenseInfo ? { spdx_id: data.licenseInfo.spdxId, name: data.licenseInfo.name } : null,
    ),
    topics: data.repositoryTopics.nodes.map((node) => node.topic.name),
    stars: data.stargazerCount,
    forks: data.forkCount,
    // Issues plus pull requests, so both API paths give the same number.
    issues: data.issues.totalCount + data.pullRequests.totalCount,
    language: data.primaryLanguage?.name ?? null,
    archived: data.isArchived,
    private: data.isPrivate,
    defaultBranch: data.defaultBranchRef?.name ?? null,
    commits: history?.totalCount ?? 0,
    // GraphQL can't count contributors: the sync engine counts them over REST within the pace.
    contributors: null,
    contributorsCapped: false,
    lastCommit: recentCommits[0]?.date ?? null,
    recentCommits,
  };
  const releases = graphqlReleasesOf(data);
  return releases ? { ...snapshot, releases } : snapshot;
}

function mapGraphqlRelease(release: GraphqlRelease): ReleaseInfo {
  return {
    tag: release.tagName,
    name: release.name || null,
    notes: release.description,
    publishedAt: release.isDraft ? null : release.publishedAt,
    prerelease: release.isPrerelease,
    draft: release.isDraft,
    url: webUrl(release.url),
  };
}

/** The releases part of a GraphQL answer: the releases, or for a project without any its tags. */
function graphqlReleasesOf(data: GraphqlRepository): ReleaseRead | undefined {
  if (data.releases) {
    return {
      releases: data.releases.nodes.flatMap((node) => (node ? [mapGraphqlRelease(node)] : [])),
      tags: null,
    };
  }
  if (data.latestRelease)
    return { releases: [mapGraphqlRelease(data.latestRelease)], tags: null, latestOnly: true };
  if (data.refs) {
    const tags = data.refs.nodes.flatMap((node) =>
      node
        ? [tagInfo(node.name, node.target?.committedDate ?? node.target?.tagger?.date ?? null, data.url)]
        : [],
    );
    return { releases: [], tags };
  }
  return undefined;
}

/** Only web addresses are kept as links (a GitHub Enterprise host is fine; `javascript:` is not). */
export function webUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : null;
  } catch {
    return null;
  }
}

/** A tag as a release stand-in: no title or notes, its commit's date when GitHub gave one. */
export function tagInfo(name: string, date: string | null, repositoryUrl: string): ReleaseInfo {
  return {
    tag: name,
    name: null,
    notes: null,
    publishedAt: date,
    prerelease: false,
    draft: false,
    url: tagUrl(repositoryUrl, name),
  };
}

/** A tag's page: `<repository>/tree/<tag>`, each path segment escaped. */
export function tagUrl(repositoryUrl: string, tag: string): string | null {
  const base = webUrl(repositoryUrl);
  return base ? `${base.replace(/\/$/, '')}/tree/${tag.split('/').map(encodeURIComponent).join('/')}` : null;
}

/** GitHub's licence as the catalogue stores it: the SPDX id, the name for NOASSERTION, or "". */
export function licenseLabel(
  license: { spdx_id?: string | null; name?: string | null } | null | undefined,
): string {
  if (!license) return '';
  if (license.spdx_id && license.spdx_id !== 'NOASSERTION') return license.spdx_id;
  return license.name ?? '';
}
