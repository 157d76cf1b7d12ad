import { isoSeconds } from './catalogue.ts';
import type { SnapshotDate } from './ranking-snapshots.ts';
import { hashUint32 } from './stable-hash.ts';

/**
 * Security advisories (pure, no HTTP): GitHub's global advisory database (`GET /advisories`)
 * and the repository advisories a repository published (`GET /repos/{o}/{r}/security-advisories`).
 * A handful are seeded for packages of real fixture repositories (their names match the root
 * manifests health-activity.ts derives); tests add and withdraw more at runtime. Identifiers
 * are synthetic (GHSA ids in GitHub's alphabet, CVE ids in a 2xxxx-99xxx range), so they never
 * name a real vulnerability. A snapshot serves what was published by its "now", as it stood
 * then (an advisory withdrawn later is not withdrawn yet); added ones are served in both.
 */

export type AdvisoryEcosystem =
  | 'rubygems'
  | 'npm'
  | 'pip'
  | 'maven'
  | 'nuget'
  | 'composer'
  | 'go'
  | 'rust'
  | 'erlang'
  | 'actions'
  | 'pub'
  | 'other'
  | 'swift';
export const ADVISORY_ECOSYSTEMS: readonly AdvisoryEcosystem[] = [
  'rubygems',
  'npm',
  'pip',
  'maven',
  'nuget',
  'composer',
  'go',
  'rust',
  'erlang',
  'actions',
  'pub',
  'other',
  'swift',
];
export type AdvisorySeverity = 'critical' | 'high' | 'medium' | 'low' | 'unknown';
export const ADVISORY_SEVERITIES: readonly AdvisorySeverity[] = [
  'low',
  'medium',
  'high',
  'critical',
  'unknown',
];
export type AdvisoryType = 'reviewed' | 'unreviewed' | 'malware';
export const ADVISORY_TYPES: readonly AdvisoryType[] = ['reviewed', 'unreviewed', 'malware'];

export interface AdvisoryVulnerability {
  ecosystem: AdvisoryEcosystem;
  package: string;
  /** e.g. `< 4.21.1` or `>= 1.0.0, < 1.7.4`. */
  vulnerableVersionRange: string;
  /** null: no fixed version yet. */
  firstPatchedVersion: string | null;
  vulnerableFunctions: string[];
}

export interface DoubleAdvisory {
  ghsaId: string;
  cveId: string | null;
  summary: string;
  description: string;
  type: AdvisoryType;
  severity: AdvisorySeverity;
  /** The repository (`owner/name`) whose code it concerns; it published a repository advisory when `repositoryAdvisory`. */
  repository: string | null;
  repositoryAdvisory: boolean;
  publishedAt: string;
  updatedAt: string;
  withdrawnAt: string | null;
  nvdPublishedAt: string | null;
  vulnerabilities: AdvisoryVulnerability[];
  cvss: { vectorString: string; score: number } | null;
  cwes: Array<{ cweId: string; name: string }>;
  /** Added at runtime: served whatever the snapshot. */
  added?: boolean;
}

/** What `addAdvisory` takes: the rest is derived (ids from the summary, dates now). */
export interface NewAdvisory {
  summary: string;
  severity?: AdvisorySeverity;
  type?: AdvisoryType;
  repository?: string | null;
  repositoryAdvisory?: boolean;
  vulnerabilities: Array<{
    ecosystem: AdvisoryEcosystem;
    package: string;
    vulnerableVersionRange?: string;
    firstPatchedVersion?: string | null;
  }>;
  ghsaId?: string;
  cveId?: string | null;
  description?: string;
  publishedAt?: string;
}

const GHSA_ALPHABET = '23456789cfghjmpqrvwx';

/** A GHSA id (`GHSA-xxxx-xxxx-xxxx` in GitHub's alphabet) derived from a seed. */
export function ghsaIdFor(seed: string): string {
  const parts = [0, 1, 2].map((part) => {
    let value = hashUint32(`${seed}:ghsa:${part}`);
    let text = '';
    for (let i = 0; i < 4; i++) {
      text += GHSA_ALPHABET[value % GHSA_ALPHABET.length];
      value = Math.floor(value / GHSA_ALPHABET.length);
    }
    return text;
  });
  return `GHSA-${parts.join('-')}`;
}

function cveIdFor(seed: string, year: number): string {
  return `CVE-${year}-${20_000 + (hashUint32(`${seed}:cve`) % 80_000)}`;
}

