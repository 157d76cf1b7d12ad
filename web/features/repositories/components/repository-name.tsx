import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { encodeRouteId } from '#shared/route-id.ts';
import type { RepositorySummary } from '#shared/schemas/repositories.ts';
import classes from './repository-list.module.css';

/** The repository's name linking to its detail, with its full id under it (table and cards). */
export function RepositoryName({ repository, weight }: { repository: RepositorySummary; weight: 600 | 700 }) {
  return (
    <>
      <Anchor
        component={Link}
        to={`/repo/${encodeRouteId(repository.id)}`}
        fw={weight}
        className={classes.name}
      >
        {repository.name}
      </Anchor>
      <Text size="xs" c="dimmed" truncate>
        {repository.id}
      </Text>
    </>
  );
}
