import { ActionIcon, Box, Divider, Overlay, ScrollArea, Tooltip } from '@mantine/core';
import { IconLayoutSidebarLeftCollapse, IconLayoutSidebarLeftExpand } from '@tabler/icons-react';
import type { User } from '#web/lib/auth/user.ts';
import classes from './app-layout.module.css';
import './member-styles.ts';
import { KeyboardShortcuts } from './keyboard-shortcuts.tsx';
import { SidebarNav } from './sidebar-nav.tsx';
import { UserMenu } from './user-menu.tsx';

export interface MemberNavbarProps {
  user: User;
  sidebarId: string;
  collapsed: boolean;
  isMobile: boolean;
  isMobileOpen: boolean;
  closeMobile: () => void;
  toggleCollapsed: () => void;
  onSignOut: () => void;
}

/**
 * The signed-in half of the shell: the sidebar (its counts and saved views), the user menu and
 * the keyboard shortcuts. Its own chunk, with the Mantine styles of the signed-in screens
 * (member-styles.ts), so the signed-out first screens don't load it (docs/architecture.md#web-app).
 */
export default function MemberNavbar({
  user,
  sidebarId,
  collapsed,
  isMobile,
  isMobileOpen,
  closeMobile,
  toggleCollapsed,
  onSignOut,
}: MemberNavbarProps) {
  return (
    <>
      {isMobile && isMobileOpen && (
        // The click-outside target: covers the page below the overlay sidebar.
        <Overlay fixed zIndex={99} backgroundOpacity={0.45} onClick={closeMobile} aria-hidden />
      )}
      <Box
        component="nav"
        id={sidebarId}
        aria-label="Main navigation"
        className={classes.navbar}
        // Closed on a phone: off-screen and out of the tab order until the top bar's button opens it.
        mod={{ hidden: isMobile && !isMobileOpen }}
        p={collapsed ? 6 : 'sm'}
      >
        {!isMobile && (
          <Box
            className={classes.navbarSection}
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
                onClick={toggleCollapsed}
              >
                {collapsed ? (
                  <IconLayoutSidebarLeftExpand size={20} aria-hidden />
                ) : (
                  <IconLayoutSidebarLeftCollapse size={20} aria-hidden />
                )}
              </ActionIcon>
            </Tooltip>
          </Box>
        )}
        <ScrollArea className={classes.navbarSection} mod={{ grow: true }}>
          <SidebarNav collapsed={collapsed} />
        </ScrollArea>
        <Divider my="xs" />
        <Box className={classes.navbarSection}>
          <UserMenu user={user} collapsed={collapsed} onSignOut={onSignOut} />
        </Box>
      </Box>
      <KeyboardShortcuts />
    </>
  );
}
