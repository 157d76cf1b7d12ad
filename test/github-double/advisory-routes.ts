import {
  ADVISORY_ECOSYSTEMS,
  ADVISORY_SEVERITIES,
  ADVISORY_TYPES,
  type DoubleAdvisory,
  versionInRange,
} from './advisories.ts';
import type { DoubleRepository } from './catalogue.ts';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from './pagination.ts';
import type { Resolution } from './repository-directory.ts';
import type { DoubleRoute, RouteContext, RouteResult } from './rest-routes.ts';
import { DOCS, type JsonObject, type JsonValue, restError, restUser } from './shapes.ts';

/**
 * `GET /advisories` (the global advisory database) and `GET /repos/{o}/{r}/security-advisories`
 * (a public repository's published advisories) over advisories.ts, with GitHub's cursor
 * paging: `per_page` (30, at most 100), `after`/`before` cursors, and a `Link` header with
 * `rel="next"` (`after=`) and `rel="prev"` (`before=`) only. Conditional like every list.
 */

const WEB_URL = 'https://github.com';
export const ADVISORY_DOCS = {
  global:
    'https://docs.github.com/rest/security-advisories/global-advisories#list-global-security-advisories',
  repository:
    'https://docs.github.com/rest/security-advisories/repository-advisories#list-repository-security-advisories',
} as const;

export const ADVISORY_ROUTES: readonly DoubleRoute[] = [
  {
    method: 'GET',
    template: '/advisories',
    pattern: /^\/advisories\/?$/,
    resource: 'core',
    handle: (context) => globalAdvisories(context),
  },
  {
    method: 'GET',
    template: '/repos/{owner}/{repo}/security-advisories',
    pattern: /^\/repos\/(?<owner>[^/]+)\/(?<repo>[^/]+)\/security-advisories\/?$/,
    resource: 'core',
    handle: (context) => {
      const name = `${safeDecode(context.params.owner)}/${safeDecode(context.params.repo)}`;
      return repositoryAdvisories(context.directory.resolveName(name, context.caller), context);
    },
  },
  {
    method: 'GET',
    template: '/repositories/{id}/security-advisories',
    pattern: /^\/repositories\/(?<id>\d+)\/security-advisories\/?$/,
    resource: 'core',
    handle: (context) =>
      repositoryAdvisories(context.directory.resolveId(Number(context.params.id), context.caller), context),
  },
];

function safeDecode(segment: string | undefined): string {
  try {
    return decodeURIComponent(segment ?? '');
  } catch {
    return '';
  }
}

function invalid(message: string, documentation: string): RouteResult {
  return { status: 422, body: { ...restError('Validation Failed', documentation, 422), errors: [message] } };
}

// --- GET /advisories ---------------------------------------------------------------------------

function globalAdvisories(context: RouteContext): RouteResult {
  const params = context.url.searchParams;
  const docs = ADVISORY_DOCS.global;
  const type = params.get('type') ?? 'reviewed';
  if (!(ADVISORY_TYPES as readonly string[]).includes(type)) return invalid(`Invalid type: ${type}`, docs);
  const ecosystem = params.get('ecosystem');
  if (ecosystem !== null && !(ADVISORY_ECOSYSTEMS as readonly string[]).includes(ecosystem)) {
    return invalid(`Invalid ecosystem: ${ecosystem}`, docs);
  }
  const severities = listParameter(params, 'severity');
  if (severities.some((severity) => !(ADVISORY_SEVERITIES as readonly string[]).includes(severity))) {
    return invalid(`Invalid severity: ${severities.join(',')}`, docs);
  }
  const dateFilters: Array<[string, (advisory: DoubleAdvisory) => string[]]> = [
    ['published', (a) => [a.publishedAt]],
    ['updated', (a) => [a.updatedAt]],
    ['modified', (a) => [a.publishedAt, a.updatedAt]],
  ];
  const tests: Array<(advisory: DoubleAdvisory) => boolean> = [];
  for (const [name, dates] of dateFilters) {
    const value = params.get(name);
    if (value === null) continue;
    const matches = dateRange(value);
    if (!matches) return invalid(`Invalid ${name}: ${value}`, docs);
    tests.push((advisory) => dates(advisory).some((date) => matches(Date.parse(date))));
  }
  const withdrawn = params.get('is_withdrawn');
  if (withdrawn !== null && withdrawn !== 'true' && withdrawn !== 'false') {
    return invalid(`Invalid is_withdrawn: ${withdrawn}`, docs);
  }
  const ghsaId = params.get('ghsa_id');
  const cveId = params.get('cve_id');
  const affects = listParameter(params, 'affects');
  if (affects.length > 1000) return invalid('affects takes at most 1000 packages', docs);
  const sort = params.get('sort') ?? 'published';
  if (!['published', 'updated', 'epss_percentage', 'epss_percentile'].includes(sort)) {
    return invalid(`Invalid sort: ${sort}`, docs);
  }

  const selected = context.directory.advisories.list(context.directory.snapshot).filter(
    (advisory) =>
      (ghsaId === null || advisory.ghsaId.toUpperCase() === ghsaId.toUpperCase()) &&
      (cveId === null || advisory.cveId?.toUpperCase() === cveId.toUpperCase()) &&
      // A GHSA id names one advisory whatever its type.
      (ghsaId !== null || advisory.type === type) &&
      (ecosystem === null || advisory.vulnerabilities.some((v) => v.ecosystem === ecosystem)) &&
      (severities.length === 0 || severities.includes(advisory.severity)) &&
      (withdrawn === null || (withdrawn === 'true') === (advisory.withdrawnAt !== null)) &&
      (affects.length === 0 || affects.some((wanted) => affectsPackage(advisory, wanted, ecosystem))) &&
      tests.every((test) => test(advisory)),
  );
  const key = sort === 'updated' ? 'updatedAt' : 'publishedAt';
  return cursorPage(
    context,
    selected,
    (advisory) => advisory[key],
    docs,
    (advisory) => globalShape(advisory, context.baseUrl),
  );
}

