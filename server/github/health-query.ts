import { RequestError } from '@octokit/request-error';
import { GitHubError, MESSAGES } from './github-error.ts';
import { type GraphqlSource, isTimeout, queryAliased, toBatchError } from './graphql-batch.ts';
import { PaceWait } from './pacer.ts';
import { QuotaBook } from './quota-book.ts';
import type { PaceOption } from './transport.ts';

/**
 * The health query (docs/architecture.md#repository-health): what the health signals need that
 * the sync's query does not carry. About 15 requests a repository by GitHub's cost formula
 * (ten issues' first comment among them), so 25 repositories cost 4 points against the sync's
 * 1: it runs apart from the import and the daily sync, at most weekly per repository.
 */
export const HEALTH_BATCH_MAX = 25;

/** The window of the activity signals (commits, issues, merged pull requests). */
export const HEALTH_WINDOW_DAYS = 90;

/** Root manifests read for the packages a repository publishes (the advisories module detects them). */
export const MANIFESTS = {
  packageJson: 'package.json',
  pyprojectToml: 'pyproject.toml',
  cargoToml: 'Cargo.toml',
  goMod: 'go.mod',
  composerJson: 'composer.json',
} as const;
export type ManifestKey = keyof typeof MANIFESTS;

const HEALTH_FRAGMENT = `fragment HealthFields on Repository {
  databaseId nameWithOwner isArchived isSecurityPolicyEnabled
  licenseInfo { spdxId }
  defaultBranchRef { target { ... on Commit {
    latest: history(first: 1) { nodes { committedDate } }
    recent: history(since: $since) { totalCount }
  } } }
  releases(first: 10, orderBy: { field: CREATED_AT, direction: DESC }) { nodes { publishedAt isDraft isPrerelease } }
  issues(first: 10, orderBy: { field: CREATED_AT, direction: DESC }) {
    nodes { createdAt closedAt comments(first: 1) { nodes { createdAt } } }
  }
  pullRequests(first: 100, orderBy: { field: UPDATED_AT, direction: DESC }) { nodes { mergedAt updatedAt } }
${Object.entries(MANIFESTS)
  .map(
    ([alias, file]) =>
      `  ${alias}: object(expression: ${JSON.stringify(`HEAD:${file}`)}) { ... on Blob { text } }`,
  )
  .join('\n')}
}`;

export function buildHealthQuery(fullNames: string[]): string {
  const fields = fullNames.map((fullName, index) => {
    const [owner = '', name = ''] = fullName.split('/');
    return `  r${index}: repository(owner: ${JSON.stringify(owner)}, name: ${JSON.stringify(name)}) { ...HealthFields }`;
  });
  return `query Health($since: GitTimestamp!) {\n${fields.join('\n')}\n  rateLimit { cost remaining resetAt }\n}\n${HEALTH_FRAGMENT}`;
}

interface HealthNode {
  databaseId: number;
  nameWithOwner: string;
  isArchived: boolean;
  isSecurityPolicyEnabled: boolean | null;
  licenseInfo: { spdxId: string | null } | null;
  defaultBranchRef: {
    target: {
      latest?: { nodes: { committedDate: string }[] };
      recent?: { totalCount: number };
    } | null;
  } | null;
  releases: { nodes: { publishedAt: string | null; isDraft: boolean; isPrerelease: boolean }[] };
  issues: {
    nodes: { createdAt: string; closedAt: string | null; comments: { nodes: { createdAt: string }[] } }[];
  };
  pullRequests: { nodes: { mergedAt: string | null; updatedAt: string }[] };
  packageJson: { text?: string | null } | null;
  pyprojectToml: { text?: string | null } | null;
  cargoToml: { text?: string | null } | null;
  goMod: { text?: string | null } | null;
  composerJson: { text?: string | null } | null;
}

/** What GitHub said about one repository's health, as read (the signals are derived later). */
export interface GitHubHealth {
  githubId: number;
  fullName: string;
  archived: boolean;
  securityPolicy: boolean;
  /** SPDX id; '' without a licence ('NOASSERTION' when GitHub can't tell which). */
  license: string;
  /** null for an empty repository. */
  lastCommitAt: string | null;
  commitsInWindow: number | null;
  /** Published, non-draft, non-pre-release releases, newest first. */
  releaseDates: string[];
  issues: { createdAt: string; answeredAt: string | null }[];
  pullRequests: { mergedAt: string | null; updatedAt: string }[];
  manifests: Partial<Record<ManifestKey, string>>;
}

export function mapHealth(node: HealthNode): GitHubHealth {
  const target = node.defaultBranchRef?.target ?? null;
  const manifests: Partial<Record<ManifestKey, string>> = {};
  for (const key of Object.keys(MANIFESTS) as ManifestKey[]) {
    const text = node[key]?.text;
    if (typeof text === 'string') manifests[key] = text;
  }
  return {
    githubId: node.databaseId,
    fullName: node.nameWithOwner,
    archived: node.isArchived,
    securityPolicy: node.isSecurityPolicyEnabled === true,
    license: node.licenseInfo?.spdxId ?? '',
    lastCommitAt: target?.latest?.nodes[0]?.committedDate ?? null,
    commitsInWindow: target ? (target.recent?.totalCount ?? 0) : null,
    releaseDates: node.releases.nodes
      .filter((release) => !release.isDraft && !release.isPrerelease && release.publishedAt)
      .map((release) => release.publishedAt as string),
    issues: node.issues.nodes.map((issue) => {
      const commented = issue.comments.nodes[0]?.createdAt ?? null;
      const answers = [commented, issue.closedAt].filter((at): at is string => at !== null).sort();
      return { createdAt: issue.createdAt, answeredAt: answers[0] ?? null };
    }),
    pullRequests: node.pullRequests.nodes,
    manifests,
  };
}

/**
 * Reads the health of many repositories with one token: queries of at most HEALTH_BATCH_MAX,
 * one at a time per token (the sync's own turn-taking), halved on 502/504 and time-outs down to
 * one repository, which then fails alone. `since` starts the activity window.
 */
export async function fetchHealthWithGraphql(
  client: GraphqlSource,
  token: string,
  fullNames: string[],
  since: Date,
  pace: PaceOption = {},
): Promise<Map<string, GitHubHealth | GitHubError>> {
  const results = new Map<string, GitHubHealth | GitHubError>();
  const key = QuotaBook.keyOf(token);
  const pending = [...fullNames];
  let size = HEALTH_BATCH_MAX;
  while (pending.length > 0) {
    const chunk = pending.slice(0, size);
    try {
      const answers = await client.graphqlBatchSizes.oneAtATime(key, () =>
        queryAliased(
          client,
          token,
          chunk,
          pace,
          { query: buildHealthQuery(chunk), variables: { since: since.toISOString() }, map: mapHealth },
          () => {},
        ),
      );
      for (const [fullName, answer] of answers) results.set(fullName, answer);
      pending.splice(0, chunk.length);
    } catch (error) {
      if (error instanceof PaceWait) throw error;
      const heavy =
        (error instanceof RequestError && (error.status === 502 || error.status === 504)) || isTimeout(error);
      if (heavy && chunk.length > 1) {
        size = Math.max(1, Math.floor(chunk.length / 2));
        continue;
      }
      if (heavy) {
        results.set(chunk[0] ?? '', new GitHubError('unreachable', MESSAGES.unreachable));
        pending.splice(0, 1);
        continue;
      }
      // Quota, credentials or an outage concern every name left: the caller decides when to retry.
      throw toBatchError(error, token);
    }
  }
  return results;
}
