import type { GraphQLFieldResolver, GraphQLTypeResolver } from 'graphql';
import type { DoubleRepository } from './catalogue.ts';
import {
  type Args,
  type ConnectionModel,
  connection,
  countOnly,
  countOnlyArguments,
  type Fields,
  fields,
  GitHubGraphqlError,
  type GraphqlContext,
  itemsOf,
  unsupported,
} from './graphql-connections.ts';
import { HEALTH_REPOSITORY_FIELDS, HEALTH_TYPES, historyWindow } from './graphql-health-resolvers.ts';
import { commitByNumber, type DoubleCommit, type GitSignature, listCommits } from './history.ts';
import type { DoubleLicense } from './licenses.ts';
import { type DoubleAccount, tokenOwnerAccount } from './people.ts';
import { type DoubleRelease, type DoubleTag, releaseBody } from './releases.ts';
import { legacyNodeId } from './shapes.ts';

export { GitHubGraphqlError, type GraphqlContext };

/**
 * Resolvers for GitHub's GraphQL schema over the double's data, so GraphQL and REST answer the
 * same numbers: `stargazerCount` = `stargazers_count`, `issues(states: OPEN)` +
 * `pullRequests(states: OPEN)` = `open_issues_count`, `history.totalCount` = the commit count
 * REST's Link header gives, `history` nodes = the commits REST lists (`oid` = `sha`,
 * `committedDate` = `commit.committer.date`), `databaseId` = `id`, `id` = `node_id`.
 *
 * Only the fields in the tables below resolve. Any other field of the schema validates but
 * answers null with an error naming it, rather than a made-up value: add it here when the app
 * starts asking for it. The health query's fields (issues and pull requests with nodes,
 * `object(expression:)`, `history(since:)`…) are in graphql-health-resolvers.ts.
 */

const WEB_URL = 'https://github.com';

// --- Source models: what a resolver hands to the fields of the type below it -----------------

interface RepositoryModel {
  __typename: 'Repository';
  repo: DoubleRepository;
}
interface AccountModel {
  __typename: 'User' | 'Organization' | 'Bot';
  account: DoubleAccount;
}
interface RefModel {
  __typename: 'Ref';
  repo: DoubleRepository;
  /** A tag (refs/tags/…); without it, the default branch. */
  tag?: DoubleTag;
}
interface ReleaseModel {
  __typename: 'Release';
  repo: DoubleRepository;
  release: DoubleRelease;
}
interface CommitModel {
  __typename: 'Commit';
  repo: DoubleRepository;
  commit: DoubleCommit;
}
interface GitActorModel {
  signature: GitSignature;
  /** The account the e-mail links to; GitActor.user is null unless it is a User (bots aren't). */
  account: DoubleAccount | null;
}
interface TopicModel {
  repo: DoubleRepository;
  name: string;
}

const repositoryModel = (repo: DoubleRepository): RepositoryModel => ({ __typename: 'Repository', repo });
const accountModel = (account: DoubleAccount): AccountModel => ({ __typename: account.type, account });
const commitModel = (repo: DoubleRepository, commit: DoubleCommit): CommitModel => ({
  __typename: 'Commit',
  repo,
  commit,
});

// --- Resolver tables ---------------------------------------------------------------------------

const QUERY = fields<unknown>({
  repository: (_source, args, context) => {
    const owner = String(args.owner);
    const name = String(args.name);
    const resolution = context.directory.resolveName(`${owner}/${name}`, context.caller);
    // GitHub's GraphQL follows renames and transfers unless told not to; REST answers 301.
    if (resolution.kind === 'found' || (resolution.kind === 'moved' && args.followRenames !== false)) {
      return repositoryModel(resolution.repo);
    }
    // Missing, deleted, or private without access: GitHub can't tell them apart either.
    throw new GitHubGraphqlError(`Could not resolve to a Repository with the name '${owner}/${name}'.`, {
      type: 'NOT_FOUND',
    });
  },
  rateLimit: (_source, args, context, info) => {
    if (args.dryRun === true) {
      unsupported(info, 'with dryRun: true');
    }
    return context.rateLimit;
  },
  viewer: (_source, _args, context) => {
    if (context.caller.kind !== 'token') {
      throw new GitHubGraphqlError('This endpoint requires you to be authenticated.');
    }
    return accountModel(tokenOwnerAccount(context.caller.token));
  },
});

