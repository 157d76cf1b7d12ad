import { Avatar, Badge, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import {
  IconAdjustments,
  IconChevronUp,
  IconDatabase,
  IconLayoutDashboard,
  IconLogout,
  IconSettings,
  IconTool,
  IconUser,
  IconUsersGroup,
  type TablerIcon,
} from '@tabler/icons-react';
import { Link } from 'react-router';
import { displayName, type User } from '#web/lib/auth/user.ts';

/** The Administration items, each a tab of the admin dashboard. */
const adminItems: { label: string; tab: string; icon: TablerIcon }[] = [
  { label: 'Dashboard', tab: 'overview', icon: IconLayoutDashboard },
  { label: 'User Management', tab: 'users', icon: IconUsersGroup },
  { label: 'Repository Tools', tab: 'repositories', icon: IconTool },
  { label: 'Database Management', tab: 'database', icon: IconDatabase },
  { label: 'System Settings', tab: 'settings', icon: IconAdjustments },
];

export interface UserMenuProps {
  user: User;
  collapsed: boolean;
  onSignOut: () => void;
}

/** The signed-in sidebar footer: who is signed in, and where their account lives. */
export function UserMenu({ user, collapsed, onSignOut }: UserMenuProps) {
  const name = displayName(user);
  const initial = (user.first_name.trim()[0] ?? user.username[0] ?? '?').toUpperCase();

  return (
    <Menu position={collapsed ? 'right-end' : 'top-start'} width={240} withinPortal>
      <Menu.Target>
        <UnstyledButton
          aria-label={collapsed ? `Account menu for ${name}` : undefined}
          w="100%"
          p={6}
          style={{ borderRadius: 'var(--mantine-radius-md)' }}
        >
          <Group gap="xs" wrap="nowrap" justify={collapsed ? 'center' : 'flex-start'}>
            <Avatar color="indigo" radius="xl" aria-hidden>
              {initial}
            </Avatar>
            {!collapsed && (
              <>
                <div style={{ flex: 1, minWidth: 0 }}>
                  <Text size="sm" fw={600} truncate>
                    {name}
                  </Text>
                  <Text size="xs" c="dimmed" truncate>
                    {user.email}
                  </Text>
                  {user.is_admin && (
                    <Badge size="xs" variant="filled" color="grape" tt="none" mt={4}>
                      Admin
                    </Badge>
                  )}
                </div>
                <IconChevronUp size={14} aria-hidden style={{ flexShrink: 0 }} />
              </>
            )}
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component={Link} to="/profile" leftSection={<IconUser size={16} aria-hidden />}>
          Profile
        </Menu.Item>
        <Menu.Item component={Link} to="/settings" leftSection={<IconSettings size={16} aria-hidden />}>
          Settings
        </Menu.Item>
        {user.is_admin && (
          <>
            <Menu.Divider />
            <Menu.Label>Administration</Menu.Label>
            {adminItems.map(({ label, tab, icon: Icon }) => (
              <Menu.Item
                key={tab}
                component={Link}
                to={`/admin?tab=${tab}`}
                leftSection={<Icon size={16} aria-hidden />}
              >
                {label}
              </Menu.Item>
            ))}
          </>
        )}
        <Menu.Divider />
        <Menu.Item color="red" leftSection={<IconLogout size={16} aria-hidden />} onClick={onSignOut}>
          Sign Out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
