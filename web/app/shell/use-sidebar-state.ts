import { useMediaQuery } from '@mantine/hooks';
import { useCallback, useEffect, useState } from 'react';
import { MOBILE_BREAKPOINT_PX, STORAGE_KEYS } from '#shared/constants.ts';
import { readJson, writeJson } from '#web/lib/storage.ts';

/** What the sidebar keeps in local storage under STORAGE_KEYS.sidebar. */
export interface StoredSidebarState {
  isCollapsed: boolean;
  isMobile: boolean;
}

export const MOBILE_MEDIA_QUERY = `(max-width: ${MOBILE_BREAKPOINT_PX}px)`;

function readStoredCollapsed(): boolean {
  const stored = readJson(localStorage, STORAGE_KEYS.sidebar);
  return (
    typeof stored === 'object' && stored !== null && 'isCollapsed' in stored && stored.isCollapsed === true
  );
}

export interface SidebarState {
  isMobile: boolean;
  /** Desktop: 60 px icon rail instead of the 240 px sidebar. */
  isCollapsed: boolean;
  /** Mobile: the overlay is open. It starts closed on every load. */
  isMobileOpen: boolean;
  toggleCollapsed: () => void;
  toggleMobile: () => void;
  closeMobile: () => void;
}

/**
 * `isCollapsed` is the desktop choice and survives reloads; the mobile overlay's open state
 * doesn't, because it must start closed (docs/product.md#app-shell).
 */
export function useSidebarState(): SidebarState {
  const isMobile = useMediaQuery(MOBILE_MEDIA_QUERY, false, { getInitialValueInEffect: false });
  const [isCollapsed, setCollapsed] = useState(readStoredCollapsed);
  const [isMobileOpen, setMobileOpen] = useState(false);

  useEffect(() => {
    writeJson(localStorage, STORAGE_KEYS.sidebar, { isCollapsed, isMobile } satisfies StoredSidebarState);
  }, [isCollapsed, isMobile]);

  // Leaving the mobile layout must not leave a stale overlay behind for the next time.
  useEffect(() => {
    if (!isMobile) setMobileOpen(false);
  }, [isMobile]);

  const toggleCollapsed = useCallback(() => setCollapsed((collapsed) => !collapsed), []);
  const toggleMobile = useCallback(() => setMobileOpen((open) => !open), []);
  const closeMobile = useCallback(() => setMobileOpen(false), []);

  return { isMobile, isCollapsed, isMobileOpen, toggleCollapsed, toggleMobile, closeMobile };
}
