import {
  Badge,
  Button,
  Center,
  Group,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconArrowsExchange, IconCopy, IconRefresh, IconTags, type TablerIcon } from '@tabler/icons-react';
import { SectionError } from '#web/components/load-states.tsx';
import { useAdminStats } from '../api/get-admin-stats.ts';
import { loadErrorMessage } from '../lib/admin-messages.ts';
import { AdminRepositoryList } from './admin-repository-list.tsx';
import { RepositoryCounts } from './overview-panel.tsx';

/** Repository tools that do not exist yet, shown disabled and marked 'Coming Soon'. */
const TOOLS: { name: string; description: string; icon: TablerIcon }[] = [
  {
    name: 'Sync all repositories',
    description: 'Refresh every repository from GitHub in one run, within the quota.',
    icon: IconRefresh,
  },
  {
    name: 'Find duplicates and renames',
    description: 'Spot repositories that moved or were renamed on GitHub.',
    icon: IconCopy,
  },
  {
    name: 'Bulk tag editor',
    description: 'Rename, merge or remove tags across the whole catalogue.',
    icon: IconTags,
  },
  {
    name: 'Transfer ownership',
    description: "Move a member's repositories to another member.",
    icon: IconArrowsExchange,
  },
];

/** The repository counts, every repository page by page, and the tools to come. */
export function RepositoriesPanel({ onForbidden }: { onForbidden: () => void }) {
  const stats = useAdminStats();
  return (
    <Stack gap="xl">
      {stats.isPending && (
        <Center py="xl">
          <Loader aria-label="Loading repository counts" />
        </Center>
      )}
      {stats.isError && (
        <SectionError
          message={loadErrorMessage(stats.error, 'repositories')}
          onRetry={() => void stats.refetch()}
          retrying={stats.isFetching}
        />
      )}
      {stats.data && <RepositoryCounts repositories={stats.data.repositories} />}
      <AdminRepositoryList onForbidden={onForbidden} />
      <section aria-labelledby="admin-repository-tools">
        <Title order={2} size="h4" mb="sm" id="admin-repository-tools">
          Repository tools
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          {TOOLS.map(({ name, description, icon: Icon }) => (
            <Paper key={name} withBorder radius="md" p="md">
              <Group gap="sm" align="flex-start" wrap="nowrap">
                <ThemeIcon variant="light" color="gray" size={36} radius="md" aria-hidden>
                  <Icon size={20} stroke={1.6} />
                </ThemeIcon>
                <div style={{ minWidth: 0 }}>
                  <Text fw={600}>{name}</Text>
                  <Text size="sm" c="dimmed">
                    {description}
                  </Text>
                </div>
              </Group>
              <Group mt="md" gap="sm">
                <Button size="xs" variant="default" disabled>
                  {name}
                </Button>
                <Badge color="gray" variant="light" tt="none">
                  Coming Soon
                </Badge>
              </Group>
            </Paper>
          ))}
        </SimpleGrid>
      </section>
    </Stack>
  );
}
