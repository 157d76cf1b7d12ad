import { CATALOGUE_KEY } from '#web/catalogue/catalogue-keys.ts';

/**
 * The activity's query keys, under the catalogue's prefix: an add, an update from GitHub or a
 * deletion invalidates the catalogue, and with it every activity page and repository card, since
 * each can record or remove events.
 */
export const activityKeys = {
  all: [...CATALOGUE_KEY, 'activity'] as const,
  /** One infinite list: its filters and page size. */
  pages: (query: object) => [...CATALOGUE_KEY, 'activity', 'pages', query] as const,
  /** A repository's own latest events (the detail page's card). */
  repository: (fullName: string, limit: number) =>
    [...CATALOGUE_KEY, 'activity', 'repository', fullName, limit] as const,
};