const REPOSITORY = fields<RepositoryModel>({
  id: ({ repo }) => legacyNodeId('Repository', repo.id),
  databaseId: ({ repo }) => repo.id,
  name: ({ repo }) => repo.name,
  nameWithOwner: ({ repo }) => repo.fullName,
  owner: ({ repo }) => accountModel(repo.owner),
  description: ({ repo }) => repo.description,
  url: ({ repo }) => `${WEB_URL}/${repo.fullName}`,
  resourcePath: ({ repo }) => `/${repo.fullName}`,
  sshUrl: ({ repo }) => `git@github.com:${repo.fullName}.git`,
  homepageUrl: ({ repo }) => repo.homepage,
  createdAt: ({ repo }) => repo.createdAt,
  updatedAt: ({ repo }) => repo.updatedAt,
  pushedAt: ({ repo }) => repo.pushedAt,
  diskUsage: ({ repo }) => repo.sizeKb,
  isPrivate: ({ repo }) => repo.isPrivate,
  visibility: ({ repo }) => (repo.isPrivate ? 'PRIVATE' : 'PUBLIC'),
  isArchived: ({ repo }) => repo.archived,
  isEmpty: ({ repo }) => repo.isEmpty,
  isFork: () => false,
  isTemplate: () => false,
  isMirror: () => false,
  isDisabled: () => false,
  isLocked: () => false,
  hasIssuesEnabled: () => true,
  hasWikiEnabled: ({ repo }) => !repo.isEmpty,
  hasDiscussionsEnabled: ({ repo }) => repo.stars > 5_000,
  primaryLanguage: ({ repo }) => (repo.language ? { name: repo.language } : null),
  licenseInfo: ({ repo }) => repo.license,
  repositoryTopics: ({ repo }, args) =>
    connection(repo.topics.length, args, (offset, limit) =>
      repo.topics.slice(offset, offset + limit).map((name): TopicModel => ({ repo, name })),
    ),
  stargazerCount: ({ repo }) => repo.stars,
  forkCount: ({ repo }) => repo.forks,
  stargazers: ({ repo }, args, _context, info) => countOnly(info, args, [], repo.stars),
  forks: ({ repo }, args, _context, info) => countOnly(info, args, [], repo.forks),
  watchers: ({ repo }, args, _context, info) => countOnly(info, args, [], repo.subscribers),
  defaultBranchRef: ({ repo }): RefModel | null => (repo.isEmpty ? null : { __typename: 'Ref', repo }),
  releases: ({ repo }, args, context, info) => {
    countOnlyArguments(info, args, ['orderBy']);
    const order = args.orderBy as { field?: string; direction?: string } | undefined;
    const collaborator = context.directory.isCollaborator(context.caller);
    // Newest first from the start (the app's query): only `first` of them need building.
    const newestOnly =
      (!order || (order.field === 'CREATED_AT' && order.direction === 'DESC')) && !args.after;
    if (newestOnly && typeof args.first === 'number') {
      const newest = context.directory.releases.releases(repo, collaborator, args.first);
      const total = context.directory.releases.releaseTotal(repo, collaborator);
      return connection(total, args, (offset, limit) =>
        newest.slice(offset, offset + limit).map((release) => releaseModel(repo, release)),
      );
    }
    const newestFirst = context.directory.releases.releases(repo, collaborator);
    // Without orderBy the double lists them as REST does: newest first.
    const ascending =
      order?.field === 'NAME'
        ? [...newestFirst].sort((a, b) => (a.name ?? '').localeCompare(b.name ?? ''))
        : [...newestFirst].reverse();
    const sorted = !order ? newestFirst : order.direction === 'DESC' ? ascending.reverse() : ascending;
    return connection(sorted.length, args, (offset, limit) =>
      sorted.slice(offset, offset + limit).map((release) => releaseModel(repo, release)),
    );
  },
  latestRelease: ({ repo }, _args, context) => {
    const latest = context.directory.releases.latest(repo);
    return latest ? releaseModel(repo, latest) : null;
  },
  refs: ({ repo }, args, context, info) => {
    countOnlyArguments(info, args, ['refPrefix', 'orderBy']);
    if (args.refPrefix !== 'refs/tags/') unsupported(info, `with refPrefix ${String(args.refPrefix)}`);
    const order = args.orderBy as { field?: string; direction?: string } | undefined;
    const newestOnly = order?.field === 'TAG_COMMIT_DATE' && order.direction === 'DESC' && !args.after;
    if (newestOnly && typeof args.first === 'number') {
      const newest = context.directory.releases.tags(repo, args.first);
      return connection(context.directory.releases.tagTotal(repo), args, (offset, limit) =>
        newest.slice(offset, offset + limit).map((tag): RefModel => ({ __typename: 'Ref', repo, tag })),
      );
    }
    const newestFirst = context.directory.releases.tags(repo);
    // GitHub's default (and ALPHABETICAL) is by name; TAG_COMMIT_DATE by the tagged commit.
    const ascending =
      order?.field === 'TAG_COMMIT_DATE'
        ? [...newestFirst].reverse()
        : [...newestFirst].sort((a, b) => a.name.localeCompare(b.name));
    const sorted = order?.direction === 'DESC' ? ascending.reverse() : ascending;
    return connection(sorted.length, args, (offset, limit) =>
      sorted.slice(offset, offset + limit).map((tag): RefModel => ({ __typename: 'Ref', repo, tag })),
    );
  },
  ref: ({ repo }, args): RefModel | null => {
    const wanted = String(args.qualifiedName);
    const branch = repo.defaultBranch;
    return !repo.isEmpty && (wanted === branch || wanted === `refs/heads/${branch}`)
      ? { __typename: 'Ref', repo }
      : null;
  },
});

