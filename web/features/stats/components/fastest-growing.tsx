import { Anchor, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { formatCount } from '#shared/format.ts';
import { encodeRouteId } from '#shared/route-id.ts';
import type { GrowingRepository } from '#shared/schemas/catalogue.ts';
import { formatGrowth } from '#web/catalogue/growth.ts';

/**
 * "Fastest growing, last 30 days" (docs/product.md#statistics-page): the 10 filtered
 * repositories that gained the most stars in 30 days, by the stored history.
 */
export function FastestGrowing({ repositories }: { repositories: readonly GrowingRepository[] }) {
  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'md', sm: 'lg' }}
      component="section"
      aria-labelledby="stats-growing"
    >
      <Stack gap="sm">
        <Title order={2} size="h3" id="stats-growing">
          Fastest growing, last 30 days
        </Title>
        {repositories.length === 0 ? (
          <Text size="sm" c="dimmed">
            No repository here gained stars in the last 30 days by the stored history. Growth shows once a
            repository has 30 days of history (daily syncs, or its star history loaded from GitHub).
          </Text>
        ) : (
          <Stack component="ol" gap={6} aria-label="Fastest growing repositories" m={0} pl="lg">
            {repositories.map((repository) => (
              <li key={repository.id}>
                <Group justify="space-between" gap="xs" wrap="nowrap">
                  <Anchor component={Link} to={`/repo/${encodeRouteId(repository.id)}`} size="sm" truncate>
                    {repository.id}
                  </Anchor>
                  <Text
                    size="sm"
                    fw={600}
                    style={{ whiteSpace: 'nowrap' }}
                    title={`${formatCount(repository.stars)} stars now`}
                  >
                    {`${formatGrowth(repository.stars_30d)} stars`}
                  </Text>
                </Group>
              </li>
            ))}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
