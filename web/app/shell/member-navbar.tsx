import { ActionIcon, AppShell, Divider, Overlay, ScrollArea, Tooltip } from '@mantine/core';
import { IconLayoutSidebarLeftCollapse, IconLayoutSidebarLeftExpand } from '@tabler/icons-react';
import { SIDEBAR_EXPANDED_PX } from '#shared/constants.ts';
import type { User } from '#web/lib/auth/user.ts';
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
                onClick={toggleCollapsed}
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
          <UserMenu user={user} collapsed={collapsed} onSignOut={onSignOut} />
        </AppShell.Section>
      </AppShell.Navbar>
      <KeyboardShortcuts />
    </>
  );
}