/** `package` or `package@version` (the last `@` after the first character: `@scope/pkg@1.0`). */
function affectsPackage(advisory: DoubleAdvisory, wanted: string, ecosystem: string | null): boolean {
  const at = wanted.lastIndexOf('@');
  const name = at > 0 ? wanted.slice(0, at) : wanted;
  const version = at > 0 ? wanted.slice(at + 1) : undefined;
  return advisory.vulnerabilities.some(
    (v) =>
      (ecosystem === null || v.ecosystem === ecosystem) &&
      v.package.toLowerCase() === name.toLowerCase() &&
      (version === undefined || versionInRange(version, v.vulnerableVersionRange)),
  );
}

/** Comma-separated values, or repeated `name[]=`. */
function listParameter(params: URLSearchParams, name: string): string[] {
  return [...params.getAll(name), ...params.getAll(`${name}[]`)]
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter((value) => value.length > 0);
}

/** GitHub's search date syntax: `2026-01-01`, `>=2026-01-01`, `<2026-01-01T12:00:00Z`, `a..b`, `a..*`. */
export function dateRange(value: string): ((ms: number) => boolean) | undefined {
  const parse = (text: string, end: boolean): number | undefined => {
    if (text === '*') return end ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
    if (!/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/.test(text)) return undefined;
    const ms = Date.parse(text.length === 10 ? `${text}T00:00:00Z` : text);
    if (Number.isNaN(ms)) return undefined;
    // A bare day as an upper bound takes the whole day.
    return end && text.length === 10 ? ms + 86_400_000 - 1 : ms;
  };
  const range = /^(.+)\.\.(.+)$/.exec(value);
  if (range) {
    const from = parse(range[1] ?? '', false);
    const to = parse(range[2] ?? '', true);
    return from === undefined || to === undefined ? undefined : (ms) => ms >= from && ms <= to;
  }
  const compare = /^(>=|<=|>|<)?(.+)$/.exec(value);
  const operator = compare?.[1];
  const text = compare?.[2] ?? '';
  const start = parse(text, false);
  const end = parse(text, true);
  if (start === undefined || end === undefined) return undefined;
  switch (operator) {
    case '>=':
      return (ms) => ms >= start;
    case '>':
      return (ms) => ms > end;
    case '<=':
      return (ms) => ms <= end;
    case '<':
      return (ms) => ms < start;
    default:
      return (ms) => ms >= start && ms <= end;
  }
}

// --- GET /repos/{owner}/{repo}/security-advisories ---------------------------------------------

