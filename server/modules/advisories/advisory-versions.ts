import semver from 'semver';

/**
 * Version numbers compared as versions (docs/product.md#advisories): a tag `v1.1.0` is version
 * 1.1.0, `release-2.3` is 2.3.0; a tag with no version in it is left out of every comparison.
 */
export function versionOf(text: string | null | undefined): string | null {
  if (!text) return null;
  const clean = semver.clean(text, { loose: true });
  if (clean) return clean;
  return semver.coerce(text, { loose: true })?.version ?? null;
}

/** The lowest version a `patched_versions` text names ("1.2.3", ">= 1.2.3", "1.2.3, 2.0.1"). */
export function firstPatched(text: string | null): string | null {
  if (!text) return null;
  const versions = text
    .split(',')
    .map((part) => versionOf(part.replace(/^[\s>=~^]+/, '')))
    .filter((version): version is string => version !== null);
  return versions.sort(semver.compare)[0] ?? null;
}

export interface TrackedVersion {
  id: number;
  version_number: string;
}

/**
 * Whether an advisory is open for the repository and which tracked version fixes it: open when
 * not withdrawn and either no patched version exists, or no tracked release reaches the first
 * patched one (the latest tracked release is older). The fixing version is the earliest tracked
 * one at or past the first patched version.
 */
export function judgeAdvisory(
  advisory: { withdrawn_at: string | null; patched_versions: string | null },
  tracked: readonly TrackedVersion[],
): { open: boolean; fixedInVersionId: number | null } {
  const patched = firstPatched(advisory.patched_versions);
  let fixedIn: { id: number; version: string } | null = null;
  if (patched) {
    for (const entry of tracked) {
      const version = versionOf(entry.version_number);
      if (!version || semver.lt(version, patched)) continue;
      if (!fixedIn || semver.lt(version, fixedIn.version)) fixedIn = { id: entry.id, version };
    }
  }
  return {
    open: advisory.withdrawn_at === null && fixedIn === null,
    fixedInVersionId: fixedIn?.id ?? null,
  };
}
