import type { PackageEcosystem } from '#shared/schemas/advisories.ts';
import { headerString, NotAvailable, type RestCaller, splitFullName } from './rest-call.ts';
import type { PaceOption } from './transport.ts';

/**
 * GitHub's security advisories (docs/architecture.md#advisories): a public repository's own
 * published advisories (`GET /repos/{o}/{r}/security-advisories`, conditional on an ETag) and
 * the global advisory database for the packages it publishes (`GET /advisories`, one ecosystem
 * a request, many packages in `affects`, `modified` for incremental reads). Both page by cursor
 * (`after`), read to at most ADVISORY_PAGES_MAX pages of 100.
 */

export const ADVISORY_PAGES_MAX = 5;
const PER_PAGE = 100;
/** `affects` takes a comma-separated list; kept well under URL limits. */
export const AFFECTS_MAX = 50;

/** One advisory as read, whichever list it came from. */
export interface GitHubAdvisory {
  ghsaId: string;
  cveId: string | null;
  /** GitHub's severity; `unknown` when it gave none. */
  severity: 'critical' | 'high' | 'medium' | 'low' | 'unknown';
  summary: string;
  url: string;
  publishedAt: string;
  updatedAt: string;
  withdrawnAt: string | null;
  vulnerabilities: {
    ecosystem: string;
    name: string;
    vulnerableRange: string | null;
    /** The first patched version (global) or the patched versions text (repository). */
    patched: string | null;
  }[];
}

interface RawVulnerability {
  package?: { ecosystem?: string | null; name?: string | null } | null;
  vulnerable_version_range?: string | null;
  first_patched_version?: string | null;
  patched_versions?: string | null;
}

interface RawAdvisory {
  ghsa_id: string;
  cve_id?: string | null;
  html_url?: string | null;
  summary?: string | null;
  severity?: string | null;
  published_at?: string | null;
  updated_at?: string | null;
  withdrawn_at?: string | null;
  vulnerabilities?: RawVulnerability[] | null;
}

const SEVERITIES = new Set(['critical', 'high', 'medium', 'low']);

function toAdvisory(raw: RawAdvisory): GitHubAdvisory {
  const severity = raw.severity && SEVERITIES.has(raw.severity) ? raw.severity : 'unknown';
  return {
    ghsaId: raw.ghsa_id,
    cveId: raw.cve_id ?? null,
    severity: severity as GitHubAdvisory['severity'],
    summary: raw.summary ?? '',
    url: raw.html_url ?? `https://github.com/advisories/${raw.ghsa_id}`,
    publishedAt: raw.published_at ?? raw.updated_at ?? '',
    updatedAt: raw.updated_at ?? raw.published_at ?? '',
    withdrawnAt: raw.withdrawn_at ?? null,
    vulnerabilities: (raw.vulnerabilities ?? []).flatMap((entry) =>
      entry.package?.ecosystem && entry.package.name
        ? [
            {
              ecosystem: entry.package.ecosystem,
              name: entry.package.name,
              vulnerableRange: entry.vulnerable_version_range ?? null,
              patched: entry.first_patched_version ?? entry.patched_versions ?? null,
            },
          ]
        : [],
    ),
  };
}

/** The `after` cursor of a `Link` header's `rel="next"`, or null on the last page. */
export function nextCursor(link: string | undefined): string | null {
  if (!link) return null;
  for (const part of link.split(',')) {
    if (!/rel="next"/.test(part)) continue;
    const url = /<([^>]+)>/.exec(part)?.[1];
    if (!url) continue;
    return new URL(url).searchParams.get('after');
  }
  return null;
}

export class AdvisoryClient {
  readonly #rest: RestCaller;

  constructor(rest: RestCaller) {
    this.#rest = rest;
  }

  /**
   * A public repository's published advisories, conditional on `etag` (the first page's: a
   * change anywhere changes it). `{ notModified: true }` on a 304; an empty list when GitHub
   * doesn't list them for the caller (404: private, or advisories turned off).
   */
  async repositoryAdvisories(
    fullName: string,
    token: string | null,
    options: PaceOption & { etag?: string } = {},
  ): Promise<{ notModified: true } | { advisories: GitHubAdvisory[]; etag?: string }> {
    const [owner, repo] = splitFullName(fullName);
    const advisories: GitHubAdvisory[] = [];
    let etag: string | undefined;
    let after: string | null = null;
    for (let page = 0; page < ADVISORY_PAGES_MAX; page++) {
      let answer: Awaited<ReturnType<RestCaller['call']>>;
      try {
        answer = await this.#rest.call<RawAdvisory[] | undefined>({
          token,
          route: 'GET /repos/{owner}/{repo}/security-advisories',
          params: {
            owner,
            repo,
            state: 'published',
            per_page: PER_PAGE,
            ...(after ? { after } : {}),
          },
          etag: page === 0 ? options.etag : undefined,
          subject: fullName,
          deadline: options.deadline,
          notAvailable: [404],
        });
      } catch (error) {
        if (error instanceof NotAvailable) return { advisories: [] };
        throw error;
      }
      if (answer.status === 304) return { notModified: true };
      if (page === 0) etag = headerString(answer.headers.etag);
      const rows = Array.isArray(answer.data) ? (answer.data as RawAdvisory[]) : [];
      advisories.push(...rows.map(toAdvisory));
      after = nextCursor(headerString(answer.headers.link));
      if (!after) break;
    }
    return { advisories, ...(etag ? { etag } : {}) };
  }

  /**
   * GitHub's reviewed advisories for some packages of one ecosystem (at most AFFECTS_MAX a
   * request), withdrawn ones included so a withdrawal is seen; `modifiedSince` reads only those
   * published or updated since then.
   */
  async globalAdvisories(
    ecosystem: PackageEcosystem,
    packages: string[],
    token: string | null,
    options: PaceOption & { modifiedSince?: string } = {},
  ): Promise<GitHubAdvisory[]> {
    const advisories: GitHubAdvisory[] = [];
    for (let start = 0; start < packages.length; start += AFFECTS_MAX) {
      const affects = packages.slice(start, start + AFFECTS_MAX).join(',');
      let after: string | null = null;
      for (let page = 0; page < ADVISORY_PAGES_MAX; page++) {
        const answer = await this.#rest.call<RawAdvisory[] | undefined>({
          token,
          route: 'GET /advisories',
          params: {
            ecosystem,
            affects,
            per_page: PER_PAGE,
            ...(options.modifiedSince ? { modified: `>=${options.modifiedSince}` } : {}),
            ...(after ? { after } : {}),
          },
          subject: `${ecosystem} advisories`,
          deadline: options.deadline,
        });
        const rows = Array.isArray(answer.data) ? (answer.data as RawAdvisory[]) : [];
        advisories.push(...rows.map(toAdvisory));
        after = nextCursor(headerString(answer.headers.link));
        if (!after) break;
      }
    }
    return advisories;
  }
}
