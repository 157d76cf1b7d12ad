import type { DoubleRepository } from './catalogue.ts';
import type { DoubleCommit, DoubleContributor } from './history.ts';
import type { DoubleAccount } from './people.ts';

/**
 * GitHub REST JSON for the double's data: field sets and order copied from recorded responses
 * (@octokit/fixtures get-repository, rename-repository) and the OpenAPI schemas
 * (full-repository, commit, contributor, rate-limit-overview). API URLs point at the double,
 * so a client that follows them stays on it; html_url values point at github.com as GitHub's do.
 */

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

const WEB_URL = 'https://github.com';

/** GitHub's legacy (v1) global node ids: base64 of "<length of type>:<Type><id>". */
export function legacyNodeId(type: string, id: number | string): string {
  return Buffer.from(`0${type.length}:${type}${id}`).toString('base64');
}

export function restUser(account: DoubleAccount, baseUrl: string): JsonObject {
  const url = `${baseUrl}/users/${account.login}`;
  return {
    login: account.login,
    id: account.id,
    node_id: legacyNodeId(account.type, account.id),
    avatar_url: `https://avatars.githubusercontent.com/u/${account.id}?v=4`,
    gravatar_id: '',
    url,
    html_url:
      account.type === 'Bot'
        ? `${WEB_URL}/apps/${account.login.replace('[bot]', '')}`
        : `${WEB_URL}/${account.login}`,
    followers_url: `${url}/followers`,
    following_url: `${url}/following{/other_user}`,
    gists_url: `${url}/gists{/gist_id}`,
    starred_url: `${url}/starred{/owner}{/repo}`,
    subscriptions_url: `${url}/subscriptions`,
    organizations_url: `${url}/orgs`,
    repos_url: `${url}/repos`,
    events_url: `${url}/events{/privacy}`,
    received_events_url: `${url}/received_events`,
    type: account.type,
    user_view_type: 'public',
    site_admin: false,
  };
}

export interface RepositoryShapeOptions {
  baseUrl: string;
  /** Authenticated callers also get `permissions` (read-only here: the double grants no push). */
  authenticated: boolean;
}

