import { Badge, Loader, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { formatAccountAge, formatDate, formatDateTime } from '#shared/format.ts';
import { useCatalogueCounts } from '#web/catalogue/get-catalogue-counts.ts';
import { DetailList } from '#web/components/detail-list.tsx';
import type { User } from '#web/lib/auth/user.ts';

function Stat({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="md" bg="var(--mantine-color-default-hover)">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600} lts={0.4}>
        {label}
      </Text>
      <Text size="xl" fw={700} mt={4} component="div">
        {children}
      </Text>
    </Paper>
  );
}

function Flag({ value }: { value: boolean }) {
  return (
    <Badge size="lg" variant="light" color={value ? 'teal' : 'gray'}>
      {value ? 'Yes' : 'No'}
    </Badge>
  );
}

/** Repository count, account age, email verified, admin. */
export function AccountStatisticsCard({ user }: { user: User }) {
  // The server's count of the member's own repositories (shared with the sidebar's badge).
  const count = useCatalogueCounts();
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
      <Stack gap="md">
        <Title order={2} size="h4">
          Account Statistics
        </Title>
        <SimpleGrid cols={2} spacing="sm">
          <Stat label="Repositories">
            {count.isPending ? (
              <Loader size="sm" aria-label="Loading repository count" />
            ) : count.isSuccess ? (
              count.data.mine
            ) : (
              // The count may fail: the profile still works.
              <span title="Not available">—</span>
            )}
          </Stat>
          <Stat label="Account Age">{formatAccountAge(user.created_at)}</Stat>
          <Stat label="Email Verified">
            <Flag value={user.is_verified} />
          </Stat>
          <Stat label="Admin">
            <Flag value={user.is_admin} />
          </Stat>
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}

/** Member since, last updated, last login, status. */
export function AccountDetailsCard({ user }: { user: User }) {
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
      <Stack gap="xs">
        <Title order={2} size="h4">
          Account Details
        </Title>
        <DetailList
          items={[
            { label: 'Member Since', value: formatDate(user.created_at, { month: 'long' }) },
            { label: 'Last Updated', value: formatDateTime(user.updated_at) },
            { label: 'Last Login', value: formatDateTime(user.last_login_at, { missing: 'Never' }) },
            {
              label: 'Status',
              value: (
                <Badge variant="light" color={user.is_active ? 'teal' : 'red'}>
                  {user.is_active ? 'Active' : 'Inactive'}
                </Badge>
              ),
            },
          ]}
        />
      </Stack>
    </Paper>
  );
}
