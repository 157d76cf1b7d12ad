/**
 * web/catalogue/ holds the catalogue reads several features share (the repository list's pages,
 * tags, statistics, the sidebar's counts), one file per call; it imports no feature.
 *
 * The catalogue's query keys (docs/product.md#catalogue-queries). Every read of the catalogue
 * — list pages, the sidebar counts, tag counts, statistics — sits under one prefix, itself under
 * the repositories feature's `['repositories']`, so a change (add, sync, save, delete) refreshes
 * them all with one invalidation. Kept apart from the fetchers so the app shell can name a key
 * without loading a screen's code.
 */
export const CATALOGUE_KEY = ['repositories', 'catalogue'] as const;

export const catalogueKeys = {
  all: CATALOGUE_KEY,
  /** One infinite list: its filters, sort and page size. */
  list: (query: object) => [...CATALOGUE_KEY, 'list', query] as const,
  counts: [...CATALOGUE_KEY, 'counts'] as const,
  /** The team's decisions due for review (the sidebar's Radar badge); a decision refreshes it. */
  reviewsDue: [...CATALOGUE_KEY, 'reviews-due'] as const,
  tags: (filters: object) => [...CATALOGUE_KEY, 'tags', filters] as const,
  stats: (filters: object) => [...CATALOGUE_KEY, 'stats', filters] as const,
  /** The admin dashboard's list of every repository. */
  admin: (query: object) => [...CATALOGUE_KEY, 'admin', query] as const,
};

/** Drops unset and empty values, so equal queries make equal keys. */
export function compactQuery<T extends object>(query: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(query).filter(([, value]) => value !== undefined && value !== null && value !== ''),
  ) as Partial<T>;
}