function repositoryAdvisories(resolution: Resolution, context: RouteContext): RouteResult {
  const docs = ADVISORY_DOCS.repository;
  // Private repositories' advisories are not modelled: the double answers as for a stranger.
  if (resolution.kind === 'missing' || resolution.repo.isPrivate) {
    return { status: 404, body: restError('Not Found', docs, 404) };
  }
  const { repo } = resolution;
  if (resolution.kind === 'moved') {
    const location = `${context.baseUrl}/repositories/${repo.id}/security-advisories${context.url.search}`;
    return {
      status: 301,
      body: { message: 'Moved Permanently', url: location, documentation_url: DOCS.redirects },
      headers: { location },
    };
  }
  const params = context.url.searchParams;
  const sort = params.get('sort') ?? 'created';
  if (!['created', 'updated', 'published'].includes(sort)) return invalid(`Invalid sort: ${sort}`, docs);
  const state = params.get('state');
  if (state !== null && !['triage', 'draft', 'published', 'closed'].includes(state)) {
    return invalid(`Invalid state: ${state}`, docs);
  }
  const own = context.directory.advisories
    .list(context.directory.snapshot)
    .filter(
      (advisory) =>
        // By the name it had when the advisory was published: renames keep the advisories.
        advisory.repositoryAdvisory &&
        [repo.key, repo.fullName.toLowerCase()].includes(advisory.repository?.toLowerCase() ?? ''),
    )
    // Only published ones are visible to the public; a withdrawn one stays listed as withdrawn.
    .filter((advisory) => state === null || (state === 'published' && advisory.withdrawnAt === null));
  const dateOf = (advisory: DoubleAdvisory): string =>
    sort === 'updated'
      ? advisory.updatedAt
      : sort === 'published'
        ? advisory.publishedAt
        : createdAt(advisory);
  return cursorPage(context, own, dateOf, docs, (advisory) =>
    repositoryShape(advisory, repo, context.baseUrl),
  );
}

/** Repository advisories are drafted a few days before they are published. */
function createdAt(advisory: DoubleAdvisory): string {
  const ms = Date.parse(advisory.publishedAt) - 3 * 86_400_000;
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

// --- Cursor paging -----------------------------------------------------------------------------

function cursorOf(advisory: DoubleAdvisory): string {
  return Buffer.from(`cursor:v2:${advisory.ghsaId}`).toString('base64');
}

function cursorPage(
  context: RouteContext,
  advisories: readonly DoubleAdvisory[],
  dateOf: (advisory: DoubleAdvisory) => string,
  docs: string,
  shape: (advisory: DoubleAdvisory) => JsonObject,
): RouteResult {
  const params = context.url.searchParams;
  const direction = params.get('direction') ?? 'desc';
  if (direction !== 'asc' && direction !== 'desc') return invalid(`Invalid direction: ${direction}`, docs);
  const perPageText = params.get('per_page');
  const perPage = perPageText === null ? DEFAULT_PER_PAGE : Number(perPageText);
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > MAX_PER_PAGE) {
    return invalid(`per_page must be between 1 and ${MAX_PER_PAGE}`, docs);
  }
  const sign = direction === 'asc' ? 1 : -1;
  const sorted = [...advisories].sort(
    (a, b) => sign * (Date.parse(dateOf(a)) - Date.parse(dateOf(b)) || a.ghsaId.localeCompare(b.ghsaId)),
  );
  const indexOf = (cursor: string): number =>
    sorted.findIndex((advisory) => cursorOf(advisory) === cursor.replace(/ /g, '+'));
  let start = 0;
  let end = Math.min(sorted.length, perPage);
  const after = params.get('after');
  const before = params.get('before');
  if (after !== null || before !== null) {
    const index = indexOf(after ?? before ?? '');
    if (index < 0) {
      return { status: 400, body: restError('Invalid cursor', docs, 400) };
    }
    start = after !== null ? index + 1 : Math.max(0, index - perPage);
    end = after !== null ? Math.min(sorted.length, start + perPage) : index;
  }
  const page = sorted.slice(start, end);
  const links: string[] = [];
  const pageUrl = (name: 'after' | 'before', cursor: string): string => {
    const next = new URLSearchParams(params);
    next.delete('after');
    next.delete('before');
    next.delete('page');
    next.set(name, cursor);
    return `<${context.baseUrl}${context.url.pathname}?${next.toString()}>`;
  };
  const first = page[0];
  const last = page.at(-1);
  if (first && start > 0) links.push(`${pageUrl('before', cursorOf(first))}; rel="prev"`);
  if (last && end < sorted.length) links.push(`${pageUrl('after', cursorOf(last))}; rel="next"`);
  return {
    status: 200,
    body: page.map(shape) as JsonValue,
    headers: links.length ? { link: links.join(', ') } : {},
    conditional: true,
  };
}

// --- Shapes ------------------------------------------------------------------------------------

