import { ActionIcon, AppShell, Box, Divider, Overlay, ScrollArea, Tooltip } from '@mantine/core';
import { IconLayoutSidebarLeftCollapse, IconLayoutSidebarLeftExpand } from '@tabler/icons-react';
import { Suspense, useEffect, useId } from 'react';
import { Outlet, useLocation } from 'react-router';
import { MOBILE_BREAKPOINT_PX, SIDEBAR_COLLAPSED_PX, SIDEBAR_EXPANDED_PX } from '#shared/constants.ts';
import { ErrorBoundary } from '#web/components/error-boundary.tsx';
import { ScreenLoader } from '#web/components/loading-screen.tsx';
import { useAppName } from '#web/features/system/hooks/use-app-name.ts';
import { useAuth } from '#web/lib/auth/auth-context.tsx';
import { useAppNameTitle } from '#web/lib/hooks/use-screen-title.ts';
import { AppFooter } from './app-footer.tsx';
import classes from './app-layout.module.css';
import { KeyboardShortcuts } from './keyboard-shortcuts.tsx';
import { SidebarNav } from './sidebar-nav.tsx';
import { TopBar } from './top-bar.tsx';
import { useSidebarState } from './use-sidebar-state.ts';
import { UserMenu } from './user-menu.tsx';

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
        <>
          {isMobile && isMobileOpen && (
            // The click-outside target: covers the page below the overlay sidebar.
            <Overlay fixed zIndex={99} backgroundOpacity={0.45} onClick={closeMobile} aria-hidden />
          )}
          <AppShell.Navbar
            id={sidebarId}
            aria-label="Main navigation"
            // On phones the overlay keeps the desktop width instead of Mantine's full width.
            w={isMobile ? SIDEBAR_EXPANDED_PX : undefined}
            p={collapsed ? 6 : 'sm'}
          >
            {!isMobile && (
              <AppShell.Section
                mb="xs"
                style={{ display: 'flex', justifyContent: collapsed ? 'center' : 'flex-end' }}
              >
                <Tooltip label={collapsed ? 'Expand sidebar' : 'Collapse sidebar'} position="right">
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    size="lg"
                    aria-label={collapsed ? 'Expand sidebar' : 'Collapse sidebar'}
                    aria-expanded={!collapsed}
                    aria-controls={sidebarId}
                    onClick={sidebar.toggleCollapsed}
                  >
                    {collapsed ? (
                      <IconLayoutSidebarLeftExpand size={20} aria-hidden />
                    ) : (
                      <IconLayoutSidebarLeftCollapse size={20} aria-hidden />
                    )}
                  </ActionIcon>
                </Tooltip>
              </AppShell.Section>
            )}
            <AppShell.Section grow component={ScrollArea}>
              <SidebarNav collapsed={collapsed} />
            </AppShell.Section>
            <Divider my="xs" />
            <AppShell.Section>
              <UserMenu user={user} collapsed={collapsed} onSignOut={signOut} />
            </AppShell.Section>
          </AppShell.Navbar>
        </>
      )}

      {signedIn && <KeyboardShortcuts />}
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
