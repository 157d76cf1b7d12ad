import { Badge, NavLink, Stack, Tooltip } from '@mantine/core';
import { IconActivity, IconChartBar, IconHome, IconTags, type TablerIcon } from '@tabler/icons-react';
import { Link, useLocation, useMatches } from 'react-router';
import { formatCount } from '../../../shared/format.ts';
import { useSidebarCounts } from './use-sidebar-counts.ts';

interface NavItem {
  label: string;
  to: string;
  icon: TablerIcon;
  /** Repositories is active on / and /home, and on unknown paths, which show the list. */
  activeOn: string[];
  count: number | null;
  /** What the count counts, after the number ('mine': the member's own, not the whole list). */
  countLabel?: { text: string; spoken: string };
}

/** The route table marks the catch-all route's match (`handle.fallback`): an unknown path. */
function useOnFallbackRoute(): boolean {
  const matches = useMatches();
  const deepest = matches[matches.length - 1]?.handle as { fallback?: boolean } | undefined;
  return deepest?.fallback === true;
}

export function SidebarNav({ collapsed }: { collapsed: boolean }) {
  const { pathname } = useLocation();
  const counts = useSidebarCounts();
  const onFallback = useOnFallbackRoute();
  const items: NavItem[] = [
    {
      label: 'Repositories',
      to: '/home',
      icon: IconHome,
      activeOn: ['/', '/home'],
      count: counts.repositories,
      // Beside a list of every member's repositories, a bare '0' read as a bug.
      countLabel: { text: 'mine', spoken: 'added by you' },
    },
    { label: 'Tags', to: '/tags', icon: IconTags, activeOn: ['/tags'], count: counts.tags },
    { label: 'Statistics', to: '/stats', icon: IconChartBar, activeOn: ['/stats'], count: null },
    { label: 'Activity', to: '/activity', icon: IconActivity, activeOn: ['/activity'], count: null },
  ];

  return (
    <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {items.map(({ label, to, icon: Icon, activeOn, count, countLabel }) => {
        const active = activeOn.includes(pathname) || (onFallback && to === '/home');
        const link = (
          <NavLink
            component={Link}
            to={to}
            active={active}
            aria-current={active ? 'page' : undefined}
            // Collapsed, the label is hidden, so it moves into the accessible name.
            aria-label={collapsed ? label : undefined}
            label={collapsed ? undefined : label}
            leftSection={<Icon size={20} stroke={1.75} aria-hidden />}
            rightSection={
              !collapsed && count !== null ? (
                <Badge
                  // Small enough that 'Repositories' keeps its whole label beside '1,234 mine'.
                  size={countLabel ? 'xs' : 'sm'}
                  px={countLabel ? 6 : undefined}
                  variant="light"
                  tt="none"
                  aria-label={`${count} ${label.toLowerCase()}${countLabel ? ` ${countLabel.spoken}` : ''}`}
                >
                  {countLabel ? `${formatCount(count)} ${countLabel.text}` : formatCount(count)}
                </Badge>
              ) : undefined
            }
            styles={
              collapsed ? { section: { marginInlineEnd: 0 }, root: { justifyContent: 'center' } } : undefined
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
    </Stack>
  );
}
