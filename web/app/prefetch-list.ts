import type { QueryClient } from '@tanstack/react-query';
import { repositoryPagesOptions } from '#web/catalogue/get-repository-pages.ts';
import { listQuery, readListView } from '#web/features/repositories/lib/list-view.ts';

/** The hash paths a member sees the list on (`/` sends a member to `/home`). */
const LIST_PATHS = new Set(['', '/', '/home']);

/**
 * The list's first page for the address the tab opened on, requested while the session check
 * (GET /auth/me) is under way instead of after it and the screen's chunks
 * (docs/architecture.md#web-app). The cache entry is the one the list screen reads; a refused
 * token ends as today (the shared refresh, then the session is cleared with every cached query).
 */
export function prefetchRepositoryList(client: QueryClient, hash: string): void {
  const address = hash.replace(/^#/, '');
  const [path = '', search = ''] = address.split('?', 2);
  if (!LIST_PATHS.has(path)) return;
  const view = readListView(new URLSearchParams(search));
  void client.prefetchInfiniteQuery(repositoryPagesOptions(listQuery(view.search, view)));
}
