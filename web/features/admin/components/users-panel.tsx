import {
  Badge,
  Divider,
  Flex,
  Group,
  Pagination,
  Paper,
  SegmentedControl,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconLock, IconSearch } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { ADMIN_USERS_DASHBOARD_PER_PAGE, MOBILE_BREAKPOINT_PX } from '#shared/constants.ts';
import { formatDate } from '#shared/format.ts';
import type { AdminUser, AdminUserFlag, AdminUsersResponse } from '#shared/schemas/admin.ts';
import { InlineMessage } from '#web/components/inline-message.tsx';
import { SectionError } from '#web/components/load-states.tsx';
import { describeApiError } from '#web/lib/api-errors.ts';
import { useMessage } from '#web/lib/hooks/use-message.ts';
import { useUpdateAdminUser } from '../api/update-admin-user.ts';
import { loadErrorMessage, toggleFailedMessage } from '../lib/admin-messages.ts';

export type ActiveFilter = 'all' | 'active' | 'inactive';

export interface UsersPanelProps {
  /** The dashboard's users query (it loads with the dashboard: page 1, 50 per page). */
  query: {
    data: AdminUsersResponse | undefined;
    error: unknown;
    isPending: boolean;
    isFetching: boolean;
    isError: boolean;
    refetch: () => unknown;
  };
  search: string;
  onSearchChange: (value: string) => void;
  activeFilter: ActiveFilter;
  onActiveFilterChange: (value: ActiveFilter) => void;
  page: number;
  onPageChange: (page: number) => void;
  currentUserId: number;
  onForbidden: () => void;
}

/** Badges keep their full text (Mantine's clip them to the cell); narrow screens scroll the table. */
const NO_SHRINK = { flexShrink: 0, overflow: 'visible' } as const;
/** Mantine caps a badge at its cell's width and ellipsises the label: lift both. */
const FULL_LABEL = {
  root: { maxWidth: 'none' },
  label: { overflow: 'visible', textOverflow: 'clip' },
} as const;

const NO_MATCH = 'No users match.';

const FLAGS: { flag: AdminUserFlag; label: string }[] = [
  { flag: 'is_active', label: 'Active' },
  { flag: 'is_verified', label: 'Verified' },
  { flag: 'is_admin', label: 'Admin' },
];

/** Users: the table, with active / verified / admin toggles per user. */
export function UsersPanel(props: UsersPanelProps) {
  const { query, currentUserId, onForbidden } = props;
  const update = useUpdateAdminUser();
  const [pending, setPending] = useState<Set<string>>(() => new Set());
  const failure = useMessage();

  async function toggle(user: AdminUser, flag: AdminUserFlag, value: boolean) {
    const key = `${user.id}:${flag}`;
    setPending((current) => new Set(current).add(key));
    failure.clear();
    try {
      await update.mutateAsync({ id: user.id, flag, value });
    } catch (error) {
      const { kind, serverMessage } = describeApiError(error);
      if (kind === 'forbidden') {
        onForbidden();
        return;
      }
      // The documented alert; a rule the server enforces (409: last admin, self) says which one.
      const detail = kind === 'conflict' || kind === 'not_found' ? serverMessage : null;
      failure.showError(
        <>
          <Text span inherit fw={700}>
            {toggleFailedMessage(flag)}
          </Text>
          {detail && (
            <Text span inherit display="block">
              {detail}
            </Text>
          )}
        </>,
      );
    } finally {
      setPending((current) => {
        const next = new Set(current);
        next.delete(key);
        return next;
      });
    }
  }

  const compact = useMediaQuery(`(max-width: ${MOBILE_BREAKPOINT_PX}px)`) ?? false;
  const actions = (user: AdminUser, layout: 'column' | 'row') => (
    <FlagSwitches
      user={user}
      own={user.id === currentUserId}
      pending={pending}
      onToggle={toggle}
      layout={layout}
    />
  );

  const data = query.data;
  const perPage = data?.per_page ?? ADMIN_USERS_DASHBOARD_PER_PAGE;
  const pages = data ? Math.max(1, Math.ceil(data.total / perPage)) : 1;
  const first = data && data.total > 0 ? (data.page - 1) * perPage + 1 : 0;
  const last = data ? Math.min(data.total, (data.page - 1) * perPage + data.users.length) : 0;

  return (
    <Stack gap="md">
      {failure.message && (
        <InlineMessage kind="error" onClose={failure.clear}>
          {failure.message.text}
        </InlineMessage>
      )}
      <Group gap="sm" wrap="wrap" align="flex-end">
        <TextInput
          label="Search users"
          placeholder="Username, email or name"
          leftSection={<IconSearch size={16} aria-hidden />}
          value={props.search}
          onChange={(event) => props.onSearchChange(event.currentTarget.value)}
          style={{ flex: '1 1 260px', maxWidth: 420 }}
        />
        <SegmentedControl
          aria-label="Filter users by status"
          value={props.activeFilter}
          onChange={(value) => props.onActiveFilterChange(value as ActiveFilter)}
          data={[
            { value: 'all', label: 'All' },
            { value: 'active', label: 'Active' },
            { value: 'inactive', label: 'Inactive' },
          ]}
        />
      </Group>

      {query.isError && (
        <SectionError
          message={loadErrorMessage(query.error, 'users')}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      )}

      {query.isPending && !query.isError && <Text c="dimmed">Loading users...</Text>}

      {data && (
        <>
          {compact ? (
            <UserCards users={data.users} actions={actions} currentUserId={currentUserId} />
          ) : (
            <UserTable users={data.users} actions={actions} currentUserId={currentUserId} />
          )}
          <Group justify="space-between" gap="sm" wrap="wrap">
            <Text size="sm" c="dimmed" aria-live="polite">
              {data.total === 0
                ? 'No users'
                : `Showing ${first}–${last} of ${data.total} user${data.total === 1 ? '' : 's'}`}
            </Text>
            {pages > 1 && (
              <Pagination
                total={pages}
                value={props.page}
                onChange={props.onPageChange}
                size="sm"
                getControlProps={(control) => ({
                  'aria-label': control === 'previous' ? 'Previous page' : 'Next page',
                })}
              />
            )}
          </Group>
        </>
      )}
    </Stack>
  );
}