/** `GET /repos/{owner}/{repo}`: the full-repository object. */
export function restRepository(repo: DoubleRepository, options: RepositoryShapeOptions): JsonObject {
  const { baseUrl } = options;
  const api = `${baseUrl}/repos/${repo.fullName}`;
  const html = `${WEB_URL}/${repo.fullName}`;
  const owner = restUser(repo.owner, baseUrl);
  const body: JsonObject = {
    id: repo.id,
    node_id: legacyNodeId('Repository', repo.id),
    name: repo.name,
    full_name: repo.fullName,
    private: repo.isPrivate,
    owner,
    html_url: html,
    description: repo.description,
    fork: false,
    url: api,
    forks_url: `${api}/forks`,
    keys_url: `${api}/keys{/key_id}`,
    collaborators_url: `${api}/collaborators{/collaborator}`,
    teams_url: `${api}/teams`,
    hooks_url: `${api}/hooks`,
    issue_events_url: `${api}/issues/events{/number}`,
    events_url: `${api}/events`,
    assignees_url: `${api}/assignees{/user}`,
    branches_url: `${api}/branches{/branch}`,
    tags_url: `${api}/tags`,
    blobs_url: `${api}/git/blobs{/sha}`,
    git_tags_url: `${api}/git/tags{/sha}`,
    git_refs_url: `${api}/git/refs{/sha}`,
    trees_url: `${api}/git/trees{/sha}`,
    statuses_url: `${api}/statuses/{sha}`,
    languages_url: `${api}/languages`,
    stargazers_url: `${api}/stargazers`,
    contributors_url: `${api}/contributors`,
    subscribers_url: `${api}/subscribers`,
    subscription_url: `${api}/subscription`,
    commits_url: `${api}/commits{/sha}`,
    git_commits_url: `${api}/git/commits{/sha}`,
    comments_url: `${api}/comments{/number}`,
    issue_comment_url: `${api}/issues/comments{/number}`,
    contents_url: `${api}/contents/{+path}`,
    compare_url: `${api}/compare/{base}...{head}`,
    merges_url: `${api}/merges`,
    archive_url: `${api}/{archive_format}{/ref}`,
    downloads_url: `${api}/downloads`,
    issues_url: `${api}/issues{/number}`,
    pulls_url: `${api}/pulls{/number}`,
    milestones_url: `${api}/milestones{/number}`,
    notifications_url: `${api}/notifications{?since,all,participating}`,
    labels_url: `${api}/labels{/name}`,
    releases_url: `${api}/releases{/id}`,
    deployments_url: `${api}/deployments`,
    created_at: repo.createdAt,
    updated_at: repo.updatedAt,
    pushed_at: repo.pushedAt,
    git_url: `git://github.com/${repo.fullName}.git`,
    ssh_url: `git@github.com:${repo.fullName}.git`,
    clone_url: `${html}.git`,
    svn_url: html,
    homepage: repo.homepage,
    size: repo.sizeKb,
    stargazers_count: repo.stars,
    // GitHub's long-standing quirk: watchers_count is the star count.
    watchers_count: repo.stars,
    language: repo.language,
    has_issues: true,
    has_projects: true,
    has_downloads: true,
    has_wiki: !repo.isEmpty,
    has_pages: repo.homepage?.includes('.github.io/') ?? false,
    has_discussions: repo.stars > 5_000,
    forks_count: repo.forks,
    mirror_url: null,
    archived: repo.archived,
    disabled: false,
    open_issues_count: repo.openIssuesCount,
    license: repo.license
      ? {
          key: repo.license.key,
          name: repo.license.name,
          spdx_id: repo.license.spdxId,
          url: repo.license.hasUrl ? `${baseUrl}/licenses/${repo.license.key}` : null,
          node_id: repo.license.nodeId,
        }
      : null,
    allow_forking: true,
    is_template: false,
    web_commit_signoff_required: false,
    topics: [...repo.topics],
    visibility: repo.isPrivate ? 'private' : 'public',
    forks: repo.forks,
    open_issues: repo.openIssuesCount,
    watchers: repo.stars,
    default_branch: repo.defaultBranch,
  };
  if (options.authenticated) {
    body.permissions = { admin: false, maintain: false, push: false, triage: false, pull: true };
  }
  if (repo.owner.type === 'Organization') {
    body.organization = owner;
  }
  body.network_count = repo.forks;
  body.subscribers_count = repo.subscribers;
  return body;
}

/** One item of `GET /repos/{owner}/{repo}/commits`. */
export function restCommit(repo: DoubleRepository, commit: DoubleCommit, baseUrl: string): JsonObject {
  const api = `${baseUrl}/repos/${repo.fullName}`;
  const html = `${WEB_URL}/${repo.fullName}`;
  return {
    sha: commit.sha,
    node_id: legacyNodeId('Commit', `${repo.id}:${commit.sha}`),
    commit: {
      author: { ...commit.author },
      committer: { ...commit.committer },
      message: commit.message,
      tree: { sha: commit.treeSha, url: `${api}/git/trees/${commit.treeSha}` },
      url: `${api}/git/commits/${commit.sha}`,
      comment_count: 0,
      verification: commit.verified
        ? {
            verified: true,
            reason: 'valid',
            signature: pgpSignature(commit),
            payload: signedPayload(commit),
            verified_at: commit.committer.date,
          }
        : { verified: false, reason: 'unsigned', signature: null, payload: null, verified_at: null },
    },
    url: `${api}/commits/${commit.sha}`,
    html_url: `${html}/commit/${commit.sha}`,
    comments_url: `${api}/commits/${commit.sha}/comments`,
    author: commit.authorAccount ? restUser(commit.authorAccount, baseUrl) : null,
    committer: commit.committerAccount ? restUser(commit.committerAccount, baseUrl) : null,
    parents: commit.parentShas.map((sha) => ({
      sha,
      url: `${api}/commits/${sha}`,
      html_url: `${html}/commit/${sha}`,
    })),
  };
}

