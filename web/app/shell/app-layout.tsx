import { AppShell, Box } from '@mantine/core';
import { lazy, Suspense, useEffect, useId } from 'react';
import { Outlet, useLocation } from 'react-router';
import { MOBILE_BREAKPOINT_PX, SIDEBAR_COLLAPSED_PX, SIDEBAR_EXPANDED_PX } from '#shared/constants.ts';
import { ErrorBoundary } from '#web/components/error-boundary.tsx';
import { ScreenLoader } from '#web/components/loading-screen.tsx';
import { useAppName } from '#web/features/system/hooks/use-app-name.ts';
import { useAuth } from '#web/lib/auth/auth-context.tsx';
import { useAppNameTitle } from '#web/lib/hooks/use-screen-title.ts';
import { loadMemberNavbar } from '../preload.ts';
import { AppFooter } from './app-footer.tsx';
import classes from './app-layout.module.css';
import { TopBar } from './top-bar.tsx';
import { useSidebarState } from './use-sidebar-state.ts';

const MemberNavbar = lazy(loadMemberNavbar);

const HEADER_HEIGHT = 56;

/** A button, not an `#main-content` link: with hash routing that link would be read as a route. */
function focusMain() {
  document.getElementById('main-content')?.focus();
}
const FOOTER_HEIGHT = 36;

/**
 * The app shell (docs/product.md#app-shell): top bar, the members' sidebar, the screen, and the version
 * footer.
 */
export function AppLayout() {
  const { user, logout } = useAuth();
  const location = useLocation();
  const sidebar = useSidebarState();
  const sidebarId = useId();
  const appName = useAppName();
  const signedIn = user !== null;
  const { isMobile, isMobileOpen, closeMobile } = sidebar;
  const collapsed = !isMobile && sidebar.isCollapsed;

  useAppNameTitle(appName);

  // Navigation closes the mobile overlay.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every location change on purpose
  useEffect(() => {
    closeMobile();
  }, [location.pathname, location.search, closeMobile]);

  // So does Escape.
  useEffect(() => {
    if (!isMobileOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') closeMobile();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [isMobileOpen, closeMobile]);

  // The route guard takes the visitor to `/` once the session is gone
  // (docs/product.md#route-guards-and-redirects).
  const signOut = () => {
    void logout();
  };

  return (
    <AppShell
      header={{ height: HEADER_HEIGHT }}
      navbar={
        signedIn
          ? {
              width: collapsed ? SIDEBAR_COLLAPSED_PX : SIDEBAR_EXPANDED_PX,
              // Mantine's desktop layout starts at min-width: breakpoint; the overlay is for ≤ 768 px.
              breakpoint: MOBILE_BREAKPOINT_PX + 1,
              collapsed: { mobile: !(isMobile && isMobileOpen), desktop: false },
            }
          : undefined
      }
      padding={0}
      // The footer follows the page instead of being pinned: the screen fills the viewport
      // minus the footer, so short pages still show it at the bottom.
      styles={{ main: { minHeight: `calc(100dvh - ${FOOTER_HEIGHT}px)` } }}
    >
      <button type="button" className={classes.skipLink} onClick={focusMain}>
        Skip to content
      </button>
      <AppShell.Header>
        <TopBar
          signedIn={signedIn}
          isMobile={isMobile}
          isMobileOpen={isMobileOpen}
          onToggleMobile={sidebar.toggleMobile}
          sidebarId={sidebarId}
        />
      </AppShell.Header>

      {user && (
        // Lazily: the signed-out screens never load the sidebar (docs/architecture.md#web-app).
        <Suspense fallback={null}>
          <MemberNavbar
            user={user}
            sidebarId={sidebarId}
            collapsed={collapsed}
            isMobile={isMobile}
            isMobileOpen={isMobileOpen}
            closeMobile={closeMobile}
            toggleCollapsed={sidebar.toggleCollapsed}
            onSignOut={signOut}
          />
        </Suspense>
      )}

      <AppShell.Main id="main-content" tabIndex={-1} style={{ outline: 'none' }}>
        <ErrorBoundary level="nested" key={location.pathname}>
          <Suspense fallback={<ScreenLoader />}>
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </AppShell.Main>

      <Box
        component="footer"
        h={FOOTER_HEIGHT}
        style={{
          marginInlineStart: 'var(--app-shell-navbar-offset, 0rem)',
          borderTop: '1px solid var(--app-shell-border-color)',
          transition: 'margin-inline-start var(--app-shell-transition-duration) ease',
        }}
      >
        <AppFooter />
      </Box>
    </AppShell>
  );
}
