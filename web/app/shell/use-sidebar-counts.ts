import { useCatalogueCounts } from '#web/catalogue/get-catalogue-counts.ts';
import { useReviewsDue } from '#web/catalogue/get-reviews-due.ts';
import { useAuth } from '#web/lib/auth/auth-context.tsx';

/** The sidebar's badges (docs/product.md#app-shell); null hides a badge. */
export interface SidebarCounts {
  /** The member's own repositories. */
  repositories: number | null;
  /** Distinct tags over every repository the member can see. */
  tags: number | null;
  /** The team's decisions due for review (on Radar); null when none is. */
  reviewsDue: number | null;
}

const HIDDEN: SidebarCounts = { repositories: null, tags: null, reviewsDue: null };

/**
 * The member's own repositories and the distinct tags over every visible repository, counted
 * by the server (`GET /repositories/counts`), and the decisions due for review
 * (`GET /decisions/reviews-due`). Under the catalogue's key, so adding, tagging or
 * deleting a repository refreshes the badges.
 */
export function useSidebarCounts(): SidebarCounts {
  const { user } = useAuth();
  const { data } = useCatalogueCounts({ enabled: user !== null });
  const reviews = useReviewsDue({ enabled: user !== null }).data;
  if (!user) return HIDDEN;
  return {
    repositories: data?.mine ?? null,
    tags: data?.tags ?? null,
    reviewsDue: reviews?.length ? reviews.length : null,
  };
}