interface UserListProps {
  users: AdminUser[];
  actions: (user: AdminUser, layout: 'column' | 'row') => ReactNode;
  currentUserId: number;
}

function StatusBadge({ user }: { user: AdminUser }) {
  return (
    <Badge
      color={user.is_active ? 'teal' : 'gray'}
      variant="light"
      tt="none"
      style={NO_SHRINK}
      styles={FULL_LABEL}
    >
      {user.is_active ? 'Active' : 'Inactive'}
    </Badge>
  );
}

function VerifiedBadge({ user }: { user: AdminUser }) {
  return (
    <Badge
      color={user.is_verified ? 'blue' : 'orange'}
      variant="light"
      tt="none"
      style={NO_SHRINK}
      styles={FULL_LABEL}
    >
      {user.is_verified ? 'Verified' : 'Unverified'}
    </Badge>
  );
}

function RoleBadge({ user }: { user: AdminUser }) {
  return user.is_admin ? (
    <Badge color="grape" variant="filled" tt="none" style={NO_SHRINK} styles={FULL_LABEL}>
      Admin
    </Badge>
  ) : (
    <Text size="sm" c="dimmed">
      Member
    </Text>
  );
}

const METHOD_LABELS = { password: 'Password', sso: 'SSO' } as const;

/** How the user signs in: a password, single sign-on, or both. */
function SignInMethods({ user }: { user: AdminUser }) {
  const methods = user.sign_in_methods;
  if (!methods)
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  if (methods.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        None
      </Text>
    );
  }
  return (
    <Group
      gap={4}
      wrap="nowrap"
      aria-label={`Sign-in methods: ${methods.map((m) => METHOD_LABELS[m]).join(', ')}`}
    >
      {methods.map((method) => (
        <Badge
          key={method}
          color={method === 'sso' ? 'indigo' : 'gray'}
          variant="light"
          tt="none"
          style={NO_SHRINK}
          styles={FULL_LABEL}
        >
          {METHOD_LABELS[method]}
        </Badge>
      ))}
    </Group>
  );
}

function YouBadge() {
  return (
    <Badge size="xs" variant="outline" tt="none" style={NO_SHRINK} styles={FULL_LABEL}>
      You
    </Badge>
  );
}

