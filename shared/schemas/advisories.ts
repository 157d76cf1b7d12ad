/**
 * Security advisories for a repository (docs/product.md#advisories): the ones it published
 * itself and the ones GitHub's advisory database holds for the packages it publishes, one per
 * GHSA id, with whether each is still open for the repository's latest tracked release.
 */
import { z } from 'zod';

/** Most severe first; `unknown` is an advisory GitHub has not rated. */
export const ADVISORY_SEVERITIES = ['critical', 'high', 'medium', 'low', 'unknown'] as const;
export type AdvisorySeverity = (typeof ADVISORY_SEVERITIES)[number];
export const advisorySeveritySchema = z.enum(ADVISORY_SEVERITIES);

/**
 * A severity's rank, for "at least this severe": `unknown` counts below `low` (nobody rated it),
 * and 0 means no open advisory at all (the repositories row's `advisory_level`).
 */
export const SEVERITY_RANK: Record<AdvisorySeverity, number> = {
  unknown: 1,
  low: 2,
  medium: 3,
  high: 4,
  critical: 5,
};

/** The default floor of a rule's `min_severity` (docs/product.md#notification-rules). */
export const DEFAULT_MIN_SEVERITY: AdvisorySeverity = 'high';

/** GitHub's advisory ecosystems (what `GET /advisories?ecosystem=` takes). */
export const PACKAGE_ECOSYSTEMS = [
  'npm',
  'pip',
  'rust',
  'go',
  'composer',
  'rubygems',
  'maven',
  'nuget',
  'erlang',
  'pub',
  'swift',
  'actions',
] as const;
export type PackageEcosystem = (typeof PACKAGE_ECOSYSTEMS)[number];

export const ECOSYSTEM_LABELS: Record<PackageEcosystem, string> = {
  npm: 'npm',
  pip: 'PyPI',
  rust: 'crates.io',
  go: 'Go',
  composer: 'Composer',
  rubygems: 'RubyGems',
  maven: 'Maven',
  nuget: 'NuGet',
  erlang: 'Hex',
  pub: 'pub',
  swift: 'Swift',
  actions: 'GitHub Actions',
};

export const PACKAGES_MAX = 20;
export const PACKAGE_NAME_MAX = 214;

export const packageRefSchema = z
  .object({
    ecosystem: z.enum(PACKAGE_ECOSYSTEMS, {
      error: `ecosystem must be one of ${PACKAGE_ECOSYSTEMS.join(', ')}`,
    }),
    name: z
      .string({ error: 'Package name is required' })
      .trim()
      .min(1, 'Package name is required')
      .max(PACKAGE_NAME_MAX, `A package name has at most ${PACKAGE_NAME_MAX} characters`)
      .regex(/^[^\s,]+$/, 'A package name has no spaces or commas'),
  })
  .meta({ id: 'PackageRef' });
export type PackageRef = z.infer<typeof packageRefSchema>;

export const repositoryPackageSchema = packageRefSchema
  .extend({
    /** Found in the default branch's root manifest at the last health read (false: added by a member). */
    detected: z.boolean(),
  })
  .meta({ id: 'RepositoryPackage' });
export type RepositoryPackage = z.infer<typeof repositoryPackageSchema>;

export const advisorySchema = z
  .object({
    ghsa_id: z.string(),
    cve_id: z.string().nullable(),
    severity: advisorySeveritySchema,
    summary: z.string(),
    url: z.string(),
    published_at: z.string(),
    withdrawn_at: z.string().nullable(),
    /** Not withdrawn, and no patched version or the latest tracked release older than it. */
    open: z.boolean(),
    /** `repository`: the repository published it; `global`: GitHub's database, for one of its packages. */
    source: z.enum(['repository', 'global']),
    package: packageRefSchema.nullable(),
    vulnerable_range: z.string().nullable(),
    patched_versions: z.string().nullable(),
    /** The tracked version (Version Tracker) that first carries the fix, when one does. */
    fixed_in_version_id: z.number().int().nullable(),
  })
  .meta({ id: 'Advisory' });
export type Advisory = z.infer<typeof advisorySchema>;

export const advisoriesResponseSchema = z
  .object({
    advisories: z.array(advisorySchema),
    packages: z.array(repositoryPackageSchema),
    /** When the advisories were last read from GitHub; null before the first read. */
    read_at: z.string().nullable(),
  })
  .meta({ id: 'RepositoryAdvisories' });
export type AdvisoriesResponse = z.infer<typeof advisoriesResponseSchema>;

export const packagesBodySchema = z
  .object({
    packages: z
      .array(packageRefSchema)
      .max(PACKAGES_MAX, `A repository lists at most ${PACKAGES_MAX} packages`),
  })
  .superRefine((body, ctx) => {
    const seen = new Set<string>();
    body.packages.forEach((entry, index) => {
      const key = `${entry.ecosystem}:${entry.name.toLowerCase()}`;
      if (seen.has(key)) {
        ctx.addIssue({
          code: 'custom',
          message: `${entry.name} (${entry.ecosystem}) is listed twice`,
          path: ['packages', index, 'name'],
        });
      }
      seen.add(key);
    });
  });
export type PackagesBody = z.infer<typeof packagesBodySchema>;

/** Open advisories by severity, on every list row. */
export const openAdvisoriesSchema = z
  .object({
    critical: z.number().int(),
    high: z.number().int(),
    medium: z.number().int(),
    low: z.number().int(),
    unknown: z.number().int(),
  })
  .meta({ id: 'OpenAdvisories' });
export type OpenAdvisories = z.infer<typeof openAdvisoriesSchema>;

/** `advisories=high`: the severity, or null when the text names none. */
export function parseSeverity(value: string): AdvisorySeverity | null {
  return (ADVISORY_SEVERITIES as readonly string[]).includes(value) ? (value as AdvisorySeverity) : null;
}
