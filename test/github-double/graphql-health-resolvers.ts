import type { GraphQLResolveInfo } from 'graphql';
import { type DoubleRepository, isoSeconds } from './catalogue.ts';
import {
  type Args,
  type ConnectionModel,
  connection,
  countOnly,
  countOnlyArguments,
  type Fields,
  fields,
  GitHubGraphqlError,
  unsupported,
} from './graphql-connections.ts';
import {
  commitNumberRange,
  type DoubleBlob,
  type DoubleIssue,
  type DoublePullRequest,
  ISSUE_NODES,
  issueTitle,
  MANIFEST_PATHS,
  type ManifestPath,
  PULL_REQUEST_NODES,
  repositoryActivity,
  rootManifest,
  securityPolicyEnabled,
} from './health-activity.ts';
import { legacyNodeId } from './shapes.ts';

/**
 * The fields of the app's health query (health-activity.ts holds the data):
 * `isSecurityPolicyEnabled`; `issues` and `pullRequests` with nodes (newest first: issues by
 * CREATED_AT, pull requests by UPDATED_AT) besides the `states: OPEN` counts; `Issue.comments`;
 * `object(expression: "HEAD:<manifest>")` as a `Blob`; `Commit.history(since:, until:)`.
 * As everywhere in the double, arguments it does not model answer an error, not a guess.
 */

const WEB_URL = 'https://github.com';
const optionalIso = (ms: number | null): string | null => (ms === null ? null : isoSeconds(ms));

interface RepositorySource {
  repo: DoubleRepository;
}
interface IssueModel {
  __typename: 'Issue';
  repo: DoubleRepository;
  issue: DoubleIssue;
}
interface PullRequestModel {
  __typename: 'PullRequest';
  repo: DoubleRepository;
  pull: DoublePullRequest;
}
interface CommentModel {
  __typename: 'IssueComment';
  repo: DoubleRepository;
  issue: DoubleIssue;
  index: number;
}
interface BlobModel {
  __typename: 'Blob';
  repo: DoubleRepository;
  path: ManifestPath;
  blob: DoubleBlob;
}

export const HEALTH_REPOSITORY_FIELDS = fields<RepositorySource>({
  isSecurityPolicyEnabled: ({ repo }) => securityPolicyEnabled(repo),
  issues: ({ repo }, args, _context, info) => {
    const activity = repositoryActivity(repo);
    return listConnection(info, args, {
      open: repo.openIssues,
      total: activity.issueTotal,
      order: 'CREATED_AT',
      items: activity.issues.map((issue): IssueModel => ({ __typename: 'Issue', repo, issue })),
      generated: ISSUE_NODES,
      allowedStates: ['OPEN', 'CLOSED'],
    });
  },
  pullRequests: ({ repo }, args, _context, info) => {
    const activity = repositoryActivity(repo);
    return listConnection(info, args, {
      open: repo.openPullRequests,
      total: activity.pullRequestTotal,
      order: 'UPDATED_AT',
      items: activity.pullRequests.map(
        (pull): PullRequestModel => ({ __typename: 'PullRequest', repo, pull }),
      ),
      generated: PULL_REQUEST_NODES,
      allowedStates: ['OPEN'],
    });
  },
  object: ({ repo }, args, _context, info): BlobModel | null => {
    if (args.oid !== undefined) unsupported(info, 'with oid');
    const expression = String(args.expression ?? '');
    const separator = expression.indexOf(':');
    const revision = separator < 0 ? expression : expression.slice(0, separator);
    const path = separator < 0 ? '' : expression.slice(separator + 1);
    const branch = repo.defaultBranch;
    if (![`HEAD`, branch, `refs/heads/${branch}`].includes(revision)) {
      unsupported(info, `with expression "${expression}" (only HEAD or the default branch)`);
    }
    if (!(MANIFEST_PATHS as readonly string[]).includes(path)) {
      unsupported(info, `with expression "${expression}" (only the root ${MANIFEST_PATHS.join(', ')})`);
    }
    if (repo.isEmpty) return null;
    const blob = rootManifest(repo, path as ManifestPath);
    return blob ? { __typename: 'Blob', repo, path: path as ManifestPath, blob } : null;
  },
});

const ISSUE = fields<IssueModel>({
  id: ({ repo, issue }) => legacyNodeId('Issue', `${repo.id}:${issue.number}`),
  number: ({ issue }) => issue.number,
  title: ({ repo, issue }) => issueTitle(issue.seed, repo.name),
  url: ({ repo, issue }) => `${WEB_URL}/${repo.fullName}/issues/${issue.number}`,
  state: ({ issue }) => (issue.closedMs === null ? 'OPEN' : 'CLOSED'),
  closed: ({ issue }) => issue.closedMs !== null,
  createdAt: ({ issue }) => isoSeconds(issue.createdMs),
  updatedAt: ({ issue }) => isoSeconds(issue.updatedMs),
  closedAt: ({ issue }) => optionalIso(issue.closedMs),
  comments: ({ repo, issue }, args, _context, info) => {
    countOnlyArguments(info, args, []);
    return connection(issue.commentMs.length, args, (offset, limit) =>
      issue.commentMs.slice(offset, offset + limit).map(
        (_date, index): CommentModel => ({
          __typename: 'IssueComment',
          repo,
          issue,
          index: offset + index,
        }),
      ),
    );
  },
});