function identifiers(advisory: DoubleAdvisory): JsonObject[] {
  return [
    { value: advisory.ghsaId, type: 'GHSA' },
    ...(advisory.cveId ? [{ value: advisory.cveId, type: 'CVE' }] : []),
  ];
}

function cvssOf(advisory: DoubleAdvisory): { cvss: JsonObject; cvss_severities: JsonObject } {
  const v3 = advisory.cvss
    ? { vector_string: advisory.cvss.vectorString, score: advisory.cvss.score }
    : { vector_string: null, score: null };
  return { cvss: v3, cvss_severities: { cvss_v3: v3, cvss_v4: { vector_string: null, score: null } } };
}

/** `security-advisories/list-global-advisories`: GitHub's field order. */
export function globalShape(advisory: DoubleAdvisory, baseUrl: string): JsonObject {
  const repositoryAdvisoryUrl =
    advisory.repositoryAdvisory && advisory.repository
      ? `${baseUrl}/repos/${advisory.repository}/security-advisories/${advisory.ghsaId}`
      : null;
  return {
    ghsa_id: advisory.ghsaId,
    cve_id: advisory.cveId,
    url: `${baseUrl}/advisories/${advisory.ghsaId}`,
    html_url: `${WEB_URL}/advisories/${advisory.ghsaId}`,
    repository_advisory_url: repositoryAdvisoryUrl,
    summary: advisory.summary,
    description: advisory.description,
    type: advisory.type,
    severity: advisory.severity,
    source_code_location: advisory.repository ? `${WEB_URL}/${advisory.repository}` : null,
    identifiers: identifiers(advisory),
    references: [
      `${WEB_URL}/advisories/${advisory.ghsaId}`,
      ...(advisory.cveId ? [`https://nvd.nist.gov/vuln/detail/${advisory.cveId}`] : []),
      ...(advisory.repository ? [`${WEB_URL}/${advisory.repository}`] : []),
    ],
    published_at: advisory.publishedAt,
    updated_at: advisory.updatedAt,
    github_reviewed_at: advisory.type === 'reviewed' ? advisory.publishedAt : null,
    nvd_published_at: advisory.nvdPublishedAt,
    withdrawn_at: advisory.withdrawnAt,
    vulnerabilities: advisory.vulnerabilities.map((v) => ({
      package: { ecosystem: v.ecosystem, name: v.package },
      vulnerable_version_range: v.vulnerableVersionRange,
      first_patched_version: v.firstPatchedVersion,
      vulnerable_functions: v.vulnerableFunctions,
    })),
    ...cvssOf(advisory),
    cwes: advisory.cwes.map((cwe) => ({ cwe_id: cwe.cweId, name: cwe.name })),
    credits: [],
  };
}

/** `security-advisories/list-repository-advisories`: GitHub's field order. */
export function repositoryShape(
  advisory: DoubleAdvisory,
  repo: DoubleRepository,
  baseUrl: string,
): JsonObject {
  return {
    ghsa_id: advisory.ghsaId,
    cve_id: advisory.cveId,
    url: `${baseUrl}/repos/${repo.fullName}/security-advisories/${advisory.ghsaId}`,
    html_url: `${WEB_URL}/${repo.fullName}/security/advisories/${advisory.ghsaId}`,
    summary: advisory.summary,
    description: advisory.description,
    // Repository advisories have no "unknown": an unassessed one has no severity.
    severity: advisory.severity === 'unknown' ? null : advisory.severity,
    author: restUser(repo.owner, baseUrl),
    publisher: restUser(repo.owner, baseUrl),
    identifiers: identifiers(advisory),
    state: advisory.withdrawnAt ? 'withdrawn' : 'published',
    created_at: createdAt(advisory),
    updated_at: advisory.updatedAt,
    published_at: advisory.publishedAt,
    closed_at: null,
    withdrawn_at: advisory.withdrawnAt,
    submission: null,
    vulnerabilities: advisory.vulnerabilities.map((v) => ({
      package: { ecosystem: v.ecosystem, name: v.package },
      vulnerable_version_range: v.vulnerableVersionRange,
      patched_versions: v.firstPatchedVersion,
      vulnerable_functions: v.vulnerableFunctions,
    })),
    ...cvssOf(advisory),
    cwes: advisory.cwes.map((cwe) => ({ cwe_id: cwe.cweId, name: cwe.name })),
    cwe_ids: advisory.cwes.map((cwe) => cwe.cweId),
    credits: [],
    credits_detailed: [],
    collaborating_users: null,
    collaborating_teams: null,
    private_fork: null,
  };
}
