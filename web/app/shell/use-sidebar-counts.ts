import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { RepositorySummary } from '../../../shared/schemas/repositories.ts';
import { countDistinctTags } from '../../../shared/tag-colors.ts';
import { useAuth } from '../../lib/auth/auth-context.tsx';
import { repositoriesQueryOptions } from '../../lib/repositories-query.ts';

/** The sidebar's badges (docs/product.md#app-shell); null hides a badge. */
export interface SidebarCounts {
  /** The member's own repositories (by user_id). */
  repositories: number | null;
  /** Distinct tags over every repository the member can see. */
  tags: number | null;
}

const HIDDEN: SidebarCounts = { repositories: null, tags: null };

export function computeSidebarCounts(rows: readonly RepositorySummary[], userId: number): SidebarCounts {
  let own = 0;
  for (const row of rows) if (row.user_id === userId) own += 1;
  return { repositories: own, tags: countDistinctTags(rows) };
}

/**
 * The member's own repositories (user_id equals theirs) and the distinct tags over
 * every returned row. Derived from the repository list query itself (the same key and
 * fetcher), so the sidebar costs no request of its own and updates when the list does.
 */
export function useSidebarCounts(): SidebarCounts {
  const { user } = useAuth();
  const userId = user?.id ?? null;
  const select = useCallback(
    (rows: RepositorySummary[]) => (userId === null ? HIDDEN : computeSidebarCounts(rows, userId)),
    [userId],
  );
  const { data } = useQuery({ ...repositoriesQueryOptions, select, enabled: userId !== null });
  return data ?? HIDDEN;
}