const REF = fields<RefModel>({
  id: ({ repo, tag }) =>
    legacyNodeId(
      'Ref',
      tag ? `${repo.id}:refs/tags/${tag.name}` : `${repo.id}:refs/heads/${repo.defaultBranch}`,
    ),
  name: ({ repo, tag }) => tag?.name ?? repo.defaultBranch,
  prefix: ({ tag }) => (tag ? 'refs/tags/' : 'refs/heads/'),
  repository: ({ repo }) => repositoryModel(repo),
  // The double's tags are lightweight: they point at a commit.
  target: ({ repo, tag }) =>
    commitModel(repo, commitByNumber(repo, tag ? tag.commitNumber : repo.commitCount)),
});

const RELEASE = fields<ReleaseModel>({
  id: ({ release }) => legacyNodeId('Release', release.id),
  databaseId: ({ release }) => release.id,
  tagName: ({ release }) => release.tag,
  name: ({ release }) => release.name,
  description: ({ repo, release }) => releaseBody(repo, release),
  isDraft: ({ release }) => release.draft,
  isPrerelease: ({ release }) => release.prerelease,
  isLatest: ({ repo, release }, _args, context) => context.directory.releases.latest(repo)?.id === release.id,
  createdAt: ({ release }) => release.createdAt,
  publishedAt: ({ release }) => release.publishedAt,
  updatedAt: ({ release }) => release.publishedAt ?? release.createdAt,
  url: ({ repo, release }) =>
    release.draft
      ? `${WEB_URL}/${repo.fullName}/releases/tag/untagged-${release.id.toString(16)}`
      : `${WEB_URL}/${repo.fullName}/releases/tag/${encodeURIComponent(release.tag)}`,
  tagCommit: ({ repo, release }) =>
    release.draft ? null : commitModel(repo, commitByNumber(repo, release.commitNumber)),
  repository: ({ repo }) => repositoryModel(repo),
});

