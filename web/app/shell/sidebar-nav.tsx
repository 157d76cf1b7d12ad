import { Badge, NavLink, Stack, Text, Tooltip } from '@mantine/core';
import {
  IconActivity,
  IconBookmark,
  IconChartBar,
  IconHome,
  IconRadar,
  IconTags,
  IconUsers,
  type TablerIcon,
} from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { formatCount } from '#shared/format.ts';
import { normaliseViewQuery, useSavedViews } from '#web/features/repositories/api/saved-views.ts';
import { useAuth } from '#web/lib/auth/auth-context.tsx';
import classes from './app-layout.module.css';
import { useOnFallbackRoute } from './fallback-route.ts';
import { useSidebarCounts } from './use-sidebar-counts.ts';

interface NavItem {
  label: string;
  to: string;
  icon: TablerIcon;
  /** Repositories is active on / and /home, and on unknown paths, which show the list. */
  activeOn: string[];
  count: number | null;
  /**
   * A count that needs words (the member's own, not the whole list) goes on a line of its own
   * under the label: a badge that long beside the label left 'Repositor…' in a 240 px sidebar.
   */
  countBelow?: string;
  /** What the badge's number means, for screen readers and the tooltip ('{n} tags' otherwise). */
  countLabel?: (count: number) => string;
}

export function SidebarNav({ collapsed }: { collapsed: boolean }) {
  const { pathname, search } = useLocation();
  const counts = useSidebarCounts();
  const onFallback = useOnFallbackRoute();
  const userId = useAuth().user?.id;
  const views = useSavedViews(userId !== undefined).data ?? [];
  const current = pathname === '/home' ? normaliseViewQuery(search) : null;
  const activeView = current ? views.find((view) => normaliseViewQuery(view.query) === current) : undefined;
  const items: NavItem[] = [
    {
      label: 'Repositories',
      to: '/home',
      icon: IconHome,
      activeOn: ['/', '/home'],
      count: counts.repositories,
      // Beside a list of every member's repositories, a bare '0' read as a bug.
      countBelow: 'added by you',
    },
    { label: 'Tags', to: '/tags', icon: IconTags, activeOn: ['/tags'], count: counts.tags },
    { label: 'Statistics', to: '/stats', icon: IconChartBar, activeOn: ['/stats'], count: null },
    { label: 'Activity', to: '/activity', icon: IconActivity, activeOn: ['/activity'], count: null },
    {
      label: 'Radar',
      to: '/radar',
      icon: IconRadar,
      activeOn: ['/radar'],
      count: counts.reviewsDue,
      countLabel: (count) => `${count} ${count === 1 ? 'review' : 'reviews'} due`,
    },
  ];

  return (
    <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {items.map(({ label, to, icon: Icon, activeOn, count, countBelow, countLabel }) => {
        const active =
          (activeOn.includes(pathname) && !(to === '/home' && activeView)) || (onFallback && to === '/home');
        const shown = collapsed ? null : count;
        const link = (
          <NavLink
            component={Link}
            to={to}
            active={active}
            aria-current={active ? 'page' : undefined}
            // Collapsed, the label is hidden, so it moves into the accessible name.
            aria-label={collapsed ? label : undefined}
            label={collapsed ? undefined : label}
            description={
              // Plain text, read as part of the link's name ('Repositories 1,234 added by you').
              shown !== null && countBelow ? `${formatCount(shown)} ${countBelow}` : undefined
            }
            leftSection={<Icon size={20} stroke={1.75} aria-hidden />}
            rightSection={
              shown !== null && !countBelow ? (
                <Badge
                  size="sm"
                  variant="light"
                  tt="none"
                  aria-label={countLabel ? countLabel(shown) : `${shown} ${label.toLowerCase()}`}
                  title={countLabel?.(shown)}
                >
                  {formatCount(shown)}
                </Badge>
              ) : undefined
            }
            styles={
              collapsed
                ? { section: { marginInlineEnd: 0 }, root: { justifyContent: 'center' } }
                : // Mantine fades an active link's description to 0.9, below AA on the light scheme.
                  { description: { opacity: 1 } }
            }
          />
        );
        return (
          <li key={to}>
            {collapsed ? (
              <Tooltip label={label} position="right">
                {link}
              </Tooltip>
            ) : (
              link
            )}
          </li>
        );
      })}
      {views.length > 0 && !collapsed && (
        <li>
          <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pt="md" pb={4} id="saved-views-heading">
            Views
          </Text>
          <Stack gap={2} component="ul" aria-labelledby="saved-views-heading" className={classes.plainList}>
            {views.map((view) => {
              const active = view.id === activeView?.id;
              return (
                <li key={view.id}>
                  <NavLink
                    component={Link}
                    to={view.query ? `/home?${view.query}` : '/home'}
                    active={active}
                    aria-current={active ? 'page' : undefined}
                    label={view.name}
                    description={
                      view.shared && view.owner.id !== userId ? `Shared by ${view.owner.username}` : undefined
                    }
                    leftSection={
                      view.shared ? (
                        // Another member's view says so in its description; one's own needs the icon's word.
                        <IconUsers
                          size={18}
                          stroke={1.75}
                          aria-label={view.owner.id === userId ? 'Shared' : undefined}
                          aria-hidden={view.owner.id !== userId || undefined}
                        />
                      ) : (
                        <IconBookmark size={18} stroke={1.75} aria-hidden />
                      )
                    }
                    py={6}
                  />
                </li>
              );
            })}
          </Stack>
        </li>
      )}
    </Stack>
  );
}
