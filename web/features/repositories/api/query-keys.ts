import { REPOSITORY_LIST_KEY } from '../../../lib/repositories-query.ts';

/**
 * The repositories feature's query keys. Everything starts with 'repositories', so a change
 * (add, sync, save, delete) can invalidate the lot with one call. The Tags and Statistics
 * screens and the sidebar read the same list key, so one request serves them all.
 */
export const repositoryKeys = {
  all: ['repositories'] as const,
  list: () => REPOSITORY_LIST_KEY,
  detail: (fullName: string) => ['repositories', 'detail', fullName] as const,
  metrics: (fullName: string) => ['repositories', 'metrics', fullName] as const,
  commits: (fullName: string) => ['repositories', 'commits', fullName] as const,
  versions: (fullName: string) => ['repositories', 'versions', fullName] as const,
};

/** The full name travels URL-encoded (`owner%2Fname`). */
export function repositoryPath(fullName: string): string {
  return `/repositories/${encodeURIComponent(fullName)}`;
}