const COMMIT = fields<CommitModel>({
  id: ({ repo, commit }) => legacyNodeId('Commit', `${repo.id}:${commit.sha}`),
  oid: ({ commit }) => commit.sha,
  abbreviatedOid: ({ commit }) => commit.sha.slice(0, 7),
  message: ({ commit }) => commit.message,
  messageHeadline: ({ commit }) => commit.message.split('\n')[0] ?? '',
  messageBody: ({ commit }) => commit.message.split('\n').slice(1).join('\n').replace(/^\n+/, ''),
  committedDate: ({ commit }) => commit.committer.date,
  authoredDate: ({ commit }) => commit.author.date,
  author: ({ commit }): GitActorModel => ({ signature: commit.author, account: commit.authorAccount }),
  committer: ({ commit }): GitActorModel => ({
    signature: commit.committer,
    account: commit.committerAccount,
  }),
  url: ({ repo, commit }) => `${WEB_URL}/${repo.fullName}/commit/${commit.sha}`,
  commitUrl: ({ repo, commit }) => `${WEB_URL}/${repo.fullName}/commit/${commit.sha}`,
  resourcePath: ({ repo, commit }) => `/${repo.fullName}/commit/${commit.sha}`,
  repository: ({ repo }) => repositoryModel(repo),
  parents: ({ commit }, args, _context, info) => countOnly(info, args, [], commit.parentShas.length),
  history: ({ repo, commit }, args, _context, info) => {
    for (const filter of ['path', 'author']) {
      if (args[filter] !== undefined) {
        unsupported(info, `with ${filter}`);
      }
    }
    // since/until: the commits dated in that window, newest first (graphql-health-resolvers.ts).
    const window = historyWindow(repo, commit.number, args, info);
    // GitHub's history cursors are "<sha of the starting commit> <index>".
    return connection(
      window.count,
      args,
      (offset, limit) =>
        listCommits(repo, {
          fromNumber: window.newest,
          offset,
          limit: Math.min(limit, window.count - offset),
        }).map((item) => commitModel(repo, item)),
      (index) => `${commit.sha} ${index}`,
      (cursor) => /^[0-9a-f]{40} (\d+)$/.exec(cursor)?.[1],
    );
  },
});

const GIT_ACTOR = fields<GitActorModel>({
  name: ({ signature }) => signature.name,
  email: ({ signature }) => signature.email,
  date: ({ signature }) => signature.date,
  user: ({ account }) => (account?.type === 'User' ? accountModel(account) : null),
  avatarUrl: ({ signature, account }, args) =>
    account
      ? avatarUrl(account, args)
      : `https://avatars.githubusercontent.com/u/e?email=${encodeURIComponent(signature.email)}${sizeParameter(args, '&')}`,
});

const ACCOUNT = fields<AccountModel>({
  id: ({ __typename, account }) => legacyNodeId(__typename, account.id),
  databaseId: ({ account }) => account.id,
  login: ({ account }) => account.login,
  name: ({ account }) => account.displayName,
  url: ({ account }) => accountUrl(account),
  resourcePath: ({ account }) => new URL(accountUrl(account)).pathname,
  avatarUrl: ({ account }, args) => avatarUrl(account, args),
});

const LICENSE = fields<DoubleLicense>({
  id: (license) => license.nodeId,
  key: (license) => license.key,
  name: (license) => license.name,
  spdxId: (license) => license.spdxId,
  url: (license) => (license.hasUrl ? `http://choosealicense.com/licenses/${license.key}/` : null),
  pseudoLicense: (license) => license.key === 'other',
});

const LANGUAGE = fields<{ name: string }>({
  name: (language) => language.name,
});

