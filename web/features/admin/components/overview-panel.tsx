import { Center, Loader, SimpleGrid, Stack, Title } from '@mantine/core';
import {
  IconBook2,
  IconCircleCheck,
  IconShieldCheck,
  IconStar,
  IconStarHalfFilled,
  IconUserCheck,
  IconUserPlus,
  IconUsers,
  IconUsersGroup,
} from '@tabler/icons-react';
import { formatAverage, formatCount } from '#shared/format.ts';
import { SectionError } from '#web/components/load-states.tsx';
import { StatCard } from '#web/components/stat-card.tsx';
import { useAdminStats } from '../api/get-admin-stats.ts';
import { loadErrorMessage } from '../lib/admin-messages.ts';
import { SyncEngineSection } from './sync-engine-section.tsx';

/** Overview: user counts, repository counts and the sync engine. */
export function OverviewPanel() {
  return (
    <Stack gap="xl">
      <AccountCounts />
      <SyncEngineSection />
    </Stack>
  );
}

/** The user and repository cards, with their own loading and error states. */
function AccountCounts() {
  const stats = useAdminStats();
  if (stats.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading statistics" />
      </Center>
    );
  }
  if (stats.isError) {
    return (
      <SectionError
        message={loadErrorMessage(stats.error, 'statistics')}
        onRetry={() => void stats.refetch()}
        retrying={stats.isFetching}
      />
    );
  }
  const { users, repositories } = stats.data;
  return (
    <Stack gap="xl">
      <section aria-labelledby="admin-overview-users">
        <Title order={2} size="h4" mb="sm" id="admin-overview-users">
          Users
        </Title>
        <SimpleGrid cols={{ base: 2, md: 3, lg: 5 }} spacing="md">
          <StatCard label="Total users" value={formatCount(users.total)} icon={IconUsers} />
          <StatCard label="Active" value={formatCount(users.active)} icon={IconUserCheck} color="teal" />
          <StatCard
            label="Verified"
            value={formatCount(users.verified)}
            icon={IconCircleCheck}
            color="blue"
          />
          <StatCard label="Admins" value={formatCount(users.admin)} icon={IconShieldCheck} color="grape" />
          <StatCard
            label="New (30 days)"
            value={formatCount(users.recent)}
            icon={IconUserPlus}
            color="orange"
          />
        </SimpleGrid>
      </section>
      <RepositoryCounts repositories={repositories} />
    </Stack>
  );
}

export function RepositoryCounts({
  repositories,
}: {
  repositories: { total: number; users_with_repos: number; total_stars: number; avg_stars: number };
}) {
  return (
    <section aria-labelledby="admin-overview-repositories">
      <Title order={2} size="h4" mb="sm" id="admin-overview-repositories">
        Repositories
      </Title>
      <SimpleGrid cols={{ base: 2, lg: 4 }} spacing="md">
        <StatCard label="Total repositories" value={formatCount(repositories.total)} icon={IconBook2} />
        <StatCard
          label="Users with repos"
          value={formatCount(repositories.users_with_repos)}
          icon={IconUsersGroup}
          color="teal"
        />
        <StatCard
          label="Total stars"
          value={formatCount(repositories.total_stars)}
          icon={IconStar}
          color="yellow"
        />
        <StatCard
          label="Average stars"
          value={formatAverage(repositories.avg_stars)}
          icon={IconStarHalfFilled}
          color="orange"
        />
      </SimpleGrid>
    </section>
  );
}
