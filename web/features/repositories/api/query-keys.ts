import { CATALOGUE_KEY } from '#web/catalogue/catalogue-keys.ts';

/**
 * The repositories feature's query keys. Everything starts with 'repositories', so a change
 * (add, sync, save, delete) can invalidate the lot with one call. `list()` is the prefix of every
 * catalogue read — the list's pages, tag counts, statistics and the sidebar counts — so
 * invalidating it refreshes each of them.
 */
export const repositoryKeys = {
  all: ['repositories'] as const,
  list: () => CATALOGUE_KEY,
  detail: (fullName: string) => ['repositories', 'detail', fullName] as const,
  metrics: (fullName: string) => ['repositories', 'metrics', fullName] as const,
  commits: (fullName: string) => ['repositories', 'commits', fullName] as const,
  versions: (fullName: string) => ['repositories', 'versions', fullName] as const,
  health: (fullName: string) => ['repositories', 'health', fullName] as const,
  advisories: (fullName: string) => ['repositories', 'advisories', fullName] as const,
};

/** The full name travels URL-encoded (`owner%2Fname`). */
export function repositoryPath(fullName: string): string {
  return `/repositories/${encodeURIComponent(fullName)}`;
}
