import { Anchor, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import type { CatalogueStats, StatusFilterValue } from '#shared/schemas/catalogue.ts';
import { DecisionBadge } from '#web/components/decision-badge.tsx';
import { Line } from './health-overview.tsx';
import classes from './stats.module.css';

const STATUS_BAR: Record<StatusFilterValue, string> = {
  adopt: 'green.7',
  trial: 'blue.6',
  assess: 'grape.6',
  hold: 'orange.6',
  retired: 'gray.6',
  none: 'gray.4',
};

/**
 * The team's decisions over the filtered repositories (docs/product.md#statistics-page): how
 * many are in each ring, Retired and without a status, each a link to the list filtered by it.
 */
export function DecisionOverview({
  statuses,
  listParams,
}: {
  statuses: CatalogueStats['decision_statuses'];
  /** The list's parameters for the same filters, to which a status's link adds `status=`. */
  listParams: string;
}) {
  const most = Math.max(0, ...statuses.map((entry) => entry.count));
  const decided = statuses
    .filter((entry) => entry.status !== 'none')
    .reduce((sum, entry) => sum + entry.count, 0);
  const link = (status: StatusFilterValue) => {
    const params = new URLSearchParams(listParams);
    params.set('status', status);
    return `/home?${params.toString()}`;
  };
  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'md', sm: 'lg' }}
      component="section"
      aria-labelledby="stats-decisions"
    >
      <Stack gap="sm">
        <Title order={2} size="h3" id="stats-decisions">
          Team decisions
        </Title>
        {decided === 0 && (
          <Text size="sm" c="dimmed">
            No decision recorded for these repositories yet: set one on a repository's Decision tab.
          </Text>
        )}
        <Stack component="ul" gap={8} className={classes.topicList} aria-labelledby="stats-decisions">
          {statuses.map(({ status, count }) => {
            const badge = <DecisionBadge status={status === 'none' ? null : status} size="md" />;
            return (
              <Line
                key={status}
                badge={
                  count > 0 ? (
                    <Anchor
                      component={Link}
                      to={link(status)}
                      aria-label={
                        status === 'none'
                          ? 'Show the repositories without a status'
                          : `Show the repositories in ${status}`
                      }
                    >
                      {badge}
                    </Anchor>
                  ) : (
                    badge
                  )
                }
                count={count}
                most={most}
                color={STATUS_BAR[status]}
              />
            );
          })}
        </Stack>
      </Stack>
    </Paper>
  );
}