const REPOSITORY_TOPIC = fields<TopicModel>({
  id: ({ repo, name }) => legacyNodeId('RepositoryTopic', `${repo.id}:${name}`),
  topic: ({ name }) => ({ name }),
  url: ({ name }) => `${WEB_URL}/topics/${name}`,
  resourcePath: ({ name }) => `/topics/${name}`,
});

const TOPIC = fields<{ name: string }>({
  id: ({ name }) => legacyNodeId('Topic', name),
  name: ({ name }) => name,
});

const RATE_LIMIT = fields<GraphqlContext['rateLimit']>({
  cost: (values) => values.cost,
  limit: (values) => values.limit,
  nodeCount: (values) => values.nodeCount,
  remaining: (values) => values.remaining,
  resetAt: (values) => values.resetAt,
  used: (values) => values.used,
});

const CONNECTION = fields<ConnectionModel>({
  totalCount: (connection) => connection.totalCount,
  nodes: (connection, _args, _context, info) => itemsOf(connection, info),
  edges: (connection, _args, _context, info) =>
    itemsOf(connection, info).map((node, index) => ({
      cursor: connection.cursor(connection.start + index),
      node,
    })),
  pageInfo: (connection) => connection,
});

const EDGE = fields<{ cursor: string; node: unknown }>({
  cursor: (edge) => edge.cursor,
  node: (edge) => edge.node,
});

const PAGE_INFO = fields<ConnectionModel>({
  hasNextPage: (connection) => connection.end < connection.totalCount,
  hasPreviousPage: (connection) => connection.start > 0,
  startCursor: (connection) =>
    connection.end > connection.start ? connection.cursor(connection.start) : null,
  endCursor: (connection) =>
    connection.end > connection.start ? connection.cursor(connection.end - 1) : null,
});

const TYPES: Readonly<Record<string, Fields>> = {
  Query: QUERY,
  Repository: { ...REPOSITORY, ...HEALTH_REPOSITORY_FIELDS },
  ...HEALTH_TYPES,
  Ref: REF,
  Release: RELEASE,
  Commit: COMMIT,
  GitActor: GIT_ACTOR,
  User: ACCOUNT,
  Organization: ACCOUNT,
  Bot: ACCOUNT,
  License: LICENSE,
  Language: LANGUAGE,
  RepositoryTopic: REPOSITORY_TOPIC,
  Topic: TOPIC,
  RateLimit: RATE_LIMIT,
  PageInfo: PAGE_INFO,
};

export const fieldResolver: GraphQLFieldResolver<unknown, GraphqlContext> = (source, args, context, info) => {
  const typeName = info.parentType.name;
  const table =
    TYPES[typeName] ??
    (typeName.endsWith('Connection') ? CONNECTION : typeName.endsWith('Edge') ? EDGE : undefined);
  const resolve = table?.[info.fieldName];
  if (!resolve) {
    unsupported(info);
  }
  return resolve(source, args, context, info);
};

/** Interfaces and unions (GitObject, RepositoryOwner, Actor…): the model names its type. */
export const typeResolver: GraphQLTypeResolver<unknown, GraphqlContext> = (value) =>
  typeof value === 'object' && value !== null && '__typename' in value && typeof value.__typename === 'string'
    ? value.__typename
    : undefined;

// --- Helpers -----------------------------------------------------------------------------------

const releaseModel = (repo: DoubleRepository, release: DoubleRelease): ReleaseModel => ({
  __typename: 'Release',
  repo,
  release,
});

function accountUrl(account: DoubleAccount): string {
  return account.type === 'Bot'
    ? `${WEB_URL}/apps/${account.login.replace('[bot]', '')}`
    : `${WEB_URL}/${account.login}`;
}

function avatarUrl(account: DoubleAccount, args: Args): string {
  return `https://avatars.githubusercontent.com/u/${account.id}?v=4${sizeParameter(args, '&')}`;
}

function sizeParameter(args: Args, separator: string): string {
  return typeof args.size === 'number' ? `${separator}s=${args.size}` : '';
}