const CWE_79 = {
  cweId: 'CWE-79',
  name: "Improper Neutralization of Input During Web Page Generation ('Cross-site Scripting')",
};
const CWE_400 = { cweId: 'CWE-400', name: 'Uncontrolled Resource Consumption' };
const CWE_918 = { cweId: 'CWE-918', name: 'Server-Side Request Forgery (SSRF)' };
const CWE_1321 = {
  cweId: 'CWE-1321',
  name: "Improperly Controlled Modification of Object Prototype Attributes ('Prototype Pollution')",
};
const CWE_22 = {
  cweId: 'CWE-22',
  name: "Improper Limitation of a Pathname to a Restricted Directory ('Path Traversal')",
};
const CWE_89 = {
  cweId: 'CWE-89',
  name: "Improper Neutralization of Special Elements used in an SQL Command ('SQL Injection')",
};

function seeded(
  seed: string,
  advisory: Omit<DoubleAdvisory, 'ghsaId' | 'cveId' | 'nvdPublishedAt'> & { cve: boolean },
): DoubleAdvisory {
  const { cve, ...rest } = advisory;
  const year = Number(advisory.publishedAt.slice(0, 4));
  return {
    ghsaId: ghsaIdFor(seed),
    cveId: cve ? cveIdFor(seed, year) : null,
    nvdPublishedAt: cve ? isoSeconds(Date.parse(advisory.publishedAt) + 2 * 86_400_000) : null,
    ...rest,
  };
}