/** Desktop: the table. */
function UserTable({ users, actions, currentUserId }: UserListProps) {
  return (
    <Table.ScrollContainer minWidth={1040} type="native">
      <Table striped highlightOnHover verticalSpacing="sm" aria-label="Users">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>ID</Table.Th>
            <Table.Th>Username</Table.Th>
            <Table.Th>Email</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Verified</Table.Th>
            <Table.Th>Admin</Table.Th>
            <Table.Th>Sign-in</Table.Th>
            <Table.Th title="Repositories added">Repos</Table.Th>
            <Table.Th>Created</Table.Th>
            <Table.Th>Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {users.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={10}>
                <Text c="dimmed" ta="center" py="md">
                  {NO_MATCH}
                </Text>
              </Table.Td>
            </Table.Tr>
          )}
          {users.map((user) => (
            <Table.Tr key={user.id}>
              <Table.Td>{user.id}</Table.Td>
              <Table.Td>
                <Group gap={6} wrap="nowrap">
                  <Text size="sm" fw={600}>
                    {user.username}
                  </Text>
                  {user.id === currentUserId && <YouBadge />}
                </Group>
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                <Text size="sm">{user.email}</Text>
              </Table.Td>
              <Table.Td>
                <StatusBadge user={user} />
              </Table.Td>
              <Table.Td>
                <VerifiedBadge user={user} />
              </Table.Td>
              <Table.Td>
                <RoleBadge user={user} />
              </Table.Td>
              <Table.Td>
                <SignInMethods user={user} />
              </Table.Td>
              <Table.Td>{user.repository_count}</Table.Td>
              <Table.Td>
                <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                  {formatDate(user.created_at)}
                </Text>
              </Table.Td>
              <Table.Td>{actions(user, 'column')}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Phones (≤ 768 px): the same fields and toggles as one card per user, no sideways scrolling. */
function UserCards({ users, actions, currentUserId }: UserListProps) {
  if (users.length === 0) {
    return (
      <Text c="dimmed" ta="center" py="md">
        {NO_MATCH}
      </Text>
    );
  }
  return (
    <Stack component="ul" aria-label="Users" gap="sm" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {users.map((user) => (
        <Paper component="li" key={user.id} withBorder radius="md" p="sm" aria-label={user.username}>
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
              <Text fw={600} truncate>
                {user.username}
              </Text>
              {user.id === currentUserId && <YouBadge />}
            </Group>
            <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
              ID {user.id}
            </Text>
          </Group>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {user.email}
          </Text>
          <Group gap={6} mt={6}>
            <StatusBadge user={user} />
            <VerifiedBadge user={user} />
            <RoleBadge user={user} />
            <SignInMethods user={user} />
          </Group>
          <Text size="xs" c="dimmed" mt={6}>
            {user.repository_count} {user.repository_count === 1 ? 'repository' : 'repositories'} · created{' '}
            {formatDate(user.created_at)}
          </Text>
          <Divider my="xs" />
          {actions(user, 'row')}
        </Paper>
      ))}
    </Stack>
  );
}

interface FlagSwitchesProps {
  user: AdminUser;
  /** The signed-in admin's own row: no self-deactivation, no self-demotion. */
  own: boolean;
  pending: Set<string>;
  onToggle: (user: AdminUser, flag: AdminUserFlag, value: boolean) => void;
  /** Stacked in a table cell, side by side on a card. */
  layout: 'column' | 'row';
}

export const FOLLOWS_GROUPS = "Follows the provider's groups";

const LOCKED_ON = {
  track: {
    backgroundColor: 'var(--mantine-primary-color-filled)',
    borderColor: 'var(--mantine-primary-color-filled)',
    opacity: 0.65,
  },
  thumb: { backgroundColor: 'var(--mantine-color-white)', borderColor: 'var(--mantine-color-white)' },
};

function FlagSwitches({ user, own, pending, onToggle, layout }: FlagSwitchesProps) {
  return (
    <Flex
      direction={layout}
      gap={layout === 'column' ? 6 : 'md'}
      wrap="wrap"
      align={layout === 'column' ? 'flex-start' : 'center'}
    >
      {FLAGS.map(({ flag, label }) => {
        // With OIDC_ADMIN_GROUPS every sign-in sets the flag from the provider's groups.
        const followsGroups = flag === 'is_admin' && user.admin_follows_groups === true;
        const locked = (own && flag !== 'is_verified') || followsGroups;
        const control = (
          <Switch
            key={flag}
            size="xs"
            label={label}
            aria-label={`${label}: ${user.username}`}
            aria-description={followsGroups ? FOLLOWS_GROUPS : undefined}
            checked={user[flag]}
            disabled={locked || pending.has(`${user.id}:${flag}`)}
            onChange={(event) => onToggle(user, flag, event.currentTarget.checked)}
            // Locked on your own account, but on: Mantine greys a disabled switch's track, which
            // read as off. The track keeps its colour, faded, with a lock on the thumb.
            thumbIcon={locked ? <IconLock size={10} aria-hidden /> : undefined}
            styles={locked && user[flag] ? LOCKED_ON : undefined}
          />
        );
        return locked ? (
          <Tooltip
            key={flag}
            label={followsGroups ? FOLLOWS_GROUPS : "You can't change this on your own account"}
            withArrow
          >
            <div style={{ width: 'fit-content' }}>{control}</div>
          </Tooltip>
        ) : (
          <div key={flag}>{control}</div>
        );
      })}
      {/* Phones show no tooltips: the card says it. */}
      {layout === 'row' && user.admin_follows_groups === true && (
        <Text size="xs" c="dimmed" w="100%">
          Admin: {FOLLOWS_GROUPS.toLowerCase()}
        </Text>
      )}
    </Flex>
  );
}
