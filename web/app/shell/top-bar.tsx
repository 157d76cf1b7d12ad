import { ActionIcon, Anchor, Burger, Button, Group, Text } from '@mantine/core';
import { IconBooks, IconLogin, IconPlus } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { useAppName } from '#web/features/system/hooks/use-app-name.ts';
import { ColorSchemeToggle } from './color-scheme-toggle.tsx';

export interface TopBarProps {
  signedIn: boolean;
  isMobile: boolean;
  isMobileOpen: boolean;
  onToggleMobile: () => void;
  /** id of the sidebar the menu button controls. */
  sidebarId: string;
}

export function TopBar({ signedIn, isMobile, isMobileOpen, onToggleMobile, sidebarId }: TopBarProps) {
  const appName = useAppName();
  const { pathname } = useLocation();

  return (
    // Tighter on phones, so the app's name fits whole beside the three buttons.
    <Group h="100%" px={isMobile ? 'sm' : 'md'} justify="space-between" wrap="nowrap" gap="xs">
      <Group gap={isMobile ? 'xs' : 'sm'} wrap="nowrap" miw={0}>
        {signedIn && isMobile && (
          <Burger
            opened={isMobileOpen}
            onClick={onToggleMobile}
            size="sm"
            aria-label={isMobileOpen ? 'Close navigation' : 'Open navigation'}
            aria-expanded={isMobileOpen}
            aria-controls={sidebarId}
          />
        )}
        <Anchor component={Link} to="/" underline="never" c="inherit" miw={0}>
          <Group gap={isMobile ? 6 : 8} wrap="nowrap">
            <IconBooks size={isMobile ? 22 : 26} color="var(--mantine-color-indigo-text)" aria-hidden />
            <Text fw={700} size={isMobile ? 'md' : 'lg'} truncate>
              {appName}
            </Text>
          </Group>
        </Anchor>
      </Group>
      <Group gap={isMobile ? 'xs' : 'sm'} wrap="nowrap">
        {signedIn &&
          (isMobile ? (
            <ActionIcon component={Link} to="/add" size="lg" aria-label="Add Repository">
              <IconPlus size={20} aria-hidden />
            </ActionIcon>
          ) : (
            <Button component={Link} to="/add" leftSection={<IconPlus size={18} aria-hidden />}>
              Add Repository
            </Button>
          ))}
        {!signedIn && pathname !== '/login' && (
          <Button
            component={Link}
            to="/login"
            variant="default"
            leftSection={<IconLogin size={18} aria-hidden />}
          >
            Sign In
          </Button>
        )}
        <ColorSchemeToggle />
      </Group>
    </Group>
  );
}