/** The seeded advisories, oldest first. Their GHSA ids are exported for tests. */
export const SEEDED_ADVISORIES: readonly DoubleAdvisory[] = [
  seeded('express-open-redirect', {
    cve: true,
    summary: 'Express open redirect in malformed URLs passed to res.location()',
    description:
      'Versions of express before 4.21.1 pass user-controlled URLs to `res.location()` and `res.redirect()` without encoding them, which allows an open redirect.',
    type: 'reviewed',
    severity: 'medium',
    repository: 'expressjs/express',
    repositoryAdvisory: true,
    publishedAt: '2024-10-08T19:52:47Z',
    updatedAt: '2024-11-18T16:27:11Z',
    withdrawnAt: null,
    vulnerabilities: [
      {
        ecosystem: 'npm',
        package: 'express',
        vulnerableVersionRange: '< 4.21.1',
        firstPatchedVersion: '4.21.1',
        vulnerableFunctions: ['res.location', 'res.redirect'],
      },
    ],
    cvss: { vectorString: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:U/C:L/I:L/A:N', score: 5.4 },
    cwes: [CWE_79],
  }),
  seeded('lodash-prototype-pollution', {
    cve: true,
    summary: 'Prototype pollution in lodash zipObjectDeep',
    description:
      'A crafted path passed to `zipObjectDeep` could modify `Object.prototype`. Withdrawn: the affected code path is unreachable in released versions.',
    type: 'reviewed',
    severity: 'high',
    repository: 'lodash/lodash',
    repositoryAdvisory: false,
    publishedAt: '2025-03-11T14:05:10Z',
    updatedAt: '2026-02-03T09:12:00Z',
    withdrawnAt: '2026-02-03T09:12:00Z',
    vulnerabilities: [
      {
        ecosystem: 'npm',
        package: 'lodash',
        vulnerableVersionRange: '>= 4.17.0, <= 4.17.21',
        firstPatchedVersion: null,
        vulnerableFunctions: ['zipObjectDeep'],
      },
    ],
    cvss: { vectorString: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:H/A:L', score: 8.2 },
    cwes: [CWE_1321],
  }),
  seeded('django-sql-injection', {
    cve: true,
    summary: 'Django SQL injection in column aliases of QuerySet.annotate()',
    description:
      'Column aliases built from untrusted dictionary keys in `QuerySet.annotate()`, `aggregate()` and `extra()` were not escaped.',
    type: 'reviewed',
    severity: 'critical',
    repository: 'django/django',
    repositoryAdvisory: false,
    publishedAt: '2025-05-07T15:30:00Z',
    updatedAt: '2025-05-09T08:00:00Z',
    withdrawnAt: null,
    vulnerabilities: [
      {
        ecosystem: 'pip',
        package: 'django',
        vulnerableVersionRange: '>= 5.1.0, < 5.1.9',
        firstPatchedVersion: '5.1.9',
        vulnerableFunctions: [],
      },
      {
        ecosystem: 'pip',
        package: 'django',
        vulnerableVersionRange: '< 4.2.21',
        firstPatchedVersion: '4.2.21',
        vulnerableFunctions: [],
      },
    ],
    cvss: { vectorString: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', score: 9.8 },
    cwes: [CWE_89],
  }),
  seeded('tokio-broadcast-race', {
    cve: false,
    summary: 'tokio broadcast channel calls clone in parallel without Sync',
    description:
      'The broadcast channel internally calls `clone` on the stored value from several threads at once; values that are `Send` but not `Sync` can be corrupted.',
    type: 'reviewed',
    severity: 'low',
    repository: 'tokio-rs/tokio',
    repositoryAdvisory: true,
    publishedAt: '2025-06-02T11:20:00Z',
    updatedAt: '2025-06-02T11:20:00Z',
    withdrawnAt: null,
    vulnerabilities: [
      {
        ecosystem: 'rust',
        package: 'tokio',
        vulnerableVersionRange: '>= 0.1.0, < 1.44.2',
        firstPatchedVersion: '1.44.2',
        vulnerableFunctions: ['tokio::sync::broadcast::Receiver::recv'],
      },
    ],
    cvss: null,
    cwes: [],
  }),
  seeded('gin-path-traversal', {
    cve: true,
    summary: 'Gin static file handler allows path traversal on Windows',
    description:
      'On Windows, `StaticFS` and `Static` did not reject backslash-separated `..` segments, which exposed files outside the served directory.',
    type: 'reviewed',
    severity: 'high',
    repository: 'gin-gonic/gin',
    repositoryAdvisory: true,
    publishedAt: '2025-11-19T10:00:00Z',
    updatedAt: '2025-12-01T10:00:00Z',
    withdrawnAt: null,
    vulnerabilities: [
      {
        ecosystem: 'go',
        package: 'github.com/gin-gonic/gin',
        vulnerableVersionRange: '< 1.10.2',
        firstPatchedVersion: '1.10.2',
        vulnerableFunctions: ['Static', 'StaticFS'],
      },
    ],
    cvss: { vectorString: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N', score: 7.5 },
    cwes: [CWE_22],
  }),
  seeded('axios-ssrf-absolute-url', {
    cve: true,
    summary: 'axios follows absolute URLs despite baseURL, enabling SSRF',
    description:
      'Requests with an absolute URL are sent to that URL even when `baseURL` is set, so user-controlled paths can reach internal hosts. No fixed version has been released yet.',
    type: 'reviewed',
    severity: 'critical',
    repository: 'axios/axios',
    repositoryAdvisory: false,
    publishedAt: '2026-05-12T18:40:00Z',
    updatedAt: '2026-06-30T07:15:00Z',
    withdrawnAt: null,
    vulnerabilities: [
      {
        ecosystem: 'npm',
        package: 'axios',
        vulnerableVersionRange: '>= 1.0.0, <= 1.11.0',
        firstPatchedVersion: null,
        vulnerableFunctions: [],
      },
    ],
    cvss: { vectorString: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:L/A:N', score: 9.3 },
    cwes: [CWE_918],
  }),
  seeded('laravel-unknown-severity', {
    cve: false,
    summary: 'Laravel framework validation bypass in nested array rules',
    description:
      'Nested wildcard validation rules could be skipped for some inputs. Severity not yet assessed.',
    type: 'reviewed',
    severity: 'unknown',
    repository: 'laravel/framework',
    repositoryAdvisory: false,
    publishedAt: '2026-07-29T12:00:00Z',
    updatedAt: '2026-07-29T12:00:00Z',
    withdrawnAt: null,
    vulnerabilities: [
      {
        ecosystem: 'composer',
        package: 'laravel/framework',
        vulnerableVersionRange: '>= 11.0.0, < 11.44.1',
        firstPatchedVersion: '11.44.1',
        vulnerableFunctions: [],
      },
    ],
    cvss: null,
    cwes: [CWE_400],
  }),
];

export const SEEDED_ADVISORY_IDS = {
  expressPatched: SEEDED_ADVISORIES[0]?.ghsaId ?? '',
  lodashWithdrawn: SEEDED_ADVISORIES[1]?.ghsaId ?? '',
  djangoCritical: SEEDED_ADVISORIES[2]?.ghsaId ?? '',
  tokioLow: SEEDED_ADVISORIES[3]?.ghsaId ?? '',
  ginHigh: SEEDED_ADVISORIES[4]?.ghsaId ?? '',
  axiosUnpatched: SEEDED_ADVISORIES[5]?.ghsaId ?? '',
  laravelUnknown: SEEDED_ADVISORIES[6]?.ghsaId ?? '',
} as const;

/** The seeded advisories plus those added and withdrawn in one double. */
export class AdvisoryStore {
  #added: DoubleAdvisory[] = [];
  /** ghsa id → withdrawn at (runtime withdrawals). */
  #withdrawn = new Map<string, string>();

  reset(): void {
    this.#added = [];
    this.#withdrawn.clear();
  }

  add(input: NewAdvisory, nowMs = Date.now()): DoubleAdvisory {
    const now = isoSeconds(nowMs);
    const seed = `added:${input.summary}:${this.#added.length}`;
    const ghsaId = input.ghsaId ?? ghsaIdFor(seed);
    if (this.#find(ghsaId)) throw new Error(`Advisory ${ghsaId} exists already`);
    const publishedAt = input.publishedAt ?? now;
    const advisory: DoubleAdvisory = {
      ghsaId,
      cveId: input.cveId === undefined ? cveIdFor(seed, Number(publishedAt.slice(0, 4))) : input.cveId,
      summary: input.summary,
      description: input.description ?? input.summary,
      type: input.type ?? 'reviewed',
      severity: input.severity ?? 'medium',
      repository: input.repository ?? null,
      repositoryAdvisory: input.repositoryAdvisory ?? false,
      publishedAt,
      updatedAt: publishedAt,
      withdrawnAt: null,
      nvdPublishedAt: null,
      vulnerabilities: input.vulnerabilities.map((vulnerability) => ({
        ecosystem: vulnerability.ecosystem,
        package: vulnerability.package,
        vulnerableVersionRange: vulnerability.vulnerableVersionRange ?? '< 999.0.0',
        firstPatchedVersion: vulnerability.firstPatchedVersion ?? null,
        vulnerableFunctions: [],
      })),
      cvss: null,
      cwes: [],
      added: true,
    };
    this.#added.push(advisory);
    return advisory;
  }

  /** Withdraws an advisory (seeded or added); false when there is none with this id. */
  withdraw(ghsaId: string, nowMs = Date.now()): boolean {
    if (!this.#find(ghsaId)) return false;
    this.#withdrawn.set(ghsaId.toUpperCase(), isoSeconds(nowMs));
    return true;
  }

  /** Every advisory served in `snapshot`, as it stands there (oldest first). */
  list(snapshot: SnapshotDate): DoubleAdvisory[] {
    const nowMs = Date.parse(`${snapshot}T00:00:00Z`) + 86_400_000 - 1000;
    const asOfSnapshot = SEEDED_ADVISORIES.filter(
      (advisory) => Date.parse(advisory.publishedAt) <= nowMs,
    ).map((advisory) =>
      advisory.withdrawnAt && Date.parse(advisory.withdrawnAt) > nowMs
        ? { ...advisory, withdrawnAt: null, updatedAt: advisory.publishedAt }
        : advisory,
    );
    return [...asOfSnapshot, ...this.#added].map((advisory) => {
      const withdrawnAt = this.#withdrawn.get(advisory.ghsaId.toUpperCase());
      return withdrawnAt && !advisory.withdrawnAt
        ? { ...advisory, withdrawnAt, updatedAt: withdrawnAt }
        : advisory;
    });
  }

  #find(ghsaId: string): DoubleAdvisory | undefined {
    const wanted = ghsaId.toUpperCase();
    return [...SEEDED_ADVISORIES, ...this.#added].find(
      (advisory) => advisory.ghsaId.toUpperCase() === wanted,
    );
  }
}

/** Whether `version` is in a range like `>= 1.0.0, < 1.7.4` (numeric dot versions). */
export function versionInRange(version: string, range: string): boolean {
  return range.split(',').every((part) => {
    const match = /^\s*(<=|>=|<|>|=)?\s*v?(\S+)\s*$/.exec(part);
    if (!match) return false;
    const order = compareVersions(version, match[2] ?? '');
    switch (match[1]) {
      case '<':
        return order < 0;
      case '<=':
        return order <= 0;
      case '>':
        return order > 0;
      case '>=':
        return order >= 0;
      default:
        return order === 0;
    }
  });
}

function compareVersions(a: string, b: string): number {
  const parts = (value: string) =>
    value
      .replace(/^v/, '')
      .split(/[.+-]/)
      .map((part) => Number.parseInt(part, 10) || 0);
  const left = parts(a);
  const right = parts(b);
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const difference = (left[i] ?? 0) - (right[i] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  return 0;
}
