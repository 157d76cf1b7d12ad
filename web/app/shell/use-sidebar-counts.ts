/** The sidebar's badges (SPEC §3 "sidebar counts"); null hides a badge. */
export interface SidebarCounts {
  /** The member's own repositories (by user_id). */
  repositories: number | null;
  /** Distinct tags over every repository the member can see. */
  tags: number | null;
}

/**
 * Placeholder until the repositories feature exists: it will derive both counts from the
 * repository list query, so the sidebar costs no extra request.
 */
export function useSidebarCounts(): SidebarCounts {
  return { repositories: null, tags: null };
}
