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

/** A button, not an `#main-content` link: with hash routing that link would be read as a route. */
function focusMain() {
  document.getElementById('main-content')?.focus();
}
/**
 * The sidebar's width and how far it pushes the screen and the footer, as variables on the
 * document (`--app-shell-navbar-width`, `--app-shell-navbar-offset`): the page's fixed
 * elements outside the shell (the selection bar's Affix) read them too. Below the breakpoint
 * the sidebar is an overlay and pushes nothing.
 */
function navbarVariables(width: number | null): string {
  if (width === null) return ':root{--app-shell-navbar-width:0px;--app-shell-navbar-offset:0px}';
  return `:root{--app-shell-navbar-width:${width}px;--app-shell-navbar-offset:0px}@media (min-width:${MOBILE_BREAKPOINT_PX + 1}px){:root{--app-shell-navbar-offset:${width}px}}`;
}

/**
 * The app shell (docs/product.md#app-shell): top bar, the members' sidebar, the screen, and the
 * version footer. A layout of the app's own (app-layout.module.css): Mantine's AppShell brought
 * its resize handle, aside and react-remove-scroll into the first load, which the app never used
 * (docs/decisions.md, "The first screens").
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

  const navbarWidth = signedIn ? (collapsed ? SIDEBAR_COLLAPSED_PX : SIDEBAR_EXPANDED_PX) : null;

  return (
    <div className={classes.shell}>
      <style>{navbarVariables(navbarWidth)}</style>
      <button type="button" className={classes.skipLink} onClick={focusMain}>
        Skip to content
      </button>
      <header className={classes.header}>
        <TopBar
          signedIn={signedIn}
          isMobile={isMobile}
          isMobileOpen={isMobileOpen}
          onToggleMobile={sidebar.toggleMobile}
          sidebarId={sidebarId}
        />
      </header>

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

      <main id="main-content" tabIndex={-1} className={classes.main}>
        <ErrorBoundary level="nested" key={location.pathname}>
          <Suspense fallback={<ScreenLoader />}>
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </main>

      <footer className={classes.footer}>
        <AppFooter />
      </footer>
    </div>
  );
}