/** The raw commit object GitHub verified, as it returns it in `verification.payload`. */
function signedPayload(commit: DoubleCommit): string {
  const parents = commit.parentShas.map((sha) => `parent ${sha}\n`).join('');
  const when = (date: string) => `${Math.floor(Date.parse(date) / 1000)} +0000`;
  return (
    `tree ${commit.treeSha}\n${parents}` +
    `author ${commit.author.name} <${commit.author.email}> ${when(commit.author.date)}\n` +
    `committer ${commit.committer.name} <${commit.committer.email}> ${when(commit.committer.date)}\n\n` +
    `${commit.message}\n`
  );
}

function pgpSignature(commit: DoubleCommit): string {
  const armour = Buffer.from(`${commit.sha}${commit.treeSha}`.repeat(3), 'hex').toString('base64');
  return `-----BEGIN PGP SIGNATURE-----\n\nwsFcBAABCAAQBQJ${armour.slice(0, 60)}\n${armour.slice(60)}\n-----END PGP SIGNATURE-----\n`;
}

/** One item of `GET /repos/{owner}/{repo}/contributors`. */
export function restContributor(contributor: DoubleContributor, baseUrl: string): JsonObject {
  if (contributor.kind === 'anonymous') {
    return {
      email: contributor.identity.email,
      name: contributor.identity.name,
      type: 'Anonymous',
      contributions: contributor.contributions,
    };
  }
  return { ...restUser(contributor.account, baseUrl), contributions: contributor.contributions };
}

export interface RateLimitValues {
  limit: number;
  remaining: number;
  used: number;
  reset: number;
}

/**
 * `GET /rate_limit`: resources with GitHub's default limits; `core` (and `rate`) and `graphql`
 * from the ledger. `graphql` is null for anonymous callers, who have no GraphQL budget.
 */
export function restRateLimit(
  core: RateLimitValues,
  graphql: RateLimitValues | null,
  nowS: number,
): JsonObject {
  const authenticated = graphql !== null;
  const fresh = (limit: number, windowS: number) => ({
    limit,
    used: 0,
    remaining: limit,
    reset: nowS + windowS,
  });
  return {
    resources: {
      core: { ...core },
      // Anonymous callers have no GraphQL quota: GitHub answers 401 there.
      graphql: graphql ? { ...graphql } : fresh(0, 3600),
      integration_manifest: fresh(5000, 3600),
      search: fresh(authenticated ? 30 : 10, 60),
      code_search: fresh(authenticated ? 10 : 0, 60),
      source_import: fresh(100, 60),
      code_scanning_upload: fresh(authenticated ? 1000 : 60, 3600),
      actions_runner_registration: fresh(10000, 3600),
      scim: fresh(15000, 3600),
      dependency_snapshots: fresh(100, 60),
      dependency_sbom: fresh(100, 3600),
      code_scanning_autofix: fresh(10, 60),
    },
    rate: { ...core },
  };
}

/** GitHub's error body. */
export function restError(message: string, documentationUrl: string, status: number): JsonObject {
  return { message, documentation_url: documentationUrl, status: String(status) };
}

export const DOCS = {
  root: 'https://docs.github.com/rest',
  getRepository: 'https://docs.github.com/rest/repos/repos#get-a-repository',
  listCommits: 'https://docs.github.com/rest/commits/commits#list-commits',
  listContributors: 'https://docs.github.com/rest/repos/repos#list-repository-contributors',
  redirects: 'https://docs.github.com/v3/#http-redirects',
  primaryRateLimit: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api',
  anonymousRateLimit: 'https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting',
  secondaryRateLimit:
    'https://docs.github.com/free-pro-team@latest/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits',
} as const;
