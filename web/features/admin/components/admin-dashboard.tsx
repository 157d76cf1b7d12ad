import { Group, Stack, Tabs, Title } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import {
  IconAdjustments,
  IconBook2,
  IconDatabase,
  IconKey,
  IconLayoutDashboard,
  IconUsersGroup,
  IconWorld,
  type TablerIcon,
} from '@tabler/icons-react';
import { useCallback, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ADMIN_USERS_DASHBOARD_PER_PAGE, MOBILE_BREAKPOINT_PX } from '#shared/constants.ts';
import { PageContainer } from '#web/components/page-container.tsx';
import { useAuth } from '#web/lib/auth/auth-context.tsx';
import { useAdminStats } from '../api/get-admin-stats.ts';
import { useAdminUsers } from '../api/get-admin-users.ts';
import { isForbidden } from '../lib/admin-messages.ts';
import { AccessDenied } from './access-denied.tsx';
import { DatabasePanel } from './database-panel.tsx';
import { OverviewPanel } from './overview-panel.tsx';
import { PublicPagesPanel } from './public-pages-panel.tsx';
import { RepositoriesPanel } from './repositories-panel.tsx';
import { SettingsPanel } from './settings-panel.tsx';
import { SignInPanel } from './sign-in-panel.tsx';
import { type ActiveFilter, UsersPanel } from './users-panel.tsx';

export const ADMIN_TABS = [
  'overview',
  'users',
  'repositories',
  'database',
  'public-pages',
  'sign-in',
  'settings',
] as const;
export type AdminTab = (typeof ADMIN_TABS)[number];

const TAB_LABELS: Record<AdminTab, { label: string; icon: TablerIcon }> = {
  overview: { label: 'Overview', icon: IconLayoutDashboard },
  users: { label: 'Users', icon: IconUsersGroup },
  repositories: { label: 'Repositories', icon: IconBook2 },
  database: { label: 'Database', icon: IconDatabase },
  'public-pages': { label: 'Public pages', icon: IconWorld },
  'sign-in': { label: 'Sign-in', icon: IconKey },
  settings: { label: 'Settings', icon: IconAdjustments },
};

function isAdminTab(value: string | null): value is AdminTab {
  return value !== null && (ADMIN_TABS as readonly string[]).includes(value);
}

/**
 * The admin dashboard (docs/product.md#admin-dashboard). The tab lives in the query string
 * (`#/admin?tab=users`), so the sidebar's Administration items, reloads and the back button all land on the
 * right tab. Statistics and the first page of users (50 per page) load with the dashboard.
 */
export function AdminDashboard() {
  const { user } = useAuth();
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: AdminTab = isAdminTab(requested) ? requested : 'overview';
  const [denied, setDenied] = useState(false);
  const compact = useMediaQuery(`(max-width: ${MOBILE_BREAKPOINT_PX}px)`) ?? false;
  const onForbidden = useCallback(() => setDenied(true), []);

  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, 300);
  const [activeFilter, setActiveFilter] = useState<ActiveFilter>('all');
  const [page, setPage] = useState(1);

  const stats = useAdminStats();
  const users = useAdminUsers({
    page,
    per_page: ADMIN_USERS_DASHBOARD_PER_PAGE,
    search: debouncedSearch,
    is_active: activeFilter === 'all' ? undefined : activeFilter === 'active',
  });

  if (denied || isForbidden(stats.error) || isForbidden(users.error)) return <AccessDenied />;

  return (
    <PageContainer>
      <Stack gap="lg">
        <Group justify="space-between">
          <Title order={1}>Admin Dashboard</Title>
        </Group>
        <Tabs
          value={tab}
          onChange={(value) => {
            if (isAdminTab(value)) setParams({ tab: value });
          }}
          keepMounted={false}
        >
          {/* Seven tabs: on the narrowest phones the row scrolls inside itself, never the page. */}
          <Tabs.List mb="lg" style={{ flexWrap: 'nowrap', overflowX: 'auto', overflowY: 'hidden' }}>
            {ADMIN_TABS.map((value) => {
              const { label, icon: Icon } = TAB_LABELS[value];
              // On a phone only the open tab spells its name, so all seven fit in one row.
              const iconOnly = compact && value !== tab;
              return (
                <Tabs.Tab
                  key={value}
                  value={value}
                  aria-label={label}
                  leftSection={<Icon size={iconOnly ? 20 : 16} aria-hidden />}
                  px={compact ? 'xs' : undefined}
                >
                  {iconOnly ? null : label}
                </Tabs.Tab>
              );
            })}
          </Tabs.List>
          <Tabs.Panel value="overview">
            <OverviewPanel />
          </Tabs.Panel>
          <Tabs.Panel value="users">
            <UsersPanel
              query={users}
              search={search}
              onSearchChange={(value) => {
                setSearch(value);
                setPage(1);
              }}
              activeFilter={activeFilter}
              onActiveFilterChange={(value) => {
                setActiveFilter(value);
                setPage(1);
              }}
              page={page}
              onPageChange={setPage}
              currentUserId={user?.id ?? 0}
              onForbidden={onForbidden}
            />
          </Tabs.Panel>
          <Tabs.Panel value="repositories">
            <RepositoriesPanel onForbidden={onForbidden} />
          </Tabs.Panel>
          <Tabs.Panel value="database">
            <DatabasePanel onForbidden={onForbidden} />
          </Tabs.Panel>
          <Tabs.Panel value="sign-in">
            <SignInPanel onForbidden={onForbidden} />
          </Tabs.Panel>
          <Tabs.Panel value="public-pages">
            <PublicPagesPanel />
          </Tabs.Panel>
          <Tabs.Panel value="settings">
            <SettingsPanel />
          </Tabs.Panel>
        </Tabs>
      </Stack>
    </PageContainer>
  );
}