const ISSUE_COMMENT = fields<CommentModel>({
  id: ({ repo, issue, index }) => legacyNodeId('IssueComment', `${repo.id}:${issue.number}:${index}`),
  createdAt: ({ issue, index }) => optionalIso(issue.commentMs[index] ?? null),
  publishedAt: ({ issue, index }) => optionalIso(issue.commentMs[index] ?? null),
  updatedAt: ({ issue, index }) => optionalIso(issue.commentMs[index] ?? null),
  url: ({ repo, issue, index }) =>
    `${WEB_URL}/${repo.fullName}/issues/${issue.number}#issuecomment-${repo.id % 1_000_000}${issue.number}${index}`,
});

const PULL_REQUEST = fields<PullRequestModel>({
  id: ({ repo, pull }) => legacyNodeId('PullRequest', `${repo.id}:${pull.number}`),
  number: ({ pull }) => pull.number,
  title: ({ repo, pull }) => issueTitle(pull.seed, repo.name),
  url: ({ repo, pull }) => `${WEB_URL}/${repo.fullName}/pull/${pull.number}`,
  state: ({ pull }) => (pull.mergedMs !== null ? 'MERGED' : pull.closedMs !== null ? 'CLOSED' : 'OPEN'),
  closed: ({ pull }) => pull.closedMs !== null,
  merged: ({ pull }) => pull.mergedMs !== null,
  isDraft: ({ pull }) => pull.isDraft,
  createdAt: ({ pull }) => isoSeconds(pull.createdMs),
  updatedAt: ({ pull }) => isoSeconds(pull.updatedMs),
  closedAt: ({ pull }) => optionalIso(pull.closedMs),
  mergedAt: ({ pull }) => optionalIso(pull.mergedMs),
});

const BLOB = fields<BlobModel>({
  id: ({ repo, blob }) => legacyNodeId('Blob', `${repo.id}:${blob.oid}`),
  oid: ({ blob }) => blob.oid,
  abbreviatedOid: ({ blob }) => blob.oid.slice(0, 7),
  text: ({ blob }) => blob.text,
  byteSize: ({ blob }) => blob.byteSize,
  isBinary: () => false,
  isTruncated: () => false,
  commitResourcePath: ({ repo, blob }) => `/${repo.fullName}/commit/${blob.oid}`,
});

export const HEALTH_TYPES: Readonly<Record<string, Fields>> = {
  Issue: ISSUE,
  IssueComment: ISSUE_COMMENT,
  PullRequest: PULL_REQUEST,
  Blob: BLOB,
};

/**
 * `issues` / `pullRequests`: `states: [OPEN]` (or CLOSED for issues) counts, as before; without
 * `states`, every item, of which the newest `generated` can be listed in `order` DESC.
 */
function listConnection(
  info: GraphQLResolveInfo,
  args: Args,
  list: {
    open: number;
    total: number;
    order: 'CREATED_AT' | 'UPDATED_AT';
    items: readonly unknown[];
    generated: number;
    allowedStates: readonly string[];
  },
): ConnectionModel {
  const states = Array.isArray(args.states) ? (args.states as string[]) : undefined;
  if (states !== undefined) {
    if (states.length !== 1 || !list.allowedStates.includes(states[0] ?? '')) {
      unsupported(info, `with states: [${states.join(', ')}]`);
    }
    const count = states[0] === 'OPEN' ? list.open : list.total - list.open;
    return countOnly(info, args, ['states', 'orderBy'], count);
  }
  countOnlyArguments(info, args, ['orderBy']);
  const order = args.orderBy as { field?: string; direction?: string } | undefined;
  const listable = order?.field === list.order && order.direction === 'DESC';
  // Every item exists when the generator reached the repository's creation.
  const complete = list.items.length < list.generated;
  return connection(list.total, args, (offset, limit) => {
    if (!listable) {
      unsupported(info, `nodes without orderBy: { field: ${list.order}, direction: DESC }`);
    }
    if (args.after != null || args.last != null || args.before != null) {
      unsupported(info, 'nodes with after, before or last (only the newest `first`)');
    }
    if (!complete && offset + limit > list.items.length) {
      throw new GitHubGraphqlError(
        `The GitHub double generates only the newest ${list.generated} ${info.fieldName} of a repository; ask for first: ${list.generated} or fewer.`,
        {
          extensions: {
            code: 'undefinedInDouble',
            typeName: info.parentType.name,
            fieldName: info.fieldName,
          },
        },
      );
    }
    return list.items.slice(offset, offset + limit);
  });
}

/**
 * `Commit.history(since:, until:)`: the commits at or below `fromNumber` dated in the window,
 * newest first. Without either, the whole history below `fromNumber`.
 */
export function historyWindow(
  repo: DoubleRepository,
  fromNumber: number,
  args: Args,
  info: GraphQLResolveInfo,
): { newest: number; count: number } {
  if (args.since === undefined && args.until === undefined) {
    return { newest: fromNumber, count: fromNumber };
  }
  const parse = (name: 'since' | 'until'): number | undefined => {
    if (args[name] === undefined || args[name] === null) return undefined;
    const ms = Date.parse(String(args[name]));
    if (Number.isNaN(ms))
      unsupported(info, `with ${name} "${String(args[name])}" (not an ISO 8601 timestamp)`);
    return ms;
  };
  const range = commitNumberRange(repo, parse('since') ?? 0, parse('until'));
  const newest = Math.min(fromNumber, range.to);
  return { newest, count: Math.max(0, newest - range.from + 1) };
}
